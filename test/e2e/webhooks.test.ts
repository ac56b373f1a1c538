// Webhooks over a real server and a real HTTP receiver: endpoints registered through the admin API
// and CLI; a receiver that fails the first tries gets every event, signed, and processes each once;
// a slow answer is tried again and seen as a duplicate; the delivery log shows every try; a
// redelivery sends the same event again; a failed job sends generation.failed.
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ScriptoriumError, verifyWebhook } from 'scriptorium/client';
import t from 'tap';
import { cli } from '../helpers/cli.ts';
import { startReceiver, until } from '../helpers/receiver.ts';
import { call, jobFinished, startTestServer } from '../helpers/server.ts';

const ADMIN = 'webhooks-admin-token-0123456789';
const server = await startTestServer(t, {
  adminToken: ADMIN,
  webhookRetryBaseMs: 50,
  webhookPollMs: 50,
  webhookPrivateTargets: true,
  webhookTimeoutMs: 400,
  maxPages: 3,
  maxUnfinishedJobs: 10,
});
const admin = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${server.base}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: a test reads any shape of answer
  return { status: res.status, body: (await res.json()) as any };
};
const LETTER = 'Dear Margaret, thank you for the lovely afternoon tea last Sunday.';

t.test(
  'a receiver failing its first tries gets every event once, signed; the log shows each try',
  async (t) => {
    const a = await server.tenant();
    let secret = '';
    const receiver = await startReceiver(
      t,
      () => secret,
      // Two 500s for every delivery, then 200; the slow order is answered late on its first try
      // (after it was processed), so it is tried again and arrives as a duplicate.
      (r, seen) =>
        r.event.data.generation.metadata.order === 'slow' && seen === 1
          ? { status: 200, delayMs: 1500 }
          : r.event.data.generation.metadata.order === 'slow'
            ? { status: 200 }
            : seen <= 2
              ? { status: 500 }
              : { status: 200 },
    );
    const added = await admin('POST', `/accounts/${a.accountId}/webhooks`, {
      url: receiver.url,
      mode: 'test',
    });
    t.equal(added.status, 201);
    t.match(added.body, {
      id: /^hook_/,
      secret: /^whsec_[0-9A-Za-z]{32}$/,
      mode: 'test',
      events: ['generation.completed', 'generation.failed', 'preview.completed', 'preview.failed'],
    });
    secret = added.body.secret;
    const listed = await admin('GET', `/accounts/${a.accountId}/webhooks`);
    t.notOk('secret' in listed.body.data[0], 'a list never shows the secret');
    t.match(listed.body.data[0].secretPrefix, /^whsec_\w{6}…$/);

    const jobs: string[] = [];
    for (const [path, order] of [
      ['/generations', 'A-1'],
      ['/generations', 'slow'],
      ['/previews', 'P-1'],
    ] as const) {
      const r = await call(t, server, 'POST', path, {
        key: a.test,
        body: { templateId: a.templates.test.simple, text: `${LETTER} ${order}`, metadata: { order } },
      });
      t.equal(r.status, 202);
      jobs.push(r.body.id);
    }
    await until('three events are processed', () => receiver.processed.length === 3);
    await until('every delivery is recorded', async () => {
      const log = await admin('GET', `/webhooks/deliveries?account=${a.accountId}`);
      return (
        log.body.data.length === 3 && log.body.data.every((d: { status: string }) => d.status === 'delivered')
      );
    });
    t.same(receiver.refused, [], 'every signature verified');
    t.same(
      receiver.processed.map((e) => e.data.generation.id).sort(),
      [...jobs].sort(),
      'each job processed exactly once',
    );
    t.same(
      receiver.processed.map((e) => `${e.type} ${e.data.generation.metadata.order}`).sort(),
      ['generation.completed A-1', 'generation.completed slow', 'preview.completed P-1'],
      'the event types, with the metadata echoed',
    );
    const slow = receiver.received.filter((r) => r.event.data.generation.metadata.order === 'slow');
    t.equal(slow.length, 2, 'the slow answer was tried again');
    t.equal(slow[0]!.eventId, slow[1]!.eventId, 'with the same event id, so the receiver skipped it');
    t.same(
      slow.map((r) => r.attempt),
      [1, 2],
      'Scriptorium-Attempt counts the tries',
    );

    const fast = receiver.received.filter((r) => r.event.data.generation.metadata.order === 'A-1');
    t.same(
      fast.map((r) => r.attempt),
      [1, 2, 3],
      'two failures, then delivered',
    );
    const first = fast[0]!;
    t.match(first.headers, {
      'content-type': 'application/json',
      'scriptorium-event-type': 'generation.completed',
      'scriptorium-event-id': first.eventId,
      'scriptorium-delivery-id': /^dlv_/,
    });
    // The documented scheme, computed independently of the client's helper.
    const [, ts, sig] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(first.headers['scriptorium-signature']))!;
    t.equal(
      createHmac('sha256', secret).update(`${ts}.${first.body}`).digest('hex'),
      sig,
      'HMAC-SHA256 of "t.body"',
    );
    t.match(JSON.parse(first.body), {
      id: /^evt_/,
      type: 'generation.completed',
      data: { generation: { status: 'completed', pages: 1, downloadUrl: /\/download$/ } },
    });
    t.throws(
      () =>
        verifyWebhook(
          first.body.replace('completed', 'complete!'),
          String(first.headers['scriptorium-signature']),
          secret,
        ),
      ScriptoriumError,
      'an altered body is refused',
    );
    t.throws(
      () =>
        verifyWebhook(first.body, String(first.headers['scriptorium-signature']), secret, {
          now: new Date(Number(ts) * 1000 + 301_000),
        }),
      /more than 300 s/,
      'a replay five minutes later is refused',
    );

    const log = await admin('GET', `/webhooks/deliveries?account=${a.accountId}&job=${jobs[0]}`);
    const shown = await admin('GET', `/webhooks/deliveries/${log.body.data[0].id}`);
    t.same(
      shown.body.attempts.map((x: { statusCode: number }) => x.statusCode),
      [500, 500, 200],
      'the log holds every try with its answer',
    );
    t.match(shown.body.delivery, { status: 'delivered', attempts: 3, eventType: 'generation.completed' });

    const again = await admin('POST', `/webhooks/deliveries/${log.body.data[0].id}/redeliver`);
    t.equal(again.body.status, 'pending');
    await until(
      'the redelivery arrives',
      () =>
        fast.length <
        receiver.received.filter((r) => r.event.data.generation.metadata.order === 'A-1').length,
    );
    t.equal(
      receiver.processed.length,
      3,
      'a redelivery is a duplicate to the receiver: still processed once',
    );
    const removed = await admin('DELETE', `/webhooks/${added.body.id}`);
    t.match(removed.body, { id: added.body.id, removedAt: /Z$/ });
    t.notOk('secret' in removed.body, 'the answer shows no secret');
    t.same((await admin('GET', `/accounts/${a.accountId}/webhooks`)).body.data, [], 'gone from the list');
    const more = await call(t, server, 'POST', '/generations', {
      key: a.test,
      body: { templateId: a.templates.test.simple, text: LETTER },
    });
    await jobFinished(t, server, a.test, more.body.id);
    const after = await admin('GET', `/webhooks/deliveries?account=${a.accountId}&job=${more.body.id}`);
    t.same(after.body.data, [], 'a removed endpoint hears of no more jobs');
  },
);

t.test('a failed job sends generation.failed; the CLI lists endpoints and deliveries', async (t) => {
  const a = await server.tenant();
  let secret = '';
  const receiver = await startReceiver(t, () => secret);
  const env = { DATA_DIR: server.dir, WEBHOOK_PRIVATE_TARGETS: 'true' };
  const add = await cli(
    [
      'admin',
      'webhook',
      'add',
      '--account',
      a.accountId,
      '--url',
      receiver.url,
      '--mode',
      'test',
      '--events',
      'generation.failed',
      '--json',
    ],
    env,
  );
  t.equal(add.code, 0, add.stderr);
  secret = JSON.parse(add.stdout).secret;
  const bad = await cli(
    ['admin', 'webhook', 'add', '--account', a.accountId, '--url', 'ftp://x', '--json'],
    env,
  );
  t.equal(bad.code, 1);
  t.match(bad.stderr, /url must be an http:\/\/ or https:\/\/ URL/);
  const events = await cli(
    [
      'admin',
      'webhook',
      'add',
      '--account',
      a.accountId,
      '--url',
      receiver.url,
      '--events',
      'generation.done',
    ],
    env,
  );
  t.match(events.stderr, /events must be a list of generation\.completed/);

  const ok = await call(t, server, 'POST', '/generations', {
    key: a.test,
    body: { templateId: a.templates.test.simple, text: LETTER },
  });
  const long = await call(t, server, 'POST', '/generations', {
    key: a.test,
    body: { templateId: a.templates.test.simple, text: 'A long letter that runs on and on. '.repeat(400) },
  });
  await until('the failure arrives', () => receiver.processed.length === 1);
  t.match(receiver.processed[0], {
    type: 'generation.failed',
    data: {
      generation: {
        id: long.body.id,
        status: 'failed',
        error: { code: 'GENERATION_FAILED', message: /pages/ },
      },
    },
  });
  const list = await cli(['admin', 'webhook', 'list', '--account', a.accountId], env);
  t.match(
    list.stdout,
    new RegExp(`^hook_\\w{22}  test  ${receiver.url.replace(/[/.]/g, '\\$&')}  generation.failed$`, 'm'),
  );
  const deliveries = await cli(['admin', 'webhook', 'deliveries', '--account', a.accountId, '--json'], env);
  const page = JSON.parse(deliveries.stdout);
  t.equal(page.data.length, 1, "only the endpoint's event: the completed job made no delivery");
  t.notOk(page.data.some((d: { jobId: string }) => d.jobId === ok.body.id));
  await until('recorded', async () => {
    const shown = await cli(['admin', 'webhook', 'show', page.data[0].id], env);
    return /try 1 at .*: HTTP 200/.test(shown.stdout);
  });
  const redo = await cli(['admin', 'webhook', 'redeliver', page.data[0].id], env);
  t.match(redo.stdout, /is due again now/);
  await until('sent again', () => receiver.received.length === 2);
  t.equal(receiver.processed.length, 1, 'processed once');
});

t.test(
  'a receiver that answers 200, then streams 100 MiB slowly or never ends its body: a try reads a few KiB and ends',
  async (t) => {
    const a = await server.tenant();
    const seen: { mode: string; sent: number; closed: boolean }[] = [];
    const receiver = createServer((req, res) => {
      const mode = seen.length === 0 ? 'stream' : 'stall';
      const conn = { mode, sent: 0, closed: false };
      seen.push(conn);
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.flushHeaders();
        const chunk = Buffer.alloc(64 * 1024, 120);
        // 64 KiB every 20 ms: 100 MiB would take half a minute.
        const timer: NodeJS.Timeout | undefined =
          mode === 'stream'
            ? setInterval(() => {
                if (conn.sent >= 100 * 2 ** 20) {
                  clearInterval(timer);
                  res.end();
                  return;
                }
                res.write(chunk);
                conn.sent += chunk.length;
              }, 20)
            : undefined;
        res.on('close', () => {
          clearInterval(timer);
          conn.closed = true;
        });
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    t.teardown(() => {
      receiver.closeAllConnections();
      receiver.close();
    });
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const added = await admin('POST', `/accounts/${a.accountId}/webhooks`, { url, mode: 'test' });
    t.equal(added.status, 201);
    for (const order of ['one', 'two']) {
      const r = await call(t, server, 'POST', '/generations', {
        key: a.test,
        body: { templateId: a.templates.test.simple, text: `${LETTER} ${order}`, metadata: { order } },
      });
      t.equal(r.status, 202);
    }
    await until(
      'both receivers saw their connection closed',
      () => seen.length === 2 && seen.every((s) => s.closed),
    );
    const [stream, stall] = seen;
    t.ok(
      stream!.sent < 4 * 2 ** 20,
      `of the 100 MiB offered, ${stream!.sent} bytes were written before the close`,
    );
    t.ok(stall!.closed, 'a body that never ends is cut at the timeout');
    await until('both deliveries are recorded as delivered', async () => {
      const log = await admin('GET', `/webhooks/deliveries?account=${a.accountId}`);
      return (
        log.body.data.length === 2 &&
        log.body.data.every(
          (d: { status: string; attempts: number }) => d.status === 'delivered' && d.attempts === 1,
        )
      );
    });
  },
);
