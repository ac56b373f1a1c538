// The render threads' deflate (workers/deflate.ts over native/deflate.c and libdeflate): what it
// writes zlib inflates back to the input, at every level and size, in every thread; bad
// arguments are refused by name.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { inflateSync } from 'node:zlib';
import t from 'tap';
import { zlibDeflate } from '../../workers/deflate.ts';
import { Random } from '../../src/render/prng.ts';

const random = (n: number, seed: number) => {
  const r = new Random(seed, 'deflate-test');
  return Uint8Array.from({ length: n }, () => r.int(256));
};
// Rows of a paper colour with a few runs of ink: as a page's pixels are.
const pagey = (() => {
  const px = new Uint8Array(3 * 1200 * 300);
  const r = new Random(7, 'page');
  for (let i = 0; i < px.length; i += 3) [px[i], px[i + 1], px[i + 2]] = [250, 246, 236];
  for (let k = 0; k < 4000; k++) {
    const at = 3 * r.int(1200 * 300 - 20);
    for (let j = 0; j < 3 * (2 + r.int(18)); j++) px[at + j] = 40 + r.int(60);
  }
  return px;
})();

t.test('what it writes inflates back to the input', async (t) => {
  const inputs: [string, Uint8Array][] = [
    ['nothing', new Uint8Array(0)],
    ['one byte', Uint8Array.of(42)],
    ['text', new TextEncoder().encode('BT /F1 12 Tf 72 712 Td (Dear Ren\u00e9e) Tj ET\n'.repeat(300))],
    ['1 MB of random bytes', random(1 << 20, 1)],
    ['a page of pixels', pagey],
  ];
  for (const [name, input] of inputs)
    for (const level of [1, 2, 6, 12]) {
      const out = zlibDeflate(input, level);
      t.ok(Buffer.from(inflateSync(out)).equals(Buffer.from(input)), `${name}, level ${level}`);
    }
  t.ok(zlibDeflate(pagey, 1).length < pagey.length / 10, 'a page of pixels is compressed, not stored');
  t.ok(zlibDeflate(pagey, 12).length < zlibDeflate(pagey, 1).length, 'a higher level writes fewer bytes');
});

t.test(
  'a view compresses its own bytes; a large input frees its output buffer and the next call works',
  async (t) => {
    const whole = random(10_000, 2);
    const view = whole.subarray(1_001, 7_003);
    t.ok(
      Buffer.from(inflateSync(zlibDeflate(view, 1))).equals(Buffer.from(view)),
      'a subarray at an odd offset',
    );
    const large = new Uint8Array(20 << 20).fill(7); // over the 16 MiB output kept between calls
    large.set(random(1 << 20, 3), 5 << 20);
    t.ok(Buffer.from(inflateSync(zlibDeflate(large, 1))).equals(Buffer.from(large)), '20 MiB');
    t.ok(Buffer.from(inflateSync(zlibDeflate(pagey, 1))).equals(Buffer.from(pagey)), 'the call after it');
  },
);

t.test('bad arguments are refused, naming what is wrong', async (t) => {
  const refuse = (f: () => unknown, message: RegExp, name: string) =>
    t.throws(f, { name: 'TypeError', message }, name);
  const input = new TextEncoder().encode('ink');
  for (const level of [0, 13, -1, 1.5, Number.NaN, '1', undefined])
    refuse(
      () => zlibDeflate(input, level as number),
      /level must be a whole number from 1 to 12/,
      `level ${String(level)}`,
    );
  for (const bad of ['ink', new Uint16Array(4), new ArrayBuffer(4), null, [1, 2]])
    refuse(
      () => zlibDeflate(bad as unknown as Uint8Array, 1),
      /input must be a Uint8Array/,
      Object.prototype.toString.call(bad),
    );
});

t.test('each thread has its own compressors: threads compress at once, and leave cleanly', async (t) => {
  const path = createRequire(import.meta.url).resolve('#native/deflate');
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { inflateSync } = require('node:zlib');
    const addon = require(workerData.path);
    const input = new Uint8Array(workerData.input);
    let ok = 0;
    for (let i = 0; i < 20; i++) ok += inflateSync(addon.zlib(input, 1 + (i % 3))).equals(input) ? 1 : 0;
    parentPort.postMessage(ok);`;
  const run = () =>
    new Promise<number>((resolve, reject) => {
      const w = new Worker(source, { eval: true, workerData: { path, input: pagey.buffer.slice(0) } });
      w.once('message', (ok) => {
        void w.terminate();
        resolve(ok as number);
      });
      w.once('error', reject);
    });
  const here = Array.from({ length: 20 }, () =>
    Buffer.from(inflateSync(zlibDeflate(pagey, 1))).equals(Buffer.from(pagey)),
  );
  t.same(
    await Promise.all([run(), run(), run(), run()]),
    [20, 20, 20, 20],
    'four threads, twenty streams each',
  );
  t.ok(here.every(Boolean), 'and this thread beside them');
});
