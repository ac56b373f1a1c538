// The transport over real sockets, with the framing check in front and without. Streamed bodies
// reach a slow reader whole: one of unknown length goes out chunked, byte for byte, with its last
// chunk; one of a known length too. The chunks are shaped as the PDF merger sends them (many
// small objects, 80 KiB pieces of a cross-reference table, and some of several MiB), which once
// lost the rest of a large write made while the socket was full. A fault while answering one
// request closes that request's connection and nothing else: the process answers the next.
import { createHash } from 'node:crypto';
import net from 'node:net';
import t from 'tap';
import type { Api } from '../../src/api/pipeline.ts';
import type { Reply } from '../../src/api/types.ts';
import { listen } from '../../src/api/http/uws-server.ts';
import { exchange, readChunked, slowGet } from '../helpers/raw-http.ts';

const sizes = [
  ...Array.from({ length: 1500 }, (_, i) => (i % 60 === 0 ? 3_000_000 : 80 + ((i * 7919) % 20_000))),
  ...Array.from({ length: 24 }, () => 81_920),
  150,
];
const chunks = sizes.map((n, i) => {
  const b = Buffer.allocUnsafe(n);
  for (let j = 0; j < n; j += 4096) b[j] = (i * 31 + j) & 0xff;
  return b.fill(65 + (i % 26), 1, Math.min(n, 64));
});
const digest = createHash('sha256');
for (const c of chunks) digest.update(c);
const expected = { bytes: sizes.reduce((a, n) => a + n, 0), sha256: digest.digest('hex') };

/** An API of one handler: the transport's refusals and counts are not what these tests look at. */
function apiOf(handle: Api['handle'], bodyLimit: Api['bodyLimit'] = () => 1024): Api {
  return {
    bodyLimit,
    handle,
    refuse: () => ({ status: 400, json: {} }),
    countLater() {},
    admitAdmin: async () => null,
  };
}

/** An API answering every request with the chunks above, streamed with or without a length. */
function streamingApi(): Api {
  const reply = (sized: boolean): Reply => ({
    status: 200,
    stream: {
      contentType: 'application/pdf',
      ...(sized ? { size: expected.bytes } : {}),
      chunks: (async function* () {
        for (const [i, c] of chunks.entries()) {
          yield c;
          // As the merger does between sources: let the socket's reader run.
          if (i % 50 === 0) await new Promise((r) => setImmediate(r));
        }
      })(),
      close() {},
    },
  });
  return apiOf(async (req) => reply(req.path === '/sized'));
}

for (const framingCheck of [true, false]) {
  t.test(
    `a streamed body reaches a slow reader whole (framing check ${framingCheck ? 'on' : 'off'})`,
    async (t) => {
      const server = await listen(streamingApi(), { host: '127.0.0.1', port: 0, framingCheck });
      t.teardown(() => server.close(100));
      for (const path of ['/chunked', '/sized']) {
        const raw = await slowGet(server.port, path);
        const { head, body: dechunked, ended } = readChunked(raw);
        let body = dechunked;
        if (path === '/chunked') {
          t.match(head, /transfer-encoding: chunked/, 'no length up front: chunked');
          t.ok(ended, 'the chunked answer ends with its last chunk');
        } else {
          t.match(head, new RegExp(`content-length: ${expected.bytes}`));
          body = raw.subarray(raw.indexOf('\r\n\r\n') + 4);
        }
        t.equal(body.length, expected.bytes, `${path}: every byte arrived`);
        t.equal(createHash('sha256').update(body).digest('hex'), expected.sha256, `${path}: the same bytes`);
      }
    },
  );
}

/** An API whose answers fail in every way a request can make them fail, and one that does not. */
function faultyApi(): Api {
  return apiOf(
    (req) => {
      if (req.path === '/throws') throw new Error('handle threw');
      if (req.path === '/rejects') return Promise.reject(new Error('handle rejected'));
      if (req.path === '/stream-fails')
        return Promise.resolve({
          status: 200,
          stream: {
            contentType: 'application/pdf',
            // biome-ignore lint/correctness/useYield: a stream that fails before its first chunk
            chunks: (async function* () {
              throw new Error('the stream failed');
            })(),
            close() {},
          },
        });
      return Promise.resolve({ status: 200, json: { ok: true } });
    },
    (_method, path) => {
      if (path === '/limit-throws') throw new Error('bodyLimit failed');
      return 1024;
    },
  );
}

for (const framingCheck of [true, false]) {
  t.test(
    `a fault while answering closes that connection only (framing check ${framingCheck ? 'on' : 'off'})`,
    async (t) => {
      const faults: unknown[] = [];
      const server = await listen(faultyApi(), {
        host: '127.0.0.1',
        port: 0,
        framingCheck,
        onError: (err) => faults.push(err),
      });
      t.teardown(() => server.close(100));
      for (const path of ['/throws', '/rejects', '/stream-fails', '/limit-throws']) {
        const r = await exchange(server.port, `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`, 3000);
        t.ok(r.closedByServer, `${path}: the server closes the connection, not left hanging`);
        t.notMatch(r.raw, /^HTTP\/1\.1 200/, `${path}: never taken for a success`);
        const ok = await exchange(server.port, 'GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
        t.match(ok.raw, /^HTTP\/1\.1 200 /, `after ${path}: the next request is answered`);
      }
      t.equal(server.inFlight(), 0, 'no request is left counted in flight');
      t.ok(faults.length >= 3, `the faults were told (${faults.length})`);
    },
  );
}

/** A kept-alive connection: sends a request, waits for its whole answer; tells when the server closes it. */
function keptAlive(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let seen = '';
  let waiting: ((raw: string) => void) | null = null;
  socket.setEncoding('latin1');
  socket.on('data', (d: string) => {
    seen += d;
    const end = seen.indexOf('\r\n\r\n');
    const length = /content-length: (\d+)/i.exec(seen);
    if (waiting && end >= 0 && length && seen.length >= end + 4 + Number(length[1])) {
      const answer = seen;
      seen = '';
      waiting(answer);
    }
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => {});
  return {
    ask: (path: string) =>
      new Promise<string>((resolve) => {
        waiting = resolve;
        socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
      }),
    closed,
    socket,
  };
}

for (const framingCheck of [true, false]) {
  t.test(
    `a stopping server answers what it has read, then closes every connection left (framing check ${framingCheck ? 'on' : 'off'})`,
    async (t) => {
      let release: () => void = () => {};
      const held = new Promise<void>((r) => {
        release = r;
      });
      const server = await listen(
        apiOf(async (req) => {
          if (req.path === '/slow') await held;
          return { status: 200, json: { path: req.path } };
        }),
        { host: '127.0.0.1', port: 0, framingCheck },
      );
      const idle = keptAlive(server.port);
      t.match(
        await idle.ask('/first'),
        /^HTTP\/1\.1 200 /,
        'an idle connection, kept alive after its answer',
      );
      const busy = keptAlive(server.port);
      const slow = busy.ask('/slow');
      // The slow request is read before the server is told to stop.
      while (server.inFlight() === 0) await new Promise((r) => setTimeout(r, 10));
      let stopped = false;
      const stopping = server.close(60_000).then(() => {
        stopped = true;
      });
      await new Promise((r) => setTimeout(r, 200));
      t.notOk(stopped, 'the stop waits for the request in flight');
      release();
      const answer = await slow;
      t.match(answer, /^HTTP\/1\.1 200 /, 'the request in flight is answered');
      t.match(answer, /connection: close/i, 'and told that its connection closes');
      t.match(answer, /"path":"\/slow"/);
      await stopping;
      // A kept-alive connection left open would stay so until its client gave up on it.
      const closed = await Promise.race([
        Promise.all([idle.closed, busy.closed]).then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), 5000).unref()),
      ]);
      t.ok(closed, 'once it is answered, the stop closes every connection: the idle one kept alive too');
      idle.socket.destroy();
      busy.socket.destroy();
    },
  );
}

t.test("the client's address, on an IPv4 socket and on an IPv6 one", async (t) => {
  const peerApi = apiOf(async (req) => ({ status: 200, json: { peer: req.peer() } }));
  const peerOf = async (url: string, headers: Record<string, string> = {}) =>
    ((await (await fetch(url, { headers })).json()) as { peer: string }).peer;
  const v4 = await listen(peerApi, { host: '127.0.0.1', port: 0, framingCheck: false });
  t.teardown(() => v4.close(100));
  t.equal(await peerOf(`http://127.0.0.1:${v4.port}/`), '127.0.0.1', 'IPv4 socket: the dotted address');

  // Both families on one socket: an IPv4 client is its IPv4 address, an IPv6 one is written
  // short, so that each matches the trusted edge as the operator wrote it.
  const both = await listen(peerApi, {
    host: '::',
    port: 0,
    framingCheck: false,
    trustedProxies: ['127.0.0.1', '::1'],
  });
  t.teardown(() => both.close(100));
  const xff = { 'x-forwarded-for': '203.0.113.9' };
  t.equal(await peerOf(`http://127.0.0.1:${both.port}/`), '127.0.0.1', 'IPv6 socket, IPv4 client');
  t.equal(
    await peerOf(`http://[::1]:${both.port}/`),
    '::1',
    'IPv6 socket, IPv6 client: ::1, not written out',
  );
  t.equal(await peerOf(`http://127.0.0.1:${both.port}/`, xff), '203.0.113.9', 'a trusted IPv4 edge forwards');
  t.equal(await peerOf(`http://[::1]:${both.port}/`, xff), '203.0.113.9', 'a trusted IPv6 edge forwards');
});
