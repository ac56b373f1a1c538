// The admin API over a real server: off without ADMIN_TOKEN; a wrong or missing token is 401;
// accounts, keys, jobs, top-ups and plan changes do what the CLI does (same functions), refuse
// bad input by field and change nothing; the live snapshot, GET /metrics and the WebSocket feed
// carry the figures of what the server did.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { cli } from '../helpers/cli.ts';
import { promtoolAvailable, promtoolProblems } from '../helpers/promtool.ts';
import WebSocket from 'ws';
import { call, startTestServer } from '../helpers/server.ts';

const TOKEN = 'operator-secret-token-0123456789';
const server = await startTestServer(t, { adminToken: TOKEN, rendersPerMinute: 3 });
const admin = { authorization: `Bearer ${TOKEN}` };
const A = (path: string) => `//admin/v1${path}`;

t.test('off without a token; 401 without the right one', async (t) => {
  const off = await startTestServer(t, { adminToken: undefined });
  for (const path of [A('/accounts'), '//metrics']) {
    const r = await call(t, off, 'GET', path, { headers: admin });
    t.equal(r.status, 404, `${path}: off`);
    t.match(r.body.error.message, /the server has no ADMIN_TOKEN/);
  }
  for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
    const r = await call(t, server, 'GET', A('/accounts'), {
      headers: authorization ? { authorization } : {},
    });
    t.equal(r.status, 401, `${authorization ?? 'no header'}: 401`);
    t.equal(r.body.error.code, 'UNAUTHORIZED');
  }
  const unknown = await call(t, server, 'GET', A('/nope'), { headers: admin });
  t.equal(unknown.status, 404);
  t.equal(unknown.body.error.code, 'ENDPOINT_NOT_FOUND');
});

t.test('accounts: create, list with plan, balances and usage today; top up; change the plan', async (t) => {
  const created = await call(t, server, 'POST', A('/accounts'), {
    headers: admin,
    body: { name: 'Atelier', plan: 'pro', period: 30 },
  });
  t.equal(created.status, 201);
  const id = created.body.id as string;
  const key = await call(t, server, 'POST', A(`/accounts/${id}/keys`), {
    headers: admin,
    body: { mode: 'live', name: 'main' },
  });
  t.equal(key.status, 201);
  t.match(key.body.key, /^hw_live_/, 'the full key, once');

  const list = await call(t, server, 'GET', A('/accounts?limit=100'), { headers: admin });
  t.equal(list.status, 200);
  const row = list.body.data.find((a: { account: { id: string } }) => a.account.id === id);
  t.ok(row, 'the new account is listed');
  t.equal(row.account.plan, 'pro');
  t.type(row.balances.live.availableSheets, 'number');
  t.type(row.balances.test.availableSheets, 'number');
  t.equal(row.usageToday.live.requests, 0, 'usage today, per mode');

  const usage = async () => (await call(t, server, 'GET', '/usage', { key: key.body.key })).body.balance;
  const before = await usage();
  const topped = await call(t, server, 'POST', A(`/accounts/${id}/topups`), {
    headers: admin,
    body: { sheets: 50, mode: 'live' },
  });
  t.equal(topped.status, 200);
  t.equal(topped.body.extraSheets, before.extraSheets + 50);
  t.equal((await usage()).extraSheets, before.extraSheets + 50, 'the top-up shows in GET /usage');

  const refusals: [unknown, string, RegExp][] = [
    [{ sheets: 49 }, 'sheets', /sheets must be a whole number 50-1000, got 49/],
    [{ sheets: 50.5 }, 'sheets', /sheets must be a whole number 50-1000, got 50.5/],
    [{ sheets: 1001 }, 'sheets', /sheets must be a whole number 50-1000, got 1001/],
    [{ sheets: 50, mode: 'gold' }, 'mode', /mode must be one of live, test, got "gold"/],
    [{ sheets: 50, extra: 1 }, 'extra', /extra is not a field of this request \(fields: sheets, mode\)/],
    [[50], 'body', /the body must be a JSON object, got an array/],
  ];
  for (const [body, field, message] of refusals) {
    const r = await call(t, server, 'POST', A(`/accounts/${id}/topups`), { headers: admin, body });
    t.equal(r.status, 400, JSON.stringify(body));
    t.equal(r.body.error.field, field);
    t.match(r.body.error.message, message);
  }
  t.equal((await usage()).extraSheets, before.extraSheets + 50, 'refused top-ups changed nothing');
  const missing = await call(t, server, 'POST', A('/accounts/acc_nope/topups'), {
    headers: admin,
    body: { sheets: 50 },
  });
  t.equal(missing.status, 404);
  t.equal(missing.body.error.code, 'NOT_FOUND');

  const badPlan = await call(t, server, 'POST', A(`/accounts/${id}/plan`), {
    headers: admin,
    body: { plan: 'platinum' },
  });
  t.equal(badPlan.status, 400);
  t.match(badPlan.body.error.message, /plan must be one of .*pro.*, got "platinum"/);
  const plan = await call(t, server, 'POST', A(`/accounts/${id}/plan`), {
    headers: admin,
    body: { plan: 'none' },
  });
  t.equal(plan.status, 200);
  t.equal(plan.body.plan, 'none');
  t.equal(
    (await call(t, server, 'GET', A(`/accounts/${id}`), { headers: admin })).body.account.plan,
    'none',
    'the change is stored',
  );
});

t.test('keys: list by account, revoke (the key is refused at once)', async (t) => {
  const a = await server.tenant();
  const before = Date.now();
  t.equal((await call(t, server, 'GET', '/usage', { key: a.live })).status, 200);
  const keys = await call(t, server, 'GET', A(`/accounts/${a.accountId}/keys`), { headers: admin });
  t.equal(keys.status, 200);
  t.same(keys.body.data.map((k: { id: string }) => k.id).sort(), [a.liveKeyId, a.testKeyId].sort());
  const byId = (id: string) => keys.body.data.find((k: { id: string }) => k.id === id);
  const used = Date.parse(byId(a.liveKeyId).lastUsedAt);
  t.ok(used >= before - 1000 && used <= Date.now(), 'the key just used has its last use recorded');
  t.equal(byId(a.testKeyId).lastUsedAt, null, 'the key never used has none');
  t.notOk(JSON.stringify(keys.body).includes(a.live), 'no full key in a listing');
  const revoked = await call(t, server, 'POST', A(`/keys/${a.testKeyId}/revoke`), { headers: admin });
  t.equal(revoked.status, 200);
  t.ok(revoked.body.revokedAt, 'revoked');
  const refused = await call(t, server, 'GET', '/usage', { key: a.test });
  t.equal(refused.status, 401);
  t.equal(refused.body.error.code, 'API_KEY_REVOKED');
  t.equal((await call(t, server, 'POST', A('/keys/key_nope/revoke'), { headers: admin })).status, 404);
});

t.test('jobs: listed across accounts with filters; cancelled by the operator', async (t) => {
  const a = await server.tenant();
  const post = await call(t, server, 'POST', '/generations', {
    key: a.live,
    body: { templateId: a.templates.live.simple, text: 'A long letter. '.repeat(3000) },
  });
  t.equal(post.status, 202);
  const listed = await call(t, server, 'GET', A(`/jobs?account=${a.accountId}&kind=pdf`), { headers: admin });
  t.equal(listed.status, 200);
  t.same(
    listed.body.data.map((j: { id: string }) => j.id),
    [post.body.id],
  );
  t.match(listed.body.data[0], { accountId: a.accountId, mode: 'live', kind: 'pdf' });
  const cancelled = await call(t, server, 'POST', A(`/jobs/${post.body.id}/cancel`), { headers: admin });
  t.equal(cancelled.status, 200);
  t.equal(cancelled.body.status, 'cancelled');
  t.equal(
    (await call(t, server, 'GET', `/generations/${post.body.id}`, { key: a.live })).body.status,
    'cancelled',
    'the owner sees it cancelled',
  );
  const byStatus = await call(t, server, 'GET', A(`/jobs?status=cancelled&account=${a.accountId}`), {
    headers: admin,
  });
  t.same(
    byStatus.body.data.map((j: { id: string }) => j.id),
    [post.body.id],
  );
  const bad = await call(t, server, 'GET', A('/jobs?status=done'), { headers: admin });
  t.equal(bad.status, 400);
  t.match(
    bad.body.error.message,
    /status must be one of queued, processing, completed, failed, cancelled, got "done"/,
  );
  t.equal((await call(t, server, 'POST', A('/jobs/gen_nope/cancel'), { headers: admin })).status, 404);

  const done = await call(t, server, 'POST', '/generations', {
    key: a.live,
    body: { templateId: a.templates.live.simple, text: 'Short.' },
  });
  let status = 'queued';
  for (let i = 0; i < 300 && status !== 'completed'; i++) {
    await new Promise((r) => setTimeout(r, 50));
    status = (await call(t, server, 'GET', `/generations/${done.body.id}`, { key: a.live })).body.status;
  }
  const late = await call(t, server, 'POST', A(`/jobs/${done.body.id}/cancel`), { headers: admin });
  t.equal(late.status, 400, 'a completed job is not cancelled');
  t.equal(
    (await call(t, server, 'GET', `/generations/${done.body.id}`, { key: a.live })).body.status,
    'completed',
    'and is unchanged',
  );
});

t.test('figures: the snapshot, GET /metrics and the live socket count what happened', async (t) => {
  const a = await server.tenant();
  const render = () =>
    call(t, server, 'POST', '/renders', {
      key: a.live,
      body: { templateId: a.templates.live.simple, text: 'Figures', format: 'svg' },
    });
  const before = (await call(t, server, 'GET', A('/snapshot'), { headers: admin })).body;
  for (let i = 0; i < 3; i++) t.equal((await render()).status, 200);
  t.equal((await render()).status, 429, 'the fourth render of the minute is refused');

  const snap = (await call(t, server, 'GET', A('/snapshot'), { headers: admin })).body;
  t.equal(snap.mode, 'embedded');
  t.equal(snap.instances.length, 1);
  t.equal(snap.instances[0].role, 'all');
  t.equal(snap.perMinute.renders - before.perMinute.renders, 3, 'three renders this minute');
  t.equal(snap.perMinute.rejected - before.perMinute.rejected, 1, 'one 429');
  t.equal(
    (snap.errors.RATE_LIMIT_EXCEEDED ?? 0) - (before.errors.RATE_LIMIT_EXCEEDED ?? 0),
    1,
    'errors by code',
  );
  t.ok(
    snap.renderLatencyMs.p50 > 0 && snap.renderLatencyMs.p99 >= snap.renderLatencyMs.p50,
    `latency p50 ${snap.renderLatencyMs.p50} ms, p99 ${snap.renderLatencyMs.p99} ms`,
  );
  for (const k of ['waiting', 'active', 'delayed', 'completedToday', 'failedToday'])
    t.type(snap.queue[k], 'number', `queue.${k}`);
  t.ok(snap.queue.completedToday >= 1, 'the jobs completed today are counted');
  t.equal(snap.pool.threads, server.ctx.config.poolThreads, "the pool's threads, as configured");

  const res = await fetch(`${server.base}/metrics`, { headers: admin });
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  t.match(text, /scriptorium_renders_total\{format="svg",process="[^"]+",role="all"\} \d+/);
  t.match(text, /scriptorium_render_duration_seconds_bucket\{le="0.05",/);
  t.match(text, /scriptorium_service_queue_jobs\{state="completedToday",[^}]*\} [1-9]/);
  t.match(text, /scriptorium_service_events_last_minute\{event="renders",[^}]*\} [3-9]/);
  t.match(text, /scriptorium_errors_total\{code="RATE_LIMIT_EXCEEDED",[^}]*\} [1-9]/);
  t.match(
    text,
    /scriptorium_http_requests_total\{route="\/api\/v1\/renders",status="200",[^}]*\} [1-9]/,
    'requests by route pattern and status',
  );
  t.match(
    text,
    /scriptorium_http_request_duration_seconds_bucket\{le="0.1",[^}]*route="\/api\/v1\/renders"\}/,
  );
  t.match(
    text,
    /scriptorium_job_queue_wait_seconds_count\{[^}]*kind="pdf"\} [1-9]/,
    'the queue wait of jobs',
  );
  t.match(text, /^process_cpu_user_seconds_total\{/m, "the process's own figures");
  t.notMatch(text, /instance="/, 'no label Prometheus would rename');
  if (promtoolAvailable || process.env.CI)
    t.same(promtoolProblems(text), [], 'promtool check metrics passes');

  // The live socket: a snapshot at once, then one a second.
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/admin/v1/live`, { headers: admin });
  const messages: { type: string; snapshot: { at: string } }[] = [];
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (m) => {
      messages.push(JSON.parse(String(m)));
      if (messages.length === 2) resolve();
    });
    ws.on('error', reject);
  });
  ws.close();
  t.equal(messages[0]!.type, 'snapshot');
  t.not(messages[0]!.snapshot.at, messages[1]!.snapshot.at, 'a new snapshot, not the same one again');
  const refused = await new Promise<number>((resolve) => {
    const bad = new WebSocket(`ws://127.0.0.1:${server.port}/admin/v1/live`, {
      headers: { authorization: 'Bearer wrong' },
    });
    bad.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    bad.on('error', () => {});
  });
  t.equal(refused, 401, 'a wrong token cannot listen');
});

/** A raw request from a chosen loopback source address; the status line and headers of the answer. */
function fromSource(port: number, source: string, head: string): Promise<string> {
  return import('node:net').then(
    ({ connect }) =>
      new Promise((resolve) => {
        const s = connect({ port, host: '127.0.0.1', localAddress: source });
        let out = '';
        s.on('data', (d) => {
          out += d;
        });
        s.on('close', () => resolve(out));
        s.on('error', () => resolve(out));
        s.on('connect', () => s.write(`${head}Host: x\r\nConnection: close\r\n\r\n`));
      }),
  );
}

t.test(
  'the admin door: one Authorization header, a request id on the live 401, guessing throttled per source',
  async (t) => {
    const door = await startTestServer(t, { adminToken: TOKEN });
    const twice = await fromSource(
      door.port,
      '127.0.0.1',
      `GET /admin/v1/accounts HTTP/1.1\r\nAuthorization: Bearer ${TOKEN}\r\nAuthorization: Bearer ${TOKEN}\r\n`,
    );
    t.match(twice, /^HTTP\/1.1 401 /, 'two Authorization headers, even both right: 401');
    t.match(twice, /send one Authorization header, got 2/);

    const live = await new Promise<Record<string, string | string[] | undefined>>((resolve) => {
      const bad = new WebSocket(`ws://127.0.0.1:${door.port}/admin/v1/live`, {
        headers: { authorization: 'Bearer no' },
      });
      bad.on('unexpected-response', (_req, res) => resolve(res.headers));
      bad.on('error', () => {});
    });
    t.match(live['x-request-id'], /^req_/, "the live socket's 401 carries X-Request-ID");

    const guess = (source: string, token: string) =>
      fromSource(door.port, source, `GET /admin/v1/accounts HTTP/1.1\r\nAuthorization: Bearer ${token}\r\n`);
    // Two failures so far from 127.0.0.1 (the two headers, the live socket); eight more make the ten
    // a source may send in a minute, each answered 401.
    for (let i = 0; i < 8; i++) t.match(await guess('127.0.0.1', `wrong${i}`), /^HTTP\/1.1 401 /);
    const last = await guess('127.0.0.1', 'wrong-last');
    t.match(last, /^HTTP\/1.1 429 /, 'the eleventh wrong token within the minute: 429');
    t.match(last, /retry-after: \d+/i, 'with Retry-After');
    t.match(last, /wrong admin tokens came from 127\.0\.0\.1/);
    t.match(
      await guess('127.0.0.1', TOKEN),
      /^HTTP\/1.1 429 /,
      'the right token too, from that source, for the minute',
    );
    t.match(await guess('127.0.0.2', TOKEN), /^HTTP\/1.1 200 /, 'another source is not shut out');
    t.match(await guess('127.0.0.2', 'wrong'), /^HTTP\/1.1 401 /, 'and has its own count');
  },
);

t.test(
  'templates: made with the admin token alone and used by the key; refused by field, unchanged',
  async (t) => {
    const account = (
      await call(t, server, 'POST', A('/accounts'), {
        headers: admin,
        body: { name: 'Load 1', plan: 'pro', period: 30 },
      })
    ).body.id as string;
    const key = (
      await call(t, server, 'POST', A(`/accounts/${account}/keys`), {
        headers: admin,
        body: { mode: 'test' },
      })
    ).body.key as string;
    const template = JSON.parse(
      readFileSync(new URL('../../src/app/demo/letter.template.json', import.meta.url), 'utf8'),
    );
    const count = async () => (await call(t, server, 'GET', '/templates', { key })).body.data.length;
    const refusals: [unknown, number, string, RegExp][] = [
      [{ template }, 400, 'mode', /mode must be one of live, test, got nothing/],
      [{ mode: 'staging', template }, 400, 'mode', /got "staging"/],
      [{ mode: 'test' }, 400, 'template', /template must be a template object/],
      [{ mode: 'test', template: [] }, 400, 'template', /got an array of 0/],
      [{ mode: 'test', template: { ...template, version: 7 } }, 400, 'version', /version/],
      [{ mode: 'test', template, extra: 1 }, 400, 'extra', /extra/],
    ];
    for (const [body, status, field, message] of refusals) {
      const r = await call(t, server, 'POST', A(`/accounts/${account}/templates`), { headers: admin, body });
      t.equal(r.status, status, `${JSON.stringify(body).slice(0, 60)}: ${status}`);
      t.equal(r.body.error.field, field, `naming ${field}`);
      t.match(r.body.error.message, message);
    }
    const missing = await call(t, server, 'POST', A('/accounts/acc_0000000000000000000000/templates'), {
      headers: admin,
      body: { mode: 'test', template },
    });
    t.equal(missing.status, 404, 'an unknown account: 404');
    t.equal(await count(), 0, 'nothing made by a refusal');

    const made = await call(t, server, 'POST', A(`/accounts/${account}/templates`), {
      headers: admin,
      body: { mode: 'test', template },
    });
    t.equal(made.status, 201);
    t.match(made.body, {
      id: /^tpl_/,
      name: template.name,
      mode: 'simple',
      accountId: account,
      keyMode: 'test',
    });
    const read = await call(t, server, 'GET', `/templates/${made.body.id}`, { key });
    t.equal(read.status, 200, "the account's test key reads it");
    const render = await call(t, server, 'POST', '/renders', {
      key,
      body: { templateId: made.body.id, text: 'Made from the admin token.', format: 'svg' },
    });
    t.equal(render.status, 200, 'and renders with it');

    // The command line, over HTTP with the admin token.
    const file = join(tmpdir(), `scriptorium-template-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(template));
    t.teardown(() => rmSync(file, { force: true }));
    const args = [
      'admin',
      'template',
      'import',
      '--url',
      server.base,
      '--account',
      account,
      '--mode',
      'test',
      '--file',
      file,
    ];
    const line = await cli(args, { ADMIN_TOKEN: TOKEN });
    t.equal(line.code, 0, line.stderr);
    t.match(line.stdout, /^imported template tpl_\w+ \(simple, test\): /, 'the command says what it made');
    const json = await cli([...args, '--json'], { ADMIN_TOKEN: TOKEN });
    t.match(JSON.parse(json.stdout), { id: /^tpl_/, keyMode: 'test' }, '--json prints the template');
    const wrong = await cli(args, { ADMIN_TOKEN: 'wrong' });
    t.not(wrong.code, 0, 'a wrong token fails');
    t.match(wrong.stderr, /admin API/, 'saying why');
    t.equal(await count(), 3, 'three templates made in all');
  },
);
