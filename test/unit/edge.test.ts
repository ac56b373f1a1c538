// The edge's pieces without sockets: whose word on the client's address is taken, the setting
// that names the edge, and the configuration `scriptorium edge` writes.
import t from 'tap';
import { peerOf } from '../../src/api/http/request.ts';
import { addressText } from '../../src/lib/ip-text.ts';
import { edgeConfig, parseAddress } from '../../src/cli/edge.ts';
import { ConfigError, loadConfig } from '../../src/config/index.ts';

t.test("a trusted edge's X-Forwarded-For names the client; anyone else's is ignored", async (t) => {
  const edge = new Set(['10.0.0.5', '::1']);
  const xff = { 'x-forwarded-for': '203.0.113.9' };
  t.equal(peerOf('10.0.0.5', xff, edge), '203.0.113.9', 'from the edge: the forwarded address');
  const mapped = addressText(new Uint8Array(Buffer.from('00000000000000000000ffff0a000005', 'hex')));
  t.equal(peerOf(mapped, xff, edge), '203.0.113.9', 'an IPv4-mapped edge address too');
  t.equal(peerOf('::1', { 'x-forwarded-for': '2001:db8::7' }, edge), '2001:db8::7', 'IPv6');
  t.equal(peerOf('198.51.100.2', xff, edge), '198.51.100.2', 'from anyone else: the socket');
  t.equal(peerOf('10.0.0.5', xff, new Set()), '10.0.0.5', 'no edge trusted: the socket');
  t.equal(
    peerOf('10.0.0.5', { 'x-forwarded-for': '1.1.1.1, 203.0.113.9' }, edge),
    '203.0.113.9',
    'a list: its last address (the one the edge saw)',
  );
  t.equal(
    peerOf('10.0.0.5', { 'x-forwarded-for': ['1.1.1.1', '203.0.113.9'] }, edge),
    '203.0.113.9',
    'repeated: the last one',
  );
  t.equal(peerOf('10.0.0.5', { 'x-forwarded-for': 'not-an-address' }, edge), '10.0.0.5', 'junk: the socket');
  t.equal(peerOf('10.0.0.5', {}, edge), '10.0.0.5', 'none: the socket');
});

t.test('TRUSTED_PROXIES takes addresses only, and names what it refused', async (t) => {
  t.same(loadConfig({ TRUSTED_PROXIES: ' 127.0.0.1, ::1 ' }).trustedProxies, ['127.0.0.1', '::1']);
  t.same(
    loadConfig({ TRUSTED_PROXIES: '0:0:0:0:0:0:0:1,::FFFF:10.0.0.5,2001:DB8:0:0:0:0:0:7' }).trustedProxies,
    ['::1', '10.0.0.5', '2001:db8::7'],
    'written as a peer is, so that any way of writing an address matches',
  );
  t.same(loadConfig({}).trustedProxies, [], 'none by default');
  t.throws(() => loadConfig({ TRUSTED_PROXIES: '127.0.0.1,edge.local' }), ConfigError);
  try {
    loadConfig({ TRUSTED_PROXIES: '127.0.0.1,edge.local', STOP_DELAY_MS: '90000' });
  } catch (err) {
    t.same((err as ConfigError).problems, [
      'TRUSTED_PROXIES must be comma-separated IP addresses, got "edge.local" in "127.0.0.1,edge.local"',
      'STOP_DELAY_MS must be 0-60000 ms, got 90000',
    ]);
  }
});

const options = {
  host: '0.0.0.0',
  port: 8080,
  apis: ['127.0.0.1:8081', '[::1]:8082'],
  maxConnections: 4096,
  checkMs: 1000,
  maxBodyBytes: 20 * 1024 * 1024,
  maxHeaderFields: 46,
};

t.test('API addresses are host:port', async (t) => {
  t.same(parseAddress('127.0.0.1:8081'), { host: '127.0.0.1', port: 8081 });
  t.same(parseAddress('[::1]:8082'), { host: '[::1]', port: 8082 });
  t.same(parseAddress('api-1.internal:80'), { host: 'api-1.internal', port: 80 });
  for (const bad of ['127.0.0.1', ':8081', '127.0.0.1:0', '127.0.0.1:70000', 'a b:1', '::1:8080'])
    t.equal(parseAddress(bad), null, `${bad}: refused`);
  t.throws(() => edgeConfig({ ...options, apis: ['nope'] }), /host:port, got "nope"/);
});

t.test(
  'the configuration balances every API process (HAProxy reads it: test/e2e/edge.test.ts)',
  async (t) => {
    const text = edgeConfig(options);
    t.match(text, /^\s+server api1 127\.0\.0\.1:8081$/m);
    t.match(text, /^\s+server api2 \[::1\]:8082$/m);
    t.match(text, /http-check send meth GET uri \/ready ver HTTP\/1\.1/);
    t.match(text, /tune\.http\.maxhdr 46/);
    t.match(text, /gt 20971520 \}/, 'bodies above the largest route limit are refused');
    t.match(text, /disable-l7-retry if METH_POST/, 'a POST is never sent twice');
  },
);

t.test("a socket's address from its bytes", async (t) => {
  const bytes = (hex: string) => new Uint8Array(Buffer.from(hex, 'hex'));
  t.equal(addressText(bytes('7f000001')), '127.0.0.1', 'IPv4');
  t.equal(
    addressText(bytes('00000000000000000000ffffc6336402')),
    '198.51.100.2',
    'an IPv4 client of an IPv6 socket',
  );
  t.equal(addressText(bytes('00000000000000000000000000000001')), '::1', 'IPv6 loopback, short');
  t.equal(
    addressText(bytes('20010db8000000000000000000000007')),
    '2001:db8::7',
    'IPv6, its zeros run together',
  );
  t.equal(addressText(bytes('000000000000000000000000c6336402')), '::c633:6402', 'not mapped: IPv6 as it is');
  t.equal(addressText(new Uint8Array(0)), '-', 'no address (a socket already closed)');
});
