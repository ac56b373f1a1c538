// A glyph read as pen strokes, on every bundled hand: the strokes give back the ink they were read
// from (intersection over union of the glyph and its strokes swept with their widths, above a
// floor for every glyph and on average), are the same every time, and run as a writer's pen
// does: an l from its top, an o closed and anticlockwise, an i's dot and a t's bar after the stem,
// a joined hand's letter in from its origin and out at its advance.
import t from 'tap';
import { BUNDLED_FONTS } from '../../src/domain/fonts.ts';
import type { PenStroke } from '../../src/render/geometry.ts';
import { centrelines, strokeFit } from '../../src/render/text/centrelines.ts';
import { type LoadedFont, loadFont, shape } from '../../src/render/text/fonts.ts';
import { bundledFontSource } from '../helpers/fonts.ts';

/** The least share of a glyph's ink its strokes give back, for any glyph and on average per hand. */
const FLOOR = { glyph: 0.7, mean: 0.85 };
const CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEHKMRSTW0123456789.,!?'];

const gidOf = (font: LoadedFont, c: string) => shape(font, c, false)[0]!.gid;
const strokesOf = (font: LoadedFont, c: string, joined = false) => {
  const gid = gidOf(font, c);
  return centrelines(
    font.outline(gid),
    font.upem,
    joined ? { advance: font.font.glyphHAdvance(gid) } : undefined,
  );
};
const first = (s: PenStroke) => [s.points[0]!, s.points[1]!];
const last = (s: PenStroke) => [s.points.at(-2)!, s.points.at(-1)!];

t.test('every bundled hand: the strokes give back the ink, the same every time', async (t) => {
  for (const f of BUNDLED_FONTS) {
    const font = loadFont(bundledFontSource(f.slug));
    const fits: { c: string; iou: number }[] = [];
    for (const c of CHARS) {
      if (!font.covers(c.codePointAt(0)!)) continue;
      const strokes = strokesOf(font, c, font.joined);
      const iou = strokeFit(font.outline(gidOf(font, c)), font.upem, strokes).iou;
      fits.push({ c, iou });
      for (const s of strokes) {
        if (s.points.length !== 2 * s.widths.length) t.fail(`${f.name} ${c}: a width for every point`);
        if (s.widths.some((w) => !(w > 0 && w < 0.3 * font.upem))) t.fail(`${f.name} ${c}: widths in range`);
      }
    }
    const worst = fits.reduce((a, b) => (b.iou < a.iou ? b : a));
    const mean = fits.reduce((a, b) => a + b.iou, 0) / fits.length;
    t.ok(
      worst.iou >= FLOOR.glyph,
      `${f.name}: its worst glyph, ${worst.c}, gives back ${worst.iou.toFixed(2)}`,
    );
    t.ok(mean >= FLOOR.mean, `${f.name}: ${mean.toFixed(3)} of the ink on average`);
    t.same(
      strokesOf(font, 'g', font.joined),
      strokesOf(font, 'g', font.joined),
      `${f.name}: the same strokes every time`,
    );
  }
});

t.test('strokes run as a pen writes them', async (t) => {
  const caveat = loadFont(bundledFontSource('caveat'));
  const l = strokesOf(caveat, 'l');
  t.equal(l.length, 1, 'an l is one stroke');
  t.ok(first(l[0]!)[1]! > last(l[0]!)[1]!, 'written from its top down');
  const o = strokesOf(caveat, 'o');
  t.match(o, [{ closed: true }], 'an o is one closed stroke');
  let area = 0;
  const p = o[0]!.points;
  for (let i = 0; i + 3 < p.length; i += 2) area += p[i]! * p[i + 3]! - p[i + 2]! * p[i + 1]!;
  t.ok(area > 0, 'anticlockwise');
  const i = strokesOf(caveat, 'i');
  t.equal(i.length, 2, 'an i is a stem and a dot');
  t.ok(first(i[1]!)[1]! > first(i[0]!)[1]!, 'the dot, above, comes after the stem');
  const kalam = loadFont(bundledFontSource('kalam'));
  const tee = strokesOf(kalam, 't');
  const bar = tee.at(-1)!;
  t.ok(
    Math.abs(last(bar)[1]! - first(bar)[1]!) < 0.3 * Math.abs(last(bar)[0]! - first(bar)[0]!),
    "a t's bar, flat, comes last",
  );
  t.notOk(
    tee.some((s) => s.entry || s.exit),
    'a hand that does not join marks no joins',
  );

  for (const slug of ['dancing-script', 'homemade-apple']) {
    const font = loadFont(bundledFontSource(slug));
    const n = strokesOf(font, 'n', true);
    const advance = font.font.glyphHAdvance(gidOf(font, 'n'));
    t.ok(n[0]!.entry, `${slug} n: its first stroke comes in from the letter before`);
    t.ok(first(n[0]!)[0]! < 0.1 * font.upem, `${slug} n: at its origin`);
    t.ok(n.at(-1)!.exit, `${slug} n: its last stroke runs out into the next`);
    t.ok(last(n.at(-1)!)[0]! > advance - 0.1 * font.upem, `${slug} n: at its advance`);
  }
});
