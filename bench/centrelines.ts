// Centrelines of every bundled hand: how long reading a glyph's strokes takes (each glyph of a-z,
// A-Z, 0-9 and common punctuation, once), how many strokes a letter gets, and how well the
// strokes give the ink back (intersection over union of the glyph and its strokes swept with
// their widths). `--sheet DIR` writes a contact sheet per hand: grey where only the glyph inks,
// blue where only the strokes do, black where both, red on the centrelines.
//
//   node --import tsx bench/centrelines.ts [--sheet DIR] [--write]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BUNDLED_FONTS } from '../src/domain/fonts.ts';
import { centrelines, RES, strokeFit } from '../src/render/text/centrelines.ts';
import { loadFont, shape } from '../src/render/text/fonts.ts';
import { encodePng } from '../src/render/write/png-encode.ts';
import { bundledFontSource } from '../test/helpers/fonts.ts';
import { record } from './record.ts';
import { machine, ROOT } from './serve.ts';

const { values: args } = parseArgs({
  options: {
    write: { type: 'boolean', default: false },
    sheet: { type: 'string' },
    chars: { type: 'string' },
    hand: { type: 'string' },
  },
});
const CHARS = [...(args.chars ?? 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,!?&')];

const rows: string[] = [];
for (const f of BUNDLED_FONTS.filter((b) => !args.hand || b.slug === args.hand)) {
  const font = loadFont(bundledFontSource(f.slug));
  const glyphs = CHARS.filter((c) => font.covers(c.codePointAt(0)!)).map((c) => ({
    c,
    gid: shape(font, c, false)[0]!.gid,
  }));
  const started = performance.now();
  const read = glyphs.map((g) => ({
    ...g,
    strokes: centrelines(
      font.outline(g.gid),
      font.upem,
      font.joined ? { advance: font.font.glyphHAdvance(g.gid) } : undefined,
    ),
  }));
  const ms = performance.now() - started;
  const fits = read.map((g) => ({ ...g, fit: strokeFit(font.outline(g.gid), font.upem, g.strokes) }));
  const ious = fits.map((g) => g.fit.iou).sort((a, b) => a - b);
  const mean = ious.reduce((a, b) => a + b, 0) / ious.length;
  const worst = fits
    .slice()
    .sort((a, b) => a.fit.iou - b.fit.iou)
    .slice(0, 3);
  const strokes = read.reduce((a, g) => a + g.strokes.length, 0) / read.length;
  rows.push(
    `| ${f.name} | ${glyphs.length} | ${(ms / glyphs.length).toFixed(2)} | ${strokes.toFixed(1)} | ${mean.toFixed(3)} | ${worst.map((g) => `${g.c} ${g.fit.iou.toFixed(2)}`).join(', ')} |`,
  );
  if (args.sheet) writeSheet(args.sheet, f.slug, font.upem, fits);
}

const table = [
  `| hand | glyphs | ms a glyph | strokes a glyph | ink given back (IoU, mean) | worst |`,
  '|---|---|---|---|---|---|',
  ...rows,
].join('\n');
console.log(table);
if (args.write)
  record(
    ROOT,
    `### Centrelines of the bundled hands, ${new Date().toISOString().slice(0, 10)} (bench/centrelines.ts)\n\n${machine()}; one thread, each glyph read once, ${RES} px to the em. The ink given back: the glyph's bitmap against its strokes swept with their widths (intersection over union).\n\n${table}`,
  );

function writeSheet(
  dir: string,
  slug: string,
  upem: number,
  fits: { strokes: ReturnType<typeof centrelines>; fit: ReturnType<typeof strokeFit> }[],
): void {
  mkdirSync(dir, { recursive: true });
  const cell = Math.ceil(RES * 1.4);
  const perRow = Math.min(12, fits.length);
  const [W, H] = [cell * perRow, cell * Math.ceil(fits.length / perRow)];
  const rgba = new Uint8Array(W * H * 4).fill(255);
  const put = (x: number, y: number, c: [number, number, number]) => {
    if (x < 0 || y < 0 || x >= W || y >= H) return;
    rgba.set([...c, 255], (y * W + x) * 4);
  };
  fits.forEach((g, i) => {
    const [ox, oy] = [(i % perRow) * cell, Math.floor(i / perRow) * cell];
    const { w, h, cells } = g.fit;
    for (let y = 0; y < Math.min(h, cell); y++)
      for (let x = 0; x < Math.min(w, cell); x++) {
        const c = cells[y * w + x]!;
        if (c) put(ox + x, oy + y, c === 3 ? [40, 40, 40] : c === 1 ? [190, 190, 190] : [120, 160, 255]);
      }
    // The centrelines, from font units to the fit's bitmap (its origin is x0, y0 pixels of the em).
    const scale = RES / upem;
    for (const s of g.strokes)
      for (let k = 0; k + 3 < s.points.length; k += 2) {
        const [ax, ay, bx, by] = [s.points[k]!, s.points[k + 1]!, s.points[k + 2]!, s.points[k + 3]!];
        const n = Math.ceil(Math.hypot(bx - ax, by - ay) * scale * 2);
        for (let j = 0; j <= n; j++) {
          const t = j / Math.max(1, n);
          const [x, y] = [(ax + t * (bx - ax)) * scale, (ay + t * (by - ay)) * scale];
          put(ox + Math.round(x - g.fit.x0), oy + Math.round(g.fit.y0 - y), [220, 30, 30]);
        }
      }
  });
  writeFileSync(join(dir, `${slug}.png`), encodePng(W, H, rgba));
}
