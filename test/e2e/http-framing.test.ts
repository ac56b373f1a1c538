// HTTP framing over real sockets, as a reverse proxy or an attacker speaks it: HTTP/1.0 and
// absolute targets are answered, HEAD leaves the connection usable, ambiguous lengths are refused
// and the connection closed (what was smuggled behind them is never answered), oversized heads get
// 431 and ten-digit lengths 413, pipelined requests are answered in order. The same server with
// the check off shows what only the check in front can do; and the default puts the check where
// other machines connect (FRAMING_CHECK=auto), not on loopback.
import t from 'tap';
import {
  answersHttp10,
  errorOf,
  exchange,
  HUGE_LENGTHS,
  refusesMalformedAtOnce,
  responses,
} from '../helpers/raw-http.ts';
import { startTestServer } from '../helpers/server.ts';

const server = await startTestServer(t, { framingCheck: true });
const a = await server.tenant();
const tpl = a.templates.live.simple;

t.test('HTTP/1.0 is answered: closed after the response unless keep-alive is asked for', async (t) => {
  await answersHttp10(t, server.port, a.live, tpl);
});

t.test('an absolute-form target is served as its path', async (t) => {
  const r = await exchange(
    server.port,
    `GET http://api.example.com/api/v1/templates/${tpl} HTTP/1.1\r\nHost: api.example.com\r\nAuthorization: Bearer ${a.live}\r\nConnection: close\r\n\r\n`,
  );
  const [res] = responses(r.raw);
  t.equal(res?.status, 200);
  t.equal(JSON.parse(res!.body).id, tpl);
});

t.test('HEAD sends headers only and leaves the connection usable', async (t) => {
  for (const [path, key, status] of [
    ['/api/v1/openapi.json', null, 200],
    [`/api/v1/templates/${tpl}`, null, 401],
    ['/nowhere', null, 404],
    [`/api/v1/templates/${tpl}`, a.live, 200],
  ] as const) {
    const auth = key ? `Authorization: Bearer ${key}\r\n` : '';
    const r = await exchange(server.port, [
      `HEAD ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`,
      `GET ${path} HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`,
    ]);
    const [head, get] = responses(r.raw, ['HEAD', 'GET']);
    t.equal(head?.status, status, `HEAD ${path}: ${status}`);
    t.equal(get?.status, status, `the GET after it on the same connection is answered (${status})`);
    t.equal(head?.headers['content-length']?.length, 1, 'one Content-Length');
    // An error names the method it refused, so only a success's length is the GET's to the byte.
    if (status === 200)
      t.equal(Number(head?.headers['content-length']?.[0]), get!.body.length, "its length is the GET body's");
    t.equal(head?.body, '', 'no body');
  }
});

t.test('ambiguous lengths are refused with 400 and the connection closed', async (t) => {
  const smuggled = `GET /api/v1/templates/${tpl} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.live}\r\n\r\n`;
  for (const [label, fields, body] of [
    ['two Content-Length headers', `Content-Length: 0\r\nContent-Length: ${smuggled.length}\r\n`, smuggled],
    [
      'Transfer-Encoding: chunked, chunked',
      'Transfer-Encoding: chunked, chunked\r\n',
      `0\r\n\r\n${smuggled}`,
    ],
    ['Transfer-Encoding: gzip, chunked', 'Transfer-Encoding: gzip, chunked\r\n', `0\r\n\r\n${smuggled}`],
    [
      'Content-Length and Transfer-Encoding',
      'Content-Length: 5\r\nTransfer-Encoding: chunked\r\n',
      `0\r\n\r\n${smuggled}`,
    ],
  ] as const) {
    const r = await exchange(
      server.port,
      `POST /api/v1/renders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.live}\r\n${fields}\r\n${body}`,
    );
    const all = responses(r.raw);
    t.equal(all.length, 1, `${label}: one answer, nothing for the request behind it`);
    t.equal(all[0]?.status, 400, `${label}: 400`);
    t.equal(errorOf(all[0]!).code, 'INVALID_REQUEST');
    t.match(errorOf(all[0]!).message, /Content-Length|Transfer-Encoding/, 'the message names the header');
    t.ok(all[0]?.headers['x-request-id']?.[0]?.startsWith('req_'), 'with a request id');
    t.ok(r.closedByServer, `${label}: the connection is closed`);
  }
});

t.test('too many header fields get 431; a ten-digit length gets 413', async (t) => {
  const many = Array.from({ length: 49 }, (_, i) => `X-Field-${i}: v\r\n`).join('');
  const r = await exchange(server.port, `GET /api/v1/templates HTTP/1.1\r\nHost: x\r\n${many}\r\n`);
  const [res] = responses(r.raw);
  t.equal(res?.status, 431, '49 header fields: 431');
  t.match(errorOf(res!).message, /at most 46 header fields/);
  t.ok(r.closedByServer);
  t.ok(r.ms < 1400, 'answered at once, not after an idle timeout');

  const long = await exchange(
    server.port,
    `GET /api/v1/templates HTTP/1.1\r\nHost: x\r\nX-Long: ${'a'.repeat(17_000)}\r\n\r\n`,
  );
  t.equal(responses(long.raw)[0]?.status, 431, 'a 17 kB head: 431');

  const huge = await exchange(
    server.port,
    `POST /api/v1/generations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.live}\r\nContent-Length: 1000000000\r\n\r\n{`,
  );
  const [big] = responses(huge.raw);
  t.equal(big?.status, 413, 'Content-Length 1,000,000,000: 413');
  t.match(errorOf(big!).message, /at most 524288 bytes, got 1000000000 \(Content-Length\)/);
  t.ok(huge.closedByServer, 'and the connection is closed rather than drained');
});

t.test(
  'a declared length of any size over the limit is 413; a control byte in a header value 400',
  async (t) => {
    // Lengths beyond 64 bits too: the check reads any number of digits.
    await refusesMalformedAtOnce(t, server.port, a.live, [
      ...HUGE_LENGTHS,
      '99999999999999999999',
      '1'.padEnd(40, '0'),
    ]);
  },
);

t.test('malformed heads are refused by name', async (t) => {
  for (const [label, head, pattern] of [
    ['no Host in HTTP/1.1', 'GET /api/v1/fonts HTTP/1.1\r\n\r\n', /Host/],
    ['HTTP/2.0 on this port', 'GET /api/v1/fonts HTTP/2.0\r\nHost: x\r\n\r\n', /HTTP version/],
    ['a folded header', 'GET /api/v1/fonts HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n  2\r\n\r\n', /folded/],
    ['a space before the colon', 'GET /api/v1/fonts HTTP/1.1\r\nHost: x\r\nX-A : 1\r\n\r\n', /name: value/],
    [
      'the front header itself',
      'GET /api/v1/fonts HTTP/1.1\r\nHost: x\r\nX-Scriptorium-Front: a 1.2.3.4\r\n\r\n',
      /reserved/,
    ],
  ] as const) {
    const r = await exchange(server.port, head);
    const [res] = responses(r.raw);
    t.equal(res?.status, 400, `${label}: 400`);
    t.match(errorOf(res!).message, pattern, `${label}: named`);
    t.ok(r.closedByServer, `${label}: closed`);
  }
});

t.test('pipelined requests and a chunked body are answered in order', async (t) => {
  const get = `GET /api/v1/templates/${tpl} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.live}\r\n\r\n`;
  const body = '{"templateId":"tpl_nope0000000000000000","text":"hi","format":"svg"}';
  const post = `POST /api/v1/renders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.live}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
  const last = `GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`;
  const r = await exchange(server.port, get + post + get + last);
  const all = responses(r.raw);
  t.same(
    all.map((x) => x.status),
    [200, 404, 200, 404],
    'four requests in one write, four answers in order',
  );
  t.equal(errorOf(all[1]!).code, 'TEMPLATE_NOT_FOUND', 'the chunked body was read whole');
  t.ok(r.closedByServer);
});

t.test('with the check off, HEAD and the refusals that need no reframing still hold', async (t) => {
  const direct = await startTestServer(t, { framingCheck: false });
  const r = await exchange(direct.port, [
    'HEAD /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  ]);
  t.same(
    responses(r.raw, ['HEAD', 'GET']).map((x) => x.status),
    [200, 200],
    'HEAD, then GET on the same connection',
  );
  const twice = await exchange(
    direct.port,
    'POST /api/v1/renders HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
  );
  t.equal(responses(twice.raw)[0]?.status, 400, 'conflicting lengths: 400');
  t.ok(twice.closedByServer, 'and closed');
  const old = await exchange(direct.port, 'GET /api/v1/openapi.json HTTP/1.0\r\n\r\n', 600);
  t.equal(old.raw, '', 'HTTP/1.0 goes unanswered by the transport alone (why the check is on by default)');
});

t.test('by default the check stands where other machines connect, not on loopback', async (t) => {
  // Only the check answers HTTP/1.0: whether it is answered tells whether the check is in front.
  // An answered request ends when the server closes (HTTP/1.0); an unanswered one at the wait.
  const http10 = async (port: number, ms: number) =>
    (await exchange(port, 'GET /api/v1/openapi.json HTTP/1.0\r\n\r\n', ms)).raw.startsWith('HTTP/1.1 200');
  const loopback = await startTestServer(t, { framingCheck: 'auto', host: '127.0.0.1' });
  t.notOk(await http10(loopback.port, 600), 'HOST=127.0.0.1: the transport alone');
  const everywhere = await startTestServer(t, { framingCheck: 'auto', host: '0.0.0.0' });
  t.ok(await http10(everywhere.port, 10_000), 'HOST=0.0.0.0: the check in front');
  t.ok(await http10(server.port, 10_000), 'FRAMING_CHECK=true on loopback: the check in front');
});

t.test('header names of any token characters are served; unknown methods get 501 at once', async (t) => {
  const names = ['X_Trace', 'X.Trace', "X!#$%&'*+^`|~"];
  for (const name of names) {
    const r = await exchange(
      server.port,
      `GET /api/v1/templates/${tpl} HTTP/1.1\r\nHost: x\r\n${name}: 1\r\nAuthorization: Bearer ${a.live}\r\nConnection: close\r\n\r\n`,
    );
    const [res] = responses(r.raw);
    t.equal(res?.status, 200, `a field named ${name}: served`);
    t.ok(r.ms < 1400, `${name}: answered at once, not after an idle timeout`);
  }
  // A key sent under a name the server does not read is no key: an ordinary 401, at once.
  const under = await exchange(
    server.port,
    `GET /api/v1/templates HTTP/1.1\r\nHost: x\r\napi_key: ${a.live}\r\nConnection: close\r\n\r\n`,
  );
  const [unauth] = responses(under.raw);
  t.equal(unauth?.status, 401, 'api_key is not read as the key');
  t.equal(errorOf(unauth!).code, 'INVALID_API_KEY');

  for (const method of ['QUERY', 'PROPFIND', 'get']) {
    const r = await exchange(
      server.port,
      `${method} /api/v1/templates HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.live}\r\n\r\n`,
    );
    const [res] = responses(r.raw);
    t.equal(res?.status, 501, `${method}: 501`);
    const error = JSON.parse(res!.body).error as {
      code: string;
      message: string;
      field: string;
      requestId: string;
    };
    t.equal(error.code, 'INVALID_REQUEST');
    t.equal(error.field, 'method');
    t.match(
      error.message,
      new RegExp(`method "${method}" is not implemented; this server knows GET, HEAD, POST`),
    );
    t.equal(error.requestId, res?.headers['x-request-id']?.[0], 'with its request id');
    t.ok(r.ms < 1400, `${method}: answered at once`);
  }
});
