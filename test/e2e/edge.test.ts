import t from 'tap';
import { createAccount, createKey, importTemplate, topUp } from '../../src/app/admin.ts';
import { answeredBy, haproxyAvailable, startEdge } from '../helpers/edge.ts';
import { freePort } from '../helpers/redis.ts';
import { farmServices } from '../helpers/farm.ts';
import { answersHttp10, errorOf, exchange, refusesMalformedAtOnce, responses } from '../helpers/raw-http.ts';
import { unavailable } from '../helpers/services.ts';
import { type ServeProcess, startServe } from '../helpers/spawn.ts';

const away =
  (await unavailable('postgres')) || (await unavailable('redis')) || (haproxyAvailable ? '' : 'no haproxy');
if (away) {
  if (process.env.CI) throw new Error(`the edge test needs PostgreSQL, Redis and HAProxy: ${away}`);
  t.comment(`edge: skipped, ${away}`);
  process.exit(0);
}

const ADMIN_TOKEN = 'edge-admin-token-0123456789';
const { env, ctx } = await farmServices(t, 'edge', {
  RATE_LIMIT_PER_MINUTE: '100000',
  RENDERS_PER_MINUTE: '100000',
  RENDERS_PER_DAY: '100000',
  POOL_THREADS: '1',
  ADMIN_TOKEN,
  // Behind the edge: no check of its own, the edge's word on the client's address, and a stop that
  // waits for the edge (checking every 500 ms, out after two failures) to take the process out,
  // with as much again to spare for a loaded machine, where a check can come late (2000 ms was
  // seen to fall short under a full suite).
  FRAMING_CHECK: 'false',
  TRUSTED_PROXIES: '127.0.0.1',
  STOP_DELAY_MS: '3000',
});
const account = await createAccount(ctx, { name: 'Edge', plan: 'pro', period: 30 });
const { key } = await createKey(ctx, { account: account.id, mode: 'test' });
await topUp(ctx, { account: account.id, sheets: 1000, mode: 'test' });
const tpl = (
  await importTemplate(ctx, {
    account: account.id,
    mode: 'test',
    json: JSON.stringify({
      version: 2,
      name: 'Edge letter',
      mode: 'simple',
      style: { fontId: 'font_76FIvrxbMWVVj6WyJCWgxI', pageSize: 'A5' },
    }),
    source: 'edge',
  })
).id;

const processes: ServeProcess[] = [];
t.teardown(async () => {
  for (const p of processes) if (p.child.exitCode === null) await p.stop('SIGKILL');
});
const startApi = async (port: number) => {
  const p = await startServe({ ...env, PORT: String(port) }, ['--role', 'api', '--no-demo']);
  processes.push(p);
  return p;
};
const a1 = await startApi(await freePort());
const a2 = await startApi(await freePort());
const edge = await startEdge(t, [a1.port, a2.port]);

const served = (port: number) => answeredBy(port, ADMIN_TOKEN, '/api/v1/templates/{id}');

const get = (port: number) =>
  fetch(`http://127.0.0.1:${port}/api/v1/templates/${tpl}`, { headers: { Authorization: `Bearer ${key}` } });

t.test('one address: requests are spread over both API processes, each answer with its id', async (t) => {
  const before = [await served(a1.port), await served(a2.port)];
  const answers = await Promise.all(Array.from({ length: 40 }, () => get(edge.port)));
  t.same([...new Set(answers.map((r) => r.status))], [200], 'all 40 answered 200 through the edge');
  t.ok(
    answers.every((r) => r.headers.get('x-request-id')?.startsWith('req_')),
    'each with the request id of the process that answered',
  );
  t.equal(answers[0]?.headers.get('uwebsockets'), null, "the transport's own header is not passed on");
  const after = [await served(a1.port), await served(a2.port)];
  t.ok(
    after[0]! > before[0]! && after[1]! > before[1]!,
    `both processes answered some: ${before} → ${after}`,
  );
  t.equal(after[0]! - before[0]! + after[1]! - before[1]!, 40, 'forty answers in all, none twice');
});

t.test('HTTP/1.0, absolute targets, odd header names: normalised and served', async (t) => {
  await answersHttp10(t, edge.port, key, tpl);

  const absolute = await exchange(
    edge.port,
    `GET http://api.example.com/api/v1/templates/${tpl} HTTP/1.1\r\nHost: api.example.com\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
  );
  t.equal(JSON.parse(responses(absolute.raw)[0]!.body).id, tpl, 'an absolute target is served as its path');

  for (const name of ['X_Trace', 'X.Trace', "X!#$%&'*+^`|~"]) {
    const r = await exchange(
      edge.port,
      `GET /api/v1/templates/${tpl} HTTP/1.1\r\nHost: x\r\n${name}: 1\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
    );
    t.equal(responses(r.raw)[0]?.status, 200, `a field named ${name}: served (the field dropped)`);
    t.ok(r.ms < 1400, `${name}: answered at once`);
  }
  const under = await exchange(
    edge.port,
    `GET /api/v1/templates HTTP/1.1\r\nHost: x\r\napi_key: ${key}\r\nConnection: close\r\n\r\n`,
  );
  t.equal(errorOf(responses(under.raw)[0]!).code, 'INVALID_API_KEY', 'api_key is not read as the key');
});

t.test('HEAD, pipelining and a chunked body pass through in order', async (t) => {
  const r = await exchange(edge.port, [
    'HEAD /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  ]);
  const [head, full] = responses(r.raw, ['HEAD', 'GET']);
  t.equal(head?.status, 200);
  t.equal(head?.body, '', 'HEAD: no body');
  t.equal(Number(head?.headers['content-length']?.[0]), full!.body.length, "HEAD's length is the GET's");

  const one = `GET /api/v1/templates/${tpl} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`;
  const body = '{"templateId":"tpl_nope0000000000000000","text":"hi","format":"svg"}';
  const post = `POST /api/v1/renders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
  const last = 'GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
  const all = responses((await exchange(edge.port, one + post + one + last)).raw);
  t.same(
    all.map((x) => x.status),
    [200, 404, 200, 404],
    'four requests in one write, four answers in order',
  );
  t.equal(errorOf(all[1]!).code, 'TEMPLATE_NOT_FOUND', 'the chunked body was read whole');
});

t.test(
  'ambiguous framing is refused before it reaches a process; nothing smuggled is answered',
  async (t) => {
    const smuggled = `GET /api/v1/templates/${tpl} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`;
    for (const [label, fields, rest, status] of [
      [
        'two Content-Length headers',
        `Content-Length: 0\r\nContent-Length: ${smuggled.length}\r\n`,
        smuggled,
        400,
      ],
      [
        'Transfer-Encoding: chunked, chunked',
        'Transfer-Encoding: chunked, chunked\r\n',
        `0\r\n\r\n${smuggled}`,
        400,
      ],
      // HAProxy 2.6 answers a coding other than chunked with 422.
      [
        'Transfer-Encoding: gzip, chunked',
        'Transfer-Encoding: gzip, chunked\r\n',
        `0\r\n\r\n${smuggled}`,
        422,
      ],
      // Both: the length is dropped, the body read as chunked, and the connection closed after it.
      [
        'Content-Length and Transfer-Encoding',
        'Content-Length: 5\r\nTransfer-Encoding: chunked\r\n',
        `0\r\n\r\n${smuggled}`,
        400,
      ],
    ] as const) {
      const r = await exchange(
        edge.port,
        `POST /api/v1/renders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n${fields}\r\n${rest}`,
      );
      const all = responses(r.raw);
      t.equal(all.length, 1, `${label}: one answer, nothing for the request behind it`);
      t.equal(all[0]?.status, status, `${label}: ${status}`);
      t.ok(r.closedByServer, `${label}: the connection is closed`);
    }

    for (const [label, head, status, pattern] of [
      ['no Host in HTTP/1.1', 'GET /api/v1/fonts HTTP/1.1\r\n\r\n', 400, /Host/],
      ['HTTP/2.0 on this port', 'GET /api/v1/fonts HTTP/2.0\r\nHost: x\r\n\r\n', 400, /HTTP version/],
      ['a space before the colon', 'GET /api/v1/fonts HTTP/1.1\r\nHost: x\r\nX-A : 1\r\n\r\n', 400, null],
      [
        '49 header fields',
        `GET /api/v1/fonts HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 49 }, (_, i) => `X-F-${i}: v\r\n`).join('')}\r\n`,
        400,
        null,
      ],
      [
        'a 17 kB head',
        `GET /api/v1/fonts HTTP/1.1\r\nHost: x\r\nX-Long: ${'a'.repeat(17_000)}\r\n\r\n`,
        400,
        null,
      ],
    ] as const) {
      const r = await exchange(edge.port, head);
      const [res] = responses(r.raw);
      t.equal(res?.status, status, `${label}: ${status}`);
      if (pattern) {
        t.match(errorOf(res!).message, pattern, `${label}: named, in the API's error format`);
        t.equal(errorOf(res!).requestId, res?.headers['x-request-id']?.[0], 'with its request id');
      }
    }

    const huge = await exchange(
      edge.port,
      `POST /api/v1/generations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Length: 1000000000\r\n\r\n{`,
    );
    const [big] = responses(huge.raw);
    t.equal(big?.status, 413, 'Content-Length 1,000,000,000: 413 at the edge');
    t.match(errorOf(big!).message, /at most \d+ bytes, got 1000000000 \(Content-Length\)/);
    t.ok(huge.closedByServer, 'and the connection closed rather than drained');

    // Up to the largest 64-bit length (HAProxy 2.6 refuses longer ones itself, with its own 400).
    await refusesMalformedAtOnce(t, edge.port, key);

    for (const method of ['QUERY', 'PROPFIND', 'get']) {
      const r = await exchange(edge.port, `${method} /api/v1/templates HTTP/1.1\r\nHost: x\r\n\r\n`);
      const [res] = responses(r.raw);
      t.equal(res?.status, 501, `${method}: 501`);
      t.match(
        errorOf(res!).message,
        `method "${method}" is not implemented; this server knows GET, HEAD, POST`,
      );
      t.equal(errorOf(res!).field, 'method');
      t.ok(r.ms < 1400, `${method}: answered at once`);
    }
  },
);

t.test(
  'an API process stopped mid-load is taken out with no request failing, and back when ready',
  async (t) => {
    const failures: string[] = [];
    let answered = 0;
    let running = true;
    const renders = { ok: 0 };
    const loop = async (i: number) => {
      while (running) {
        const render = i === 0;
        const r = await (render
          ? fetch(`http://127.0.0.1:${edge.port}/api/v1/renders`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({ templateId: tpl, text: 'Held at the edge.', format: 'svg' }),
            })
          : get(edge.port)
        ).then(
          async (res) => {
            const text = await res.text();
            return res.status === 200
              ? null
              : `${render ? 'render' : 'get'} ${res.status} ${text.slice(0, 160)}`;
          },
          (err: Error) => `${err.message} ${(err.cause as Error | undefined)?.message ?? ''}`,
        );
        if (r) failures.push(r);
        else if (render) renders.ok++;
        else answered++;
      }
    };
    const loops = Array.from({ length: 6 }, (_, i) => loop(i));
    await new Promise((r) => setTimeout(r, 1000));
    const exit = a1.stop('SIGTERM');
    t.equal(await exit, 0, 'the stopped process exits 0');
    await new Promise((r) => setTimeout(r, 500));
    const during = answered;
    t.equal((await fetch(`http://127.0.0.1:${edge.port}/ready`)).status, 200, 'the edge stays ready');

    // Started again on the same port: the edge takes it back once /ready passes twice.
    const again = await startApi(a1.port);
    await new Promise((r) => setTimeout(r, 2000));
    const base = await served(again.port);
    await new Promise((r) => setTimeout(r, 1000));
    running = false;
    await Promise.all(loops);
    t.same(failures, [], 'no request failed');
    t.match(
      edge.log(),
      /apis\/api1 is DOWN, reason: Layer7 wrong status, code: 503/,
      'the edge took the process out on its /ready answer, before it stopped accepting',
    );
    t.match(edge.log(), /apis\/api1 is UP/, 'and back once it was ready again');
    t.ok(
      during > 50 && answered > during,
      `requests went on all along: ${during} by the stop, ${answered} in all`,
    );
    t.ok(renders.ok > 0, `renders went on too (${renders.ok})`);
    t.ok(
      (await served(again.port)) > base,
      `the process started again is served requests (${base} before the last second)`,
    );
  },
);
