// Which addresses a webhook may reach: public unicast only; and the socket lookup that enforces it.
import type { LookupAddress } from 'node:dns';
import t from 'tap';
import { isPublicAddress, literalAddress, publicLookup } from '../../src/lib/public-address.ts';

t.test('public unicast addresses only', async (t) => {
  for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])
    t.ok(isPublicAddress(ip), `${ip} is public`);
  for (const ip of [
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not an address',
  ])
    t.notOk(isPublicAddress(ip), `${ip} is not`);
});

t.test('an address written in the URL', async (t) => {
  t.equal(literalAddress(new URL('http://127.0.0.1:8080/x')), '127.0.0.1');
  t.equal(literalAddress(new URL('http://[::1]/x')), '::1');
  t.equal(
    literalAddress(new URL('http://2130706433/x')),
    '127.0.0.1',
    'a number is an IPv4 address to a URL',
  );
  t.equal(literalAddress(new URL('https://example.com/x')), null);
});

t.test('the lookup refuses a name that resolves to a private address, naming it', async (t) => {
  const looked = await new Promise<{ err: (Error & { code?: string }) | null; all?: LookupAddress[] }>(
    (resolve) =>
      publicLookup('localhost', { all: true }, (err, all) =>
        resolve({ err, all: all as unknown as LookupAddress[] }),
      ),
  );
  t.match(looked.err, {
    code: 'ENOTPUBLIC',
    message: /^localhost resolves to (127\.0\.0\.1|::1), which is not a public address$/,
  });
});
