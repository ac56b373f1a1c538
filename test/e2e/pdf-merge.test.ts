// The merge of the writer's PDFs: one valid PDF whose pages are the sources' pages in order, each
// drawn as in its source; anything not written by the writer is refused.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { PDFDocument } from '@cantoo/pdf-lib';
import t from 'tap';
import { renderText } from '../../src/render/page/document.ts';
import { MergeError, mergePdfs, writePdf } from '../../src/render/index.ts';
import { bundledChain, bundledFontSource } from '../helpers/fonts.ts';
import { styleOf } from '../helpers/specs.ts';

const fonts = bundledChain(bundledFontSource('caveat'));
const dir = mkdtempSync(join(tmpdir(), 'scriptorium-merge-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const doc = (text: string, seed: number, pageSize = 'A5') =>
  writePdf(renderText({ style: styleOf({ pageSize, modifiers: { seed } }), text, fonts }), {
    deflate: (b) => deflateSync(b),
    createdAt: '2026-11-27T10:00:00Z',
  });

async function merge(sources: Uint8Array[], title = 'Letters') {
  const parts: Uint8Array[] = [];
  for await (const chunk of mergePdfs(
    (async function* () {
      yield* sources;
    })(),
    { title, createdAt: '2026-11-27T12:00:00Z' },
  ))
    parts.push(chunk);
  return Buffer.concat(parts);
}

const file = (name: string, bytes: Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
const raster = (path: string, page: number) =>
  execFileSync('pdftoppm', ['-r', '30', '-gray', '-f', `${page}`, '-l', `${page}`, path]);

t.test('sources in order: every page as its source draws it, in one valid PDF', async (t) => {
  const long = `Dear Ada, ${'the garden was lovely and the roses were in bloom. '.repeat(40)}`;
  const sources = [doc(long, 1), doc('Dear Tom, thank you.', 2), doc('Dear Grace, see you soon.', 3, 'C6')];
  const pages = sources.map((s) =>
    Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file('s.pdf', s)]).toString())![1]),
  );
  t.ok(pages[0]! > 1, 'the first source has several pages');
  const merged = file('merged.pdf', await merge(sources, 'Letters of bat_x'));
  execFileSync('qpdf', ['--check', merged]);
  const info = execFileSync('pdfinfo', [merged], { encoding: 'utf8' });
  t.match(info, new RegExp(`Pages:\\s+${pages[0]! + 2}\\n`), "every source's pages");
  t.match(info, /Title:\s+Letters of bat_x/);
  t.match(info, /CreationDate:\s+Fri Nov 27 12:00:00 2026/);
  const text = execFileSync('pdftotext', [merged, '-'], { encoding: 'utf8' });
  t.match(text, /Dear Ada[\s\S]*Dear Tom[\s\S]*Dear Grace/, 'in order');
  let at = 1;
  for (const [i, source] of sources.entries()) {
    const path = file(`source-${i}.pdf`, source);
    for (let p = 1; p <= pages[i]!; p++, at++)
      t.ok(
        raster(merged, at).equals(raster(path, p)),
        `page ${at} is page ${p} of source ${i}, pixel for pixel`,
      );
  }
  t.ok(
    (await merge(sources, 'Letters of bat_x')).equals(await merge(sources, 'Letters of bat_x')),
    'same bytes each time',
  );
});

t.test('what the writer did not write is refused', async (t) => {
  const other = await PDFDocument.create();
  other.addPage([300, 300]);
  const foreign = await other.save();
  const good = doc('Dear Ada.', 1);
  for (const [what, bytes] of [
    ['another writer', foreign],
    ['not a PDF', Buffer.from('hello')],
    ['cut short', good.subarray(0, good.length - 200)],
  ] as const)
    await t.rejects(merge([good, bytes]), MergeError, what);
  await t.rejects(merge([]), MergeError, 'nothing to merge');
});
