// The sample sheet from the operator's CLI: the PDF at its paper size, a page per share of the
// boxes, and its layout beside it; rasterised as a scanner would see it, the marks and the code's
// cells are black where the layout says, the code reads back, and every box is empty and light.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { readSheetCode, type SheetLayout } from '../../src/foundry/index.ts';
import { cli } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'scriptorium-sheet-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const DPI = 50;

/** Page `page` of a PDF as grey pixels. */
function raster(pdf: string, page: number) {
  const pgm = execFileSync('pdftoppm', ['-r', String(DPI), '-gray', '-f', `${page}`, '-l', `${page}`, pdf]);
  const head = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'))!;
  const width = Number(head[1]);
  const data = pgm.subarray(head[0].length);
  /** The mean grey (0 black, 255 white) of a rectangle given in mm, shrunk by `inset` mm a side. */
  const mean = (x: number, y: number, w: number, h: number, inset = 0.6) => {
    const px = (mm: number) => Math.round((mm * DPI) / 25.4);
    let sum = 0;
    let n = 0;
    for (let j = px(y + inset); j < px(y + h - inset); j++)
      for (let i = px(x + inset); i < px(x + w - inset); i++, n++) sum += data[j * width + i]!;
    return sum / n;
  };
  return { width, height: Number(head[2]), mean };
}

for (const [paper, set, size] of [
  ['a4', 'basic', /595\.\d* x 841\.\d* pts \(A4\)/],
  ['letter', 'latin1', /612 x 792 pts \(letter\)/],
] as const)
  t.test(`scriptorium admin font sheet --paper ${paper} --set ${set}`, async (t) => {
    const pdf = join(dir, `${paper}.pdf`);
    const run = await cli(
      ['admin', 'font', 'sheet', '-o', pdf, '--paper', paper, '--set', set, '--json'],
      {},
    );
    t.equal(run.code, 0, run.stderr);
    const said = JSON.parse(run.stdout);
    const layout = JSON.parse(readFileSync(join(dir, `${paper}.json`), 'utf8')) as SheetLayout;
    t.match(said, { pdf, layout: join(dir, `${paper}.json`), code: layout.code, pages: layout.pages });
    t.equal(said.boxes, layout.boxes.length);
    const info = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
    t.match(info, new RegExp(`Pages:\\s+${layout.pages}\\n`));
    t.match(info, size);
    for (let page = 1; page <= layout.pages; page++) {
      const text = execFileSync('pdftotext', ['-f', `${page}`, '-l', `${page}`, pdf, '-'], {
        encoding: 'utf8',
      });
      t.match(text, `${layout.code}/${page}`, `page ${page} prints its code`);
      const r = raster(pdf, page);
      t.ok(
        layout.marks.every((m) => r.mean(m.x, m.y, m.size, m.size) < 40),
        `page ${page}: the four registration marks are black`,
      );
      const c = layout.codeCells;
      const bits = Array.from(
        { length: c.count },
        (_, i) => r.mean(c.x + i * c.size, c.y, c.size, c.size) < 128,
      );
      t.match(
        readSheetCode(bits),
        { set, paper, page, pages: layout.pages },
        `page ${page}: its code cells read back`,
      );
      const boxes = layout.boxes.filter((b) => b.page === page);
      const dark = boxes.filter(
        // The writing room under the printed label: light guides on white, no ink.
        (b) => r.mean(b.x, b.y + 4, b.width, b.height - 4) < 200,
      );
      t.same(
        dark.map((b) => `${b.char} ${b.variant}`),
        [],
        `page ${page}: every box is empty and light`,
      );
    }
    t.match(
      execFileSync('pdftotext', ['-f', '1', '-l', '1', pdf, '-'], { encoding: 'utf8' }),
      /\ba ?2\b[\s\S]*\ba ?3\b/,
      'the boxes are labelled with their character and drawing',
    );
  });

t.test('a paper or set it does not know is refused, and nothing is written', async (t) => {
  const pdf = join(dir, 'refused.pdf');
  const run = await cli(['admin', 'font', 'sheet', '-o', pdf, '--paper', 'a3'], {});
  t.not(run.code, 0);
  t.match(run.stderr, /--paper.*'a3' is invalid\. Allowed choices are a4, letter/);
  t.throws(() => readFileSync(pdf));
});
