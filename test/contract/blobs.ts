// One contract for both blob store adapters (a directory, S3): a function of a factory.
import type { Test } from 'tap';
import type { BlobStore } from '../../src/blobs/types.ts';

export type BlobStoreFactory = () => Promise<BlobStore>;

export function blobStoreContract(t: Test, name: string, make: BlobStoreFactory): void {
  t.test(`${name}: prepare makes it ready, twice is fine, and it then takes objects`, async (t) => {
    const b = await make();
    await b.prepare({ outputDays: 7, warn: (m) => t.comment(m) });
    await b.prepare({ outputDays: 7, warn: () => {} });
    await t.resolves(b.ping(), 'a prepared store answers a ping');
    await b.put('outputs/acc/gen_0/1.pdf', new Uint8Array([1]), 'application/pdf');
    t.equal(await b.exists('outputs/acc/gen_0/1.pdf'), true, 'an object written after prepare is there');
    await b.delete('outputs/acc/gen_0/1.pdf');
  });

  t.test(`${name}: put, get, exists, delete`, async (t) => {
    const b = await make();
    t.equal(await b.get('outputs/acc/none.pdf'), null, 'absent: null');
    t.equal(await b.exists('outputs/acc/none.pdf'), false);
    await b.delete('outputs/acc/none.pdf');
    t.pass('deleting an absent object is fine');
    const bytes = new Uint8Array([37, 80, 68, 70, 0, 255, 1, 2]);
    await b.put('outputs/acc/gen_1/1.pdf', bytes, 'application/pdf');
    t.same(await b.get('outputs/acc/gen_1/1.pdf'), bytes, 'the bytes come back as written');
    t.equal(await b.exists('outputs/acc/gen_1/1.pdf'), true);
    await b.put('outputs/acc/gen_1/1.pdf', new Uint8Array([9]), 'application/pdf');
    t.same(await b.get('outputs/acc/gen_1/1.pdf'), new Uint8Array([9]), 'a put replaces the object whole');
    await b.delete('outputs/acc/gen_1/1.pdf');
    t.equal(await b.exists('outputs/acc/gen_1/1.pdf'), false, 'deleted');
  });

  t.test(`${name}: open streams a large object in chunks with its size; close stops it`, async (t) => {
    const b = await make();
    const big = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => i % 251);
    await b.put('outputs/acc/gen_2/1.pdf', big, 'application/pdf');
    const s = await b.open('outputs/acc/gen_2/1.pdf');
    t.equal(s?.size, big.length);
    let total = 0;
    let chunks = 0;
    let same = true;
    for await (const c of s!.chunks) {
      for (let i = 0; i < c.length; i++) if (c[i] !== big[total + i]) same = false;
      total += c.length;
      chunks++;
    }
    t.equal(total, big.length, 'every byte arrives');
    t.ok(same, 'in order');
    t.ok(chunks > 1, `in more than one chunk (${chunks})`);
    const early = await b.open('outputs/acc/gen_2/1.pdf');
    for await (const _ of early!.chunks) break;
    early!.close();
    t.pass('a reader that stops early closes the stream');
    t.equal(await b.open('outputs/acc/none.pdf'), null, 'absent: null');
  });

  t.test(`${name}: list by prefix`, async (t) => {
    const b = await make();
    for (const k of [
      'outputs/a/gen_1/1.pdf',
      'outputs/a/gen_2/1.pdf',
      'outputs/b/gen_3/2.pdf',
      'previews/a/gen_4/1.json',
      'assets/a/asset_1',
    ])
      await b.put(k, new Uint8Array([1]), 'application/octet-stream');
    const seen: string[] = [];
    for await (const k of b.list('outputs/')) seen.push(k);
    t.same(
      seen.sort(),
      ['outputs/a/gen_1/1.pdf', 'outputs/a/gen_2/1.pdf', 'outputs/b/gen_3/2.pdf'],
      'only the prefix, full keys',
    );
    const none: string[] = [];
    for await (const k of b.list('fonts/')) none.push(k);
    t.same(none, [], 'an empty prefix lists nothing');
  });

  t.test(`${name}: an object deleted while the list runs (the sweeper) does not break it`, async (t) => {
    const b = await make();
    const keys = ['outputs/race/gen_1/1.pdf', 'outputs/race/gen_2/1.pdf', 'outputs/race/gen_3/1.pdf'];
    for (const k of keys) await b.put(k, new Uint8Array([1]), 'application/pdf');
    const listing = b.list('outputs/race/')[Symbol.asyncIterator]();
    const first = await listing.next();
    t.equal(first.value, keys[0], 'the first key');
    await b.delete(keys[1]!);
    const rest: string[] = [];
    for (let next = await listing.next(); !next.done; next = await listing.next()) rest.push(next.value);
    t.ok(rest.includes(keys[2]!), `the list goes on past the deleted one (${rest.join(', ')})`);
    for (const k of keys) await b.delete(k);
  });

  t.test(`${name}: keys that escape are refused`, async (t) => {
    const b = await make();
    for (const key of ['../etc/passwd', '/abs', 'outputs/../../x', 'a//b', '']) {
      await t.rejects(b.put(key, new Uint8Array([1]), 'text/plain'), /invalid blob key/, JSON.stringify(key));
    }
  });
}
