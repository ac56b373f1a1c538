// The request pipeline over a real socket: request ids, the error body, auth, walls, body
// limits, hostile JSON, aborted clients, unknown paths, and the OpenAPI document itself.
import { Validator } from '@seriousme/openapi-schema-validator';
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import t from 'tap';
import { adminErrorCatalog, errorCatalog, limitReasons } from '../../src/domain/errors.ts';
import { call, rawExchange, startTestServer } from '../helpers/server.ts';

const server = await startTestServer(t);
const a = await server.tenant();
const b = await server.tenant();

async function requestsOf(accountId: string, mode: 'live' | 'test'): Promise<number> {
  await server.service.counter.flush();
  return (await server.ctx.store.billing.usageBetween({ accountId, mode }, '2000-01-01', '2999-01-01'))
    .requests;
}

t.test('the OpenAPI document is valid OpenAPI 3.1 and covers every endpoint of the spec', async (t) => {
  const r = await call(t, server, 'GET', '/openapi.json');
  t.equal(r.status, 200);
  const result = await new Validator().validate(r.body);
  t.same(result.errors ?? [], [], 'valid against the OpenAPI 3.1 schema');
  t.ok(result.valid);
  const ops = Object.entries(r.body.paths as Record<string, Record<string, unknown>>).flatMap(([p, o]) =>
    Object.keys(o).map((m) => `${m.toUpperCase()} ${p}`),
  );
  for (const expected of [
    'GET /templates',
    'GET /templates/{id}',
    'GET /fonts',
    'GET /usage',
    'POST /assets',
    'POST /generations',
    'GET /generations/{id}',
    'GET /generations/{id}/download',
    'POST /generations/{id}/cancel',
    'GET /generations/{id}/preview',
    'POST /previews',
    'POST /renders',
  ]) {
    t.ok(ops.includes(expected), expected);
  }
});

t.test('every response has one X-Request-ID, and errors carry it with code and message', async (t) => {
  const ids = new Set<string>();
  for (let i = 0; i < 5; i++)
    ids.add((await call(t, server, 'GET', '/templates', { key: a.live })).requestId);
  t.equal(ids.size, 5, 'a new id per request');
  const raw = await rawExchange(server.port, (s) =>
    s.end('GET /api/v1/templates HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
  );
  t.equal(raw.match(/^x-request-id:/gim)?.length, 1, 'exactly one X-Request-ID header on the wire');
  const e = await call(t, server, 'GET', '/nowhere', { key: a.live });
  t.equal(e.status, 404);
  t.same(Object.keys(e.body.error).sort(), ['code', 'message', 'requestId']);
  t.equal(e.body.error.code, 'ENDPOINT_NOT_FOUND');
});

t.test('unknown paths: 404 ENDPOINT_NOT_FOUND, after auth under /api/v1', async (t) => {
  const outside = await call(t, server, 'GET', '//favicon.ico');
  t.equal(outside.status, 404);
  t.equal(outside.body.error.code, 'ENDPOINT_NOT_FOUND');
  const noKey = await call(t, server, 'GET', '/nowhere');
  t.equal(noKey.status, 401, 'auth comes before routing under /api/v1');
  const wrongMethod = await call(t, server, 'DELETE', '/templates', { key: a.live });
  t.equal(wrongMethod.status, 404);
  t.match(wrongMethod.body.error.message, /DELETE is not accepted on \/api\/v1\/templates; it takes GET/);
  const trailing = await call(t, server, 'GET', '/templates/', { key: a.live });
  t.equal(trailing.status, 404);
});

t.test('auth: missing, empty, Basic, malformed, bad checksum, unknown, revoked', async (t) => {
  const before = await requestsOf(a.accountId, 'live');
  const cases: [string, Record<string, string>, string, RegExp][] = [
    ['no header', {}, 'INVALID_API_KEY', /got nothing/],
    ['empty header', { authorization: '' }, 'INVALID_API_KEY', /got nothing/],
    [
      'Basic',
      { authorization: `Basic ${Buffer.from('u:p').toString('base64')}` },
      'INVALID_API_KEY',
      /Bearer scheme, got "Basic"/,
    ],
    ['Bearer alone', { authorization: 'Bearer' }, 'INVALID_API_KEY', /Bearer/],
    [
      'wrong prefix',
      { authorization: `Bearer sk_live_${a.live.slice(8)}` },
      'INVALID_API_KEY',
      /must be hw_live_ or hw_test_/,
    ],
    [
      'bad checksum',
      { authorization: `Bearer ${a.live.slice(0, -1)}${a.live.endsWith('a') ? 'b' : 'a'}` },
      'INVALID_API_KEY',
      /checksum/,
    ],
    [
      'extra token after the key',
      { authorization: `Bearer ${a.live} x` },
      'INVALID_API_KEY',
      /extra text after the key/,
    ],
    [
      'a tab and more after the key',
      { authorization: `Bearer ${a.live}\tx` },
      'INVALID_API_KEY',
      /extra text after the key/,
    ],
    ['a tab instead of the space', { authorization: `Bearer\t${a.live}` }, 'INVALID_API_KEY', /Bearer/],
    [
      'whitespace inside the key',
      { authorization: `Bearer ${a.live.slice(0, 20)} ${a.live.slice(20)}` },
      'INVALID_API_KEY',
      /extra text after the key/,
    ],
  ];
  for (const [name, headers, code, message] of cases) {
    const r = await call(t, server, 'GET', '/templates', { headers });
    t.equal(r.status, 401, name);
    t.equal(r.body.error.code, code, name);
    t.match(r.body.error.message, message, name);
    t.notOk(r.headers.get('ratelimit'), `${name}: no per-key state without a key`);
    t.equal(
      r.headers.get('www-authenticate'),
      'Bearer realm="api"',
      `${name}: WWW-Authenticate names Bearer`,
    );
  }
  const unknown = `hw_live_${'A'.repeat(32)}`;
  const { formatApiKey } = await import('../../src/domain/api-keys.ts');
  const forged = formatApiKey('live', new Uint8Array(64).fill(7));
  const r = await call(t, server, 'GET', '/templates', { key: forged });
  t.equal(r.status, 401);
  t.match(r.body.error.message, /is not known/);
  t.equal((await call(t, server, 'GET', '/templates', { key: unknown })).status, 401);
  const twice = await rawExchange(server.port, (s) =>
    s.end(
      `GET /api/v1/templates HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.live}\r\nAuthorization: Bearer ${b.live}\r\nConnection: close\r\n\r\n`,
    ),
  );
  t.match(twice, /^HTTP\/1.1 401/, 'two Authorization headers are refused');
  t.match(twice, /send one Authorization header, got 2/);
  t.equal(await requestsOf(a.accountId, 'live'), before, 'requests without a valid key are not counted');

  const { revokeKey, createKey } = await import('../../src/app/admin.ts');
  const extra = await createKey(server.ctx, { account: a.accountId, mode: 'live' });
  t.equal((await call(t, server, 'GET', '/templates', { key: extra.key })).status, 200);
  await revokeKey(server.ctx, extra.record.id);
  const revoked = await call(t, server, 'GET', '/templates', { key: extra.key });
  t.equal(revoked.status, 401);
  t.equal(revoked.body.error.code, 'API_KEY_REVOKED');
});

t.test('a key revoked from another process is refused at once', async (t) => {
  const { createKey } = await import('../../src/app/admin.ts');
  const extra = await createKey(server.ctx, { account: a.accountId, mode: 'test' });
  t.equal((await call(t, server, 'GET', '/templates', { key: extra.key })).status, 200, 'known and cached');
  const { runCommand } = await import('../helpers/spawn.ts');
  const r = await runCommand(['admin', 'key', 'revoke', extra.record.id], {
    DATA_DIR: server.dir,
  });
  t.equal(r.code, 0, r.stderr);
  const after = await call(t, server, 'GET', '/templates', { key: extra.key });
  t.equal(after.body.error?.code, 'API_KEY_REVOKED');
});

t.test('the tenant wall and the test/live wall answer 404 as if nothing existed', async (t) => {
  const mine = await call(t, server, 'GET', `/templates/${a.templates.live.simple}`, { key: a.live });
  t.equal(mine.status, 200);
  const other = await call(t, server, 'GET', `/templates/${a.templates.live.simple}`, { key: b.live });
  t.equal(other.status, 404);
  t.equal(other.body.error.code, 'TEMPLATE_NOT_FOUND');
  const wrongMode = await call(t, server, 'GET', `/templates/${a.templates.live.simple}`, { key: a.test });
  t.equal(wrongMode.status, 404, 'a live template with a test key');
  t.equal(wrongMode.body.error.code, 'TEMPLATE_NOT_FOUND');
  const reverse = await call(t, server, 'GET', `/templates/${a.templates.test.simple}`, { key: a.live });
  t.equal(reverse.status, 404, 'a test template with a live key');
  const missing = await call(t, server, 'GET', '/templates/tpl_0000000000000000000000', { key: a.live });
  t.same(
    { code: missing.body.error.code, status: missing.status },
    { code: other.body.error.code, status: other.status },
    "another account's template reads exactly like a missing one",
  );
  t.equal(
    (await call(t, server, 'GET', '/templates/not-an-id', { key: a.live })).body.error.code,
    'TEMPLATE_NOT_FOUND',
  );
  const list = await call(t, server, 'GET', '/templates', { key: b.test });
  t.notOk(
    list.body.data.some((x: { id: string }) => Object.values(a.templates.test).includes(x.id)),
    "no other account's templates in a list",
  );
});

t.test('hostile JSON bodies: each 400 INVALID_REQUEST, nothing created', async (t) => {
  const tpl = a.templates.live.simple;
  const send = (raw: string) =>
    call(t, server, 'POST', '/generations', {
      key: a.live,
      raw,
      headers: { 'content-type': 'application/json' },
    });
  const cases: [string, string, RegExp][] = [
    ['invalid JSON', '{"templateId": ', /must be valid JSON/],
    [
      '10,000-deep nesting',
      `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
      /nest arrays and objects 64 levels deep/,
    ],
    ['10,000-deep objects', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`, /64 levels deep/],
    [
      '__proto__ key',
      `{"templateId":"${tpl}","text":"x","__proto__":{"admin":true}}`,
      /"__proto__" is not accepted/,
    ],
    [
      'nested __proto__',
      `{"templateId":"${tpl}","data":{"a":[{"__proto__":1}]}}`,
      /data\/a\/0\/__proto__: the key "__proto__" is not accepted; __proto__, constructor and prototype may not name a field/,
    ],
    ['1e309', `{"templateId":"${tpl}","text":"x","n":1e309}`, /^n holds a number too large/],
    ['empty body', '', /got nothing/],
    ['an array', '[1,2]', /must be a JSON object, got an array/],
  ];
  for (const [name, raw, message] of cases) {
    const r = await send(raw);
    t.equal(r.status, 400, name);
    t.equal(r.body.error.code, 'INVALID_REQUEST', name);
    t.match(r.body.error.message, message, name);
  }
  t.equal(({} as Record<string, unknown>).admin, undefined, 'no prototype was touched');

  // Bytes that are not UTF-8 are refused by offset, not turned into U+FFFD and rendered.
  const newest = async () => (await call(t, server, 'GET', '/generations', { key: a.live })).body.data[0]?.id;
  const before = await newest();
  const head = Buffer.from(`{"templateId":"${tpl}","text":"caf`);
  for (const [name, bad] of [
    ['a stray 0xFF', [0xff]],
    ['a cut-off é', [0xc3]],
    ['an overlong slash', [0xc0, 0xaf]],
    ['a surrogate half', [0xed, 0xa0, 0x80]],
  ] as const) {
    const r = await call(t, server, 'POST', '/generations', {
      key: a.live,
      raw: Buffer.concat([head, Buffer.from(bad), Buffer.from('"}')]),
      headers: { 'content-type': 'application/json' },
    });
    t.equal(r.status, 400, name);
    t.equal(r.body.error.field, 'body', `${name}: names the body`);
    t.match(
      r.body.error.message,
      new RegExp(`byte ${head.length} \\(0x${bad[0]!.toString(16)}\\)`),
      `${name}: and the byte offset`,
    );
  }
  t.equal(await newest(), before, 'no job was created (the newest is the same)');
  const fine = await call(t, server, 'POST', '/generations', {
    key: a.live,
    raw: Buffer.from(`{"templateId":"${tpl}","text":"café, naïve, Grüße"}`),
    headers: { 'content-type': 'application/json' },
  });
  t.equal(fine.status, 202, 'while well-formed UTF-8 is accepted');
  t.equal(await newest(), fine.body.id, 'and listed first, so the list shows a new job');
});

t.test('body limit: 413 from Content-Length at once, and from streamed chunks', async (t) => {
  const big = 512 * 1024 + 1;
  const declared = await rawExchange(server.port, (s) =>
    s.write(
      `POST /api/v1/generations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.live}\r\nContent-Type: application/json\r\nContent-Length: ${big}\r\n\r\n`,
    ),
  );
  t.match(declared, /^HTTP\/1.1 413 /, 'answered before any body byte was sent');
  t.match(declared, /"code":"INVALID_REQUEST"/);
  t.match(declared, /at most 524288 bytes, got 524289 \(Content-Length\)/);
  t.match(declared, /x-request-id: req_/i);

  const chunked = await rawExchange(
    server.port,
    (s) => {
      s.write(
        `POST /api/v1/generations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.live}\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      const piece = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const more = () => {
        if (s.destroyed || sent > 2 * 1024 * 1024) return;
        sent += piece.length;
        s.write(`${piece.length.toString(16)}\r\n`);
        s.write(piece);
        s.write('\r\n', () => setImmediate(more));
      };
      more();
    },
    5000,
  );
  t.match(chunked, /^HTTP\/1.1 413 /, 'a chunked body is cut off once it passes the limit');
  t.match(chunked, /at most 524288 bytes, got more than 524288/);
  const trailing = await rawExchange(server.port, (s) =>
    s.end(
      `GET /api/v1/templates HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.live} \t \r\nConnection: close\r\n\r\n`,
    ),
  );
  t.match(
    trailing,
    /^HTTP\/1.1 200 /,
    'whitespace ending the header line is not part of the value (RFC 9110 §5.5)',
  );

  const justUnder = await call(t, server, 'POST', '/generations', {
    key: a.live,
    raw: `{"a":"${'x'.repeat(512 * 1024 - 10)}"}`,
  });
  t.equal(justUnder.status, 400, 'a body at the limit is read, parsed and routed');
  t.match(justUnder.body.error.message, /unknown field a/, 'and reaches the handler');
});

t.test('clients that abort mid-body or mid-request do not hurt the process', async (t) => {
  await rawExchange(server.port, (s) => {
    s.write(
      `POST /api/v1/generations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.live}\r\nContent-Length: 1000\r\n\r\n{"templateId":`,
    );
    setTimeout(() => s.destroy(), 50);
  });
  // An upload aborts while its handler awaits the store and the pixel check.
  const { png } = await import('../helpers/images.ts');
  const image = png(2000, 2000);
  await rawExchange(server.port, (s) => {
    s.write(
      `POST /api/v1/assets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.live}\r\nContent-Type: image/png\r\nContent-Length: ${image.length}\r\n\r\n`,
    );
    s.write(image, () => s.destroy());
  });
  await new Promise((r) => setTimeout(r, 300));
  const after = await call(t, server, 'GET', '/templates', { key: a.live });
  t.equal(after.status, 200, 'the next request is served');
  // A client that sent its whole request and then closed has only half-closed as far as the
  // server can tell: the upload may still be finished. Either way nothing stays in flight.
  for (let i = 0; i < 100 && server.service.http!.inFlight() > 0; i++)
    await new Promise((r) => setTimeout(r, 50));
  t.equal(server.service.http!.inFlight(), 0, 'nothing is left in flight');
});

t.test('the docs list every error code of the catalogues with its status', async (t) => {
  const { readFileSync } = await import('node:fs');
  const docs = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  // The public table first; the admin API's and the dashboard's own codes in the table after it.
  const [publicPart, ownPart] = docs.split("The operator's admin API");
  t.ok(ownPart, 'the admin and dashboard codes have their own table');
  const rows = (text: string) =>
    new Map([...text.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]));
  for (const [part, catalog] of [
    [publicPart!, errorCatalog],
    [ownPart ?? '', adminErrorCatalog],
  ] as const) {
    const found = rows(part);
    for (const [code, { status }] of Object.entries(catalog))
      t.equal(found.get(code), status, `${code} ${status}`);
    t.equal(found.size, Object.keys(catalog).length, 'and no code the catalogue does not have');
  }
  const reasons = new Map([...docs.matchAll(/^\| `([a-z-]+)` \| (.+) \|$/gm)].map((m) => [m[1], m[2]]));
  t.same(Object.fromEntries(reasons), limitReasons, "and every 429's reason with its meaning");
});

t.test('JSON answers over 1 KB are gzip-coded for a client that takes it', async (t) => {
  const get = (path: string, acceptEncoding?: string) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
      (resolve, reject) => {
        const headers: Record<string, string> = { authorization: `Bearer ${a.live}` };
        if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
        // node:http, not fetch: fetch decodes gzip itself and hides what came over the wire.
        http
          .get(`${server.base}${path}`, { headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
            );
          })
          .on('error', reject);
      },
    );
  const plain = await get('/api/v1/openapi.json');
  t.equal(plain.headers['content-encoding'], undefined, 'not coded when the client does not ask');
  t.equal(plain.headers.vary, 'Accept-Encoding', 'but Vary says it could be');
  const doc = await get('/api/v1/openapi.json', 'br, gzip;q=0.8');
  t.equal(doc.headers['content-encoding'], 'gzip', 'the OpenAPI document is gzip-coded');
  t.equal(doc.headers.vary, 'Accept-Encoding');
  t.equal(Number(doc.headers['content-length']), doc.body.length, 'Content-Length is the coded length');
  t.ok(doc.body.length < plain.body.length / 3, `${doc.body.length} bytes instead of ${plain.body.length}`);
  t.same(gunzipSync(doc.body), plain.body, 'and decodes to the same document');
  const template = await get(`/api/v1/templates/${a.templates.live.structured}`, 'gzip');
  t.equal(template.status, 200);
  t.equal(template.headers['content-encoding'], 'gzip', 'a template over 1 KB too');
  t.ok(JSON.parse(gunzipSync(template.body).toString()).blocks, 'a whole template');
  t.equal(
    (await get('/api/v1/openapi.json', 'gzip;q=0, *')).headers['content-encoding'],
    undefined,
    'gzip;q=0 is a no',
  );
  const small = await get('/api/v1/fonts?limit=1', 'gzip');
  t.ok(small.body.length <= 1024, 'a small answer');
  t.equal(small.headers['content-encoding'], undefined, 'is sent as it is');
  t.equal(small.headers.vary, undefined);
});
