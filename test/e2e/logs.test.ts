// The logs of a real server process over a full run: one JSON access line per request (request
// id, method, route pattern, status, duration, bytes, account), job lines from queued to
// completed carrying the request id that created the job, and not one secret anywhere: every API
// key, the admin token, a wrong one, and a webhook secret are looked for in every line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import t from 'tap';
import { cli } from '../helpers/cli.ts';
import { call, startTestServer } from '../helpers/server.ts';
import { startServe } from '../helpers/spawn.ts';

const ADMIN = 'logs-admin-token-0123456789abcdef';

t.test('a full run: access lines, job lines with the request id, and no secret in the logs', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-logs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = {
    DATA_DIR: dir,
    ADMIN_TOKEN: ADMIN,
    RATE_LIMIT_PER_MINUTE: '100000',
    LOG_LEVEL: 'debug',
    WEBHOOK_PRIVATE_TARGETS: 'true',
  };
  const serve = await startServe(env);
  t.teardown(() => serve.stop('SIGKILL'));
  const account = /account\s+(acc_\S+)/.exec(serve.stdout())![1]!;
  const key = /API key\s+(hw_test_\S+)/.exec(serve.stdout())![1]!;
  const template = /template\s+(tpl_\S+)\s+simple/.exec(serve.stdout())![1]!;
  const base = `http://127.0.0.1:${serve.port}`;
  const api = (path: string, init: RequestInit & { key?: string } = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${init.key ?? key}`,
        'content-type': 'application/json',
        ...init.headers,
      },
    });

  const second = JSON.parse(
    (await cli(['admin', 'key', 'create', '--account', account, '--mode', 'test', '--json'], env)).stdout,
  );
  await cli(['admin', 'key', 'revoke', second.id], env);
  const hook = (await (
    await fetch(`${base}/admin/v1/accounts/${account}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks', mode: 'test' }),
    })
  ).json()) as { secret: string };
  const wrongKey = `hw_test_${'A'.repeat(38)}`;
  const wrongAdmin = 'not-the-admin-token-but-a-guess';

  const posted = await api('/api/v1/generations', {
    method: 'POST',
    body: JSON.stringify({ templateId: template, text: 'Dear friend, a letter for the logs.' }),
  });
  const job = ((await posted.json()) as { id: string }).id;
  const postId = posted.headers.get('x-request-id');
  let status = 'queued';
  let pollId = '';
  while (status === 'queued' || status === 'processing') {
    await new Promise((r) => setTimeout(r, 50));
    const r = await api(`/api/v1/generations/${job}`);
    pollId = r.headers.get('x-request-id')!;
    status = ((await r.json()) as { status: string }).status;
  }
  t.equal(status, 'completed');
  await (await api(`/api/v1/generations/${job}/download`)).arrayBuffer();
  t.equal((await api('/api/v1/templates', { key: wrongKey })).status, 401);
  t.equal((await api('/api/v1/templates', { key: second.key })).status, 401);
  t.equal(
    (await fetch(`${base}/admin/v1/accounts`, { headers: { authorization: `Bearer ${wrongAdmin}` } })).status,
    401,
  );
  t.equal((await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } })).status, 200);
  t.equal((await fetch(`${base}/ready`)).status, 200);
  t.equal(await serve.stop('SIGTERM'), 0);

  const lines = serve
    .stderr()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const access = lines.filter((l) => l.msg === 'request');
  t.ok(access.length >= 8, `${access.length} access lines`);
  t.same(
    lines.filter((l) => l.role !== 'all' || l.pid !== serve.child.pid),
    [],
    `every one of ${lines.length} lines names the role and the process`,
  );
  const poll = access.find((l) => l.requestId === pollId);
  t.match(
    poll,
    {
      level: 30,
      method: 'GET',
      route: '/api/v1/generations/{id}',
      status: 200,
      ms: Number,
      bytes: Number,
      account,
      peer: '127.0.0.1',
    },
    'a poll: the route pattern, not the path',
  );
  t.ok((poll!.bytes as number) > 50, 'the bytes of its body');
  t.match(
    access.find((l) => l.route === '/api/v1/generations/{id}/download'),
    { status: 200, bytes: Number },
  );
  const refused = access.find((l) => l.status === 401 && String(l.route).startsWith('/api/v1/'));
  t.match(refused, { method: 'GET' }, 'a refused key: its route, as every surface names it');
  t.notOk(refused && 'account' in refused, 'a refused key: no account');
  t.match(
    access.find((l) => l.route === '/admin/v1/accounts'),
    { status: 401 },
    'the admin API too',
  );
  t.ok(access.some((l) => l.route === '/metrics' && l.status === 200));

  const jobLines = lines.filter((l) => l.job === job).map((l) => l.msg);
  t.same(jobLines, ['job queued', 'job started', 'job completed'], 'the job, from queued to completed');
  for (const l of lines.filter((x) => x.job === job))
    t.equal(l.requestId, postId, `${l.msg}: with the request id of the POST`);
  t.match(
    lines.find((l) => l.job === job && l.msg === 'job completed'),
    { attempt: 1, pages: 1, ms: Number, bytes: Number },
  );

  // The logs are stderr (stdout holds the demo banner, which shows its key once by design).
  const everything = serve.stderr();
  for (const [name, secret] of [
    ['the demo key', key],
    ['a revoked key', second.key],
    ['a wrong key', wrongKey],
    ['the admin token', ADMIN],
    ['a wrong admin token', wrongAdmin],
    ['a webhook secret', hook.secret],
  ] as const) {
    t.ok(secret && secret.length > 20, `${name} was used`);
    t.notOk(everything.includes(secret), `${name} is in no log line`);
  }
});

t.test('ACCESS_LOG_SAMPLE=0 logs no access line but for answers of 500 and more', async (t) => {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, { write: (s: string) => lines.push(JSON.parse(s)) });
  const server = await startTestServer(t, { accessLogSample: 0, logLevel: 'info' }, { log });
  const a = await server.tenant();
  await call(t, server, 'GET', '/templates', { key: a.test });
  await call(t, server, 'GET', '/nothing', { key: a.test });
  t.same(
    lines.filter((l) => l.msg === 'request'),
    [],
    'no access line for a 200 or a 404',
  );
  const sampled = await startTestServer(t, { accessLogSample: 1 }, { log });
  const b = await sampled.tenant();
  await call(t, sampled, 'GET', '/templates', { key: b.test });
  t.equal(lines.filter((l) => l.msg === 'request').length, 1, 'and one at 1');
});

t.test('a rate-limited request is logged with its route', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-logs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const serve = await startServe({ DATA_DIR: dir, RATE_LIMIT_PER_MINUTE: '1', LOG_LEVEL: 'info' });
  t.teardown(() => serve.stop('SIGKILL'));
  const key = /API key\s+(hw_test_\S+)/.exec(serve.stdout())![1]!;
  const template = /template\s+(tpl_\S+)\s+simple/.exec(serve.stdout())![1]!;
  const get = () =>
    fetch(`http://127.0.0.1:${serve.port}/api/v1/templates/${template}`, {
      headers: { authorization: `Bearer ${key}` },
    });
  t.equal((await get()).status, 200);
  const refused = await get();
  t.equal(refused.status, 429);
  const id = refused.headers.get('x-request-id');
  t.equal(await serve.stop('SIGTERM'), 0);
  const line = serve
    .stderr()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((l) => l.requestId === id);
  t.match(line, {
    msg: 'request',
    status: 429,
    route: '/api/v1/templates/{id}',
    role: 'all',
    pid: serve.child.pid,
  });
});
