// The framing check's readers without sockets: request heads, chunked bodies split anywhere,
// and where a response ends.
import t from 'tap';
import {
  ChunkedScanner,
  isRefusal,
  MAX_FIELDS,
  readRequestHead,
  responseFraming,
} from '../../src/api/http/framing.ts';

const head = (s: string) => readRequestHead(s.replaceAll('\n', '\r\n'));

t.test('plain, HTTP/1.0 and absolute-form requests are read', async (t) => {
  const plain = head('POST /api/v1/renders HTTP/1.1\nHost: x\nContent-Length: 12');
  t.notOk(isRefusal(plain));
  t.match(plain, {
    method: 'POST',
    target: '/api/v1/renders',
    http10: false,
    body: { kind: 'length', length: 12 },
  });

  const old = head('GET /a HTTP/1.0\nConnection: Keep-Alive');
  t.match(old, { http10: true, keepAlive: true, hasHost: false, body: { kind: 'none' } });
  t.match(head('GET /a HTTP/1.0'), { http10: true, keepAlive: false });

  t.match(head('GET http://example.com:8080/a/b?c=d HTTP/1.1\nHost: example.com'), { target: '/a/b?c=d' });
  t.match(head('GET https://example.com HTTP/1.1\nHost: example.com'), { target: '/' });
  t.match(head('GET http://example.com?q HTTP/1.1\nHost: example.com'), { target: '/?q' });
  t.match(head('POST /a HTTP/1.1\nHost: x\nTransfer-Encoding: Chunked'), { body: { kind: 'chunked' } });
  t.match(head('POST /a HTTP/1.1\nHost: x\nContent-Length: 5\nContent-Length: 5'), {
    body: { kind: 'length', length: 5 },
  });
  t.match(head('GET /ws HTTP/1.1\nHost: x\nConnection: keep-alive, Upgrade\nUpgrade: websocket'), {
    upgrade: true,
  });
  t.match(head(`GET /a HTTP/1.1\nHost: x\n${'X: y\n'.repeat(MAX_FIELDS - 1).trimEnd()}`), { method: 'GET' });
});

t.test('everything a second parser could read otherwise is refused, by name', async (t) => {
  for (const [text, status, pattern] of [
    [
      'GET /a HTTP/1.1\nContent-Length: 1\nContent-Length: 2\nHost: x',
      400,
      /twice with different values \(1, 2\)/,
    ],
    ['GET /a HTTP/1.1\nHost: x\nContent-Length: 1, 1', 400, /number of bytes/],
    ['GET /a HTTP/1.1\nHost: x\nContent-Length: -1', 400, /number of bytes/],
    ['GET /a HTTP/1.1\nHost: x\nTransfer-Encoding: chunked, chunked', 400, /only be "chunked"/],
    ['GET /a HTTP/1.1\nHost: x\nTransfer-Encoding: gzip, chunked', 400, /only be "chunked"/],
    ['GET /a HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\nTransfer-Encoding: chunked', 400, /sent once/],
    ['GET /a HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\nContent-Length: 3', 400, /not both/],
    ['POST /a HTTP/1.0\nTransfer-Encoding: chunked', 400, /not defined for HTTP\/1.0/],
    ['GET /a HTTP/1.1', 400, /Host/],
    ['GET /a HTTP/1.2\nHost: x', 400, /HTTP version/],
    ['GET  /a HTTP/1.1\nHost: x', 400, /request line/],
    ['G(T /a HTTP/1.1\nHost: x', 400, /method/],
    ['GET a HTTP/1.1\nHost: x', 400, /request target/],
    ['GET ftp://x/a HTTP/1.1\nHost: x', 400, /request target/],
    ['GET /a HTTP/1.1\nHost: x\n folded', 400, /folded/],
    ['GET /a HTTP/1.1\nHost : x', 400, /name: value/],
    ['GET /a HTTP/1.1\nHost: x\nX: a\u0000b', 400, /control character/],
    ['GET /a HTTP/1.1\nHost: x\nX-Scriptorium-Front: s 1.2.3.4', 400, /reserved/],
    [`GET /a HTTP/1.1\nHost: x\n${'X: y\n'.repeat(MAX_FIELDS).trimEnd()}`, 431, /at most 46 header fields/],
  ] as const) {
    const r = head(text);
    t.ok(isRefusal(r), JSON.stringify(text.slice(0, 60)));
    t.match(r, { status, message: pattern });
  }
});

t.test('a chunked body is followed to its end however it is split', async (t) => {
  const body = Buffer.from('5;ext=1\r\nhello\r\n10\r\n0123456789abcdef\r\n0\r\nTrailer: x\r\n\r\nNEXT');
  const end = body.indexOf('NEXT');
  for (let cut = 0; cut <= body.length; cut++) {
    const s = new ChunkedScanner();
    const first = s.scan(body.subarray(0, cut));
    const found = first !== -1 ? first : cut + s.scan(body.subarray(cut));
    if (found !== end) {
      t.fail(`split at ${cut}: ended at ${found}, not ${end}`);
      return;
    }
  }
  t.pass(`every one of ${body.length + 1} splits ends at byte ${end}`);
  t.equal(new ChunkedScanner().scan(Buffer.from('3\r\nabc\r\n')), -1, 'no last chunk yet: goes on');
  for (const bad of [
    'zz\r\n',
    '3\r\nabcX\r\n',
    '3\nabc\r\n',
    `${'f'.repeat(13)}\r\n`,
    '0\r\nnot a trailer\r\n\r\n',
  ]) {
    t.throws(() => new ChunkedScanner().scan(Buffer.from(bad)), JSON.stringify(bad));
  }
});

t.test('a length of any number of digits is read, and kept as sent', async (t) => {
  const long = '18446744073709551616000';
  t.match(head(`POST / HTTP/1.1\nHost: x\nContent-Length: ${long}`), {
    body: { kind: 'length', declared: long },
  });
  t.match(head('POST / HTTP/1.1\nHost: x\nContent-Length: 007\nContent-Length: 7'), {
    body: { kind: 'length', length: 7, declared: '7' },
  });
  t.match(head('POST / HTTP/1.1\nHost: x\nContent-Length: 7\nContent-Length: 70'), {
    status: 400,
    message: /sent twice with different values/,
  });
});

t.test('where a response ends', async (t) => {
  t.same(responseFraming('HTTP/1.1 200 OK\r\nContent-Length: 12', 'GET'), {
    kind: 'length',
    length: 12,
    declared: '12',
  });
  t.same(responseFraming('HTTP/1.1 200 OK\r\nContent-Length: 12', 'HEAD'), { kind: 'none' });
  t.same(responseFraming('HTTP/1.1 204 No Content', 'DELETE'), { kind: 'none' });
  t.same(responseFraming('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked', 'GET'), { kind: 'chunked' });
  t.equal(responseFraming('HTTP/1.1 100 Continue', 'POST'), 'interim');
  t.equal(responseFraming('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket', 'GET'), 'switch');
  t.equal(responseFraming('HTTP/1.1 200 OK', 'GET'), 'to-close');
});
