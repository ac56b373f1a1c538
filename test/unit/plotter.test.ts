// The pen plotter's SVG (POST /renders with "format": "strokes"): the letters' centrelines,
// stroked, in writing order, where the outlines' ink is; a connected hand's joins one movement.
import { Resvg } from '@resvg/resvg-js';
import t from 'tap';
import { bundledChain, bundledFontSource } from '../helpers/fonts.ts';
import { styleOf } from '../helpers/specs.ts';
import { bundledFontId } from '../../src/domain/fonts.ts';
import { renderText } from '../../src/render/page/document.ts';
import { penTravel, writeStrokes, writeSvg } from '../../src/render/index.ts';
import { penWalks } from '../../src/render/write/pen-walk.ts';

const TEXT = 'A minimum of seven lines\nwill do, quite kindly written.';
const WIDTH = 1600;

/** Ink (dark enough) of an SVG drawn `WIDTH` pixels wide, as a mask. */
function inkOf(svg: string): { mask: Uint8Array; w: number; h: number } {
  const img = new Resvg(svg, { fitTo: { mode: 'width', value: WIDTH }, background: '#ffffff' }).render();
  const px = img.pixels; // a copy at each read
  const mask = new Uint8Array(img.width * img.height);
  for (let i = 0; i < mask.length; i++) mask[i] = px[4 * i]! < 160 ? 1 : 0;
  return { mask, w: img.width, h: img.height };
}

/** The mask grown by `r` pixels (a square). */
function grown(m: { mask: Uint8Array; w: number; h: number }, r: number): Uint8Array {
  const out = new Uint8Array(m.mask.length);
  for (let y = 0; y < m.h; y++)
    for (let x = 0; x < m.w; x++) {
      if (!m.mask[y * m.w + x]) continue;
      for (let dy = -r; dy <= r; dy++)
        for (let dx = -r; dx <= r; dx++) {
          const [u, v] = [x + dx, y + dy];
          if (u >= 0 && v >= 0 && u < m.w && v < m.h) out[v * m.w + u] = 1;
        }
    }
  return out;
}

const share = (of: Uint8Array, inside: Uint8Array) => {
  let [n, k] = [0, 0];
  for (let i = 0; i < of.length; i++)
    if (of[i]) {
      n++;
      if (inside[i]) k++;
    }
  return n ? k / n : 0;
};

const paths = (svg: string) => [...svg.matchAll(/<path d="([^"]+)"\/>/g)].map((m) => m[1]!);

for (const slug of ['caveat', 'dancing-script', 'aref-ruqaa']) {
  t.test(`${slug}: centrelines where the outlines' ink is, stroked, no fills`, async (t) => {
    const style = styleOf({ fontId: bundledFontId(slug), fontSize: 28 });
    const fonts = bundledChain(bundledFontSource(slug));
    const list = renderText({ style, text: TEXT, fonts, limits: { centrelines: true } });
    const page = list.pages[0]!;
    const strokes = writeStrokes(list, page, { color: style.color });
    t.match(
      strokes,
      /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="210mm" height="297mm" viewBox="0 0 595\.28 841\.89" data-pen-downs="\d+" data-pen-up-mm="[\d.]+">/,
    );
    t.match(strokes, /<g fill="none" stroke="#1b2a6b" stroke-width="[\d.]+" stroke-linecap="round"/);
    t.notMatch(strokes, /fill="#|<use|<image|<rect|<line/, 'no fills, no paper');
    const ds = paths(strokes);
    t.ok(ds.length > 20, `one path per pen movement (${ds.length})`);
    t.equal(penTravel(strokes)?.penDowns, ds.length, 'the page says how often the pen goes down');
    t.ok(
      ds.every((d) => /^M[\d.]+ [\d.]+(L[\d.]+ [\d.]+)+$/.test(d)),
      'each path is one pen-down movement: a move, then lines',
    );
    const width = Number(/stroke-width="([\d.]+)"/.exec(strokes)![1]);
    t.ok(width > 0.5 && width < 4, `the hand's pen width at 28 pt (${width} pt)`);

    // The same page's outlines: the strokes run inside their ink, and cover most of it.
    const pen = inkOf(strokes);
    const outlines = inkOf(writeSvg(list, page));
    const inside = share(pen.mask, grown(outlines, 1));
    const covered = share(outlines.mask, grown(pen, 1));
    t.ok(inside > 0.95, `the strokes lie on the letters' ink (${(inside * 100).toFixed(1)} %)`);
    t.ok(covered > 0.85, `and cover it (${(covered * 100).toFixed(1)} %)`);

    // Writing order: along each line, each movement starts after the one before, give or take a
    // letter; only a dot or a bar goes back further (in a joined hand, after its word).
    const em = 28;
    const points = ds.map((d) => d.slice(1).split(/[ L]/).map(Number));
    let back = 0;
    for (let i = 1; i < points.length; i++) {
      const [[x0, y0], [x1, y1]] = [points[i - 1]!, points[i]!];
      const xs = points[i]!.filter((_, k) => k % 2 === 0);
      const small = Math.max(...xs) - Math.min(...xs) < 0.5 * em;
      if (Math.abs(y1! - y0!) < em && x1! < x0! - 1.2 * em && !small) back++;
    }
    t.equal(back, 0, 'no stroke but a dot or a bar starts far back along its line');
  });
}

const length = (p: number[]) => {
  let l = 0;
  for (let i = 2; i < p.length; i += 2) l += Math.hypot(p[i]! - p[i - 2]!, p[i + 1]! - p[i - 1]!);
  return l;
};
const xsOf = (p: number[]) => p.filter((_, k) => k % 2 === 0);

for (const slug of ['dancing-script', 'homemade-apple']) {
  t.test(`${slug}: a joined word is one pen-down, its dots after it nearest first`, async (t) => {
    const style = styleOf({ fontId: bundledFontId(slug), fontSize: 28 });
    const fonts = bundledChain(bundledFontSource(slug));
    const list = renderText({ style, text: 'minimum summer', fonts, limits: { centrelines: true } });
    const page = list.pages[0]!;
    const svg = writeStrokes(list, page, { color: style.color });
    const points = paths(svg).map((d) => d.slice(1).split(/[ L]/).map(Number));
    const glyphs = page.items.filter((it) => it.kind === 'glyph');
    // "minimum": its seven letters, from where the first is placed to where the last is.
    const [first, last] = [glyphs[0]!.m[4], glyphs[6]!.m[4]];
    const word = xsOf(points[0]!);
    t.ok(
      Math.min(...word) < first + 5 && Math.max(...word) > last + 5,
      `the first pen-down writes all of "minimum" (x ${Math.min(...word).toFixed(0)}-${Math.max(...word).toFixed(0)}, its letters placed from ${first.toFixed(0)} to ${last.toFixed(0)})`,
    );
    const dots = points.slice(1, 3);
    t.ok(
      dots.every((p) => length(p) < 0.15 * 28),
      'then its two i dots, each a pen-down of its own',
    );
    t.ok(
      xsOf(dots[0]!)[0]! > xsOf(dots[1]!)[0]!,
      "the nearer dot first: the pen goes back from the word's end",
    );
    t.ok(points.length <= 5, `the two words in ${points.length} pen-downs (the dots among them)`);
    t.equal(penTravel(svg)?.penDowns, points.length);
  });
}

/**
 * Pairs of neighbouring letters in a word (as `pair` picks them) whose lines come within `within`
 * pen widths of each other on the page, and how many of them one path draws: each pair's index
 * (its second letter's, counted over the pages) where none does.
 */
function touchingPairs(
  list: ReturnType<typeof renderText>,
  color: string,
  within: number,
  pair: (before: Glyph, it: Glyph) => boolean,
): { touching: number; one: number; apart: number[] } {
  let [touching, one] = [0, 0];
  const apart: number[] = [];
  let at = 0; // the letters before this page
  for (const page of list.pages) {
    const glyphs = page.items.filter((it) => it.kind === 'glyph');
    const svg = writeStrokes(list, page, { color });
    const pen = Number(/stroke-width="([\d.]+)"/.exec(svg)![1]);
    const drawn = paths(svg).map((d) => d.slice(1).split(/[ L]/).map(Number));
    // A letter's points on the page: its centrelines placed as it was.
    const pointsOf = (it: Glyph) =>
      list.glyphs[it.ref]!.strokes!.flatMap((s) => {
        const out: [number, number][] = [];
        for (let k = 0; k < s.points.length; k += 2) {
          const [x, y] = [s.points[k]!, s.points[k + 1]!];
          out.push([it.m[0] * x + it.m[2] * y + it.m[4], it.m[1] * x + it.m[3] * y + it.m[5]]);
        }
        return out;
      });
    const on = (path: number[], pts: [number, number][]) =>
      pts.some(([x, y]) => {
        for (let k = 0; k < path.length; k += 2)
          if (Math.abs(path[k]! - x) < 0.05 && Math.abs(path[k + 1]! - y) < 0.05) return true;
        return false;
      });
    glyphs.forEach((it, g) => {
      if (g === 0 || !pair(glyphs[g - 1]!, it)) return;
      const [before, after] = [pointsOf(glyphs[g - 1]!), pointsOf(it)];
      const gap = Math.min(
        ...before.map(([x, y]) => Math.min(...after.map(([u, v]) => Math.hypot(u - x, v - y)))),
      );
      if (gap > within * pen) return;
      touching++;
      if (drawn.some((p) => on(p, before) && on(p, after))) one++;
      else apart.push(at + g);
    });
    at += glyphs.length;
  }
  return { touching, one, apart };
}

type Glyph = Extract<ReturnType<typeof renderText>['pages'][number]['items'][number], { kind: 'glyph' }>;

t.test(
  'every pair of letters a joined hand writes touching is one pen-down, whatever the tracing found of their ways in and out',
  async (t) => {
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const words = [...letters].flatMap((a) => [...letters].map((b) => a + b));
    for (const slug of ['dancing-script', 'homemade-apple']) {
      const style = styleOf({ fontId: bundledFontId(slug), fontSize: 28 });
      const fonts = bundledChain(bundledFontSource(slug));
      const list = renderText({ style, text: words.join(' '), fonts, limits: { centrelines: true } });
      // Written touching: the two letters' lines come within two pen widths of each other.
      const { touching, one, apart } = touchingPairs(list, style.color, 2, (_, it) => it.joins === true);
      t.ok(touching >= 600, `${slug}: ${touching} of the ${words.length} two-letter words written touching`);
      t.equal(
        one,
        touching,
        `${slug}: each in one pen-down${apart.length ? ` (not: ${apart.map((g) => words[g >> 1]).join(' ')})` : ''}`,
      );
    }
  },
);

t.test('Arabic in Aref Ruqaa: the letters of a word whose lines meet are one pen-down', async (t) => {
  const style = styleOf({ fontId: bundledFontId('aref-ruqaa'), fontSize: 28 });
  const fonts = bundledChain(bundledFontSource('aref-ruqaa'));
  const text = 'نص حكيم له سر قاطع وذو شأن عظيم مكتوب على ثوب أخضر ومغلف بجلد أزرق';
  const list = renderText({ style, text, fonts, limits: { centrelines: true } });
  const page = list.pages[0]!;
  t.notOk(
    page.items.some((it) => it.kind === 'glyph' && it.joins),
    'the hand joins no Latin letters: no letter is marked joined',
  );
  const { touching, one } = touchingPairs(list, style.color, 0.9, (before, it) => before.word === it.word);
  t.ok(touching >= 12, `${touching} pairs of letters meet`);
  t.equal(one, touching, 'each pair in one pen-down');
  const downs = penTravel(writeStrokes(list, page, { color: style.color }))!.penDowns;
  const letters = page.items.filter((it) => it.kind === 'glyph').length;
  t.ok(downs < letters, `${downs} pen-downs for ${letters} letters`);
});

t.test('a walk entered and left where the letters around it join it', async (t) => {
  const stroke = (points: number[]) => ({
    points,
    widths: points.filter((_, k) => k % 2 === 0).map(() => 50),
    closed: false,
    entry: false,
    exit: false,
  });
  // An o as one closed ring traced from its top, and a stem: entered from the left at mid-height,
  // left at the stem's foot.
  const o = [stroke([300, 500, 0, 250, 300, 0, 600, 250, 300, 500]), stroke([600, 250, 600, 0])];
  const [w] = penWalks(o, [-40, 250], [640, 0]);
  t.ok(
    Math.hypot(w!.points[0]!, w!.points[1]! - 250) <= 25,
    "in at the ring, where the pen comes from (to half the pen's width)",
  );
  t.same(w!.points.slice(-2), [600, 0], "out at the stem's foot, where the next letter begins");
  t.ok(w!.entry && w!.exit);
  const [plain] = penWalks(o);
  t.ok(
    Math.hypot(plain!.points[0]! - 600, plain!.points[1]! - 250) < 1,
    'without them, in where three lines meet (an odd number)',
  );
});

t.test('no path shorter than the pen is wide, and the page says its pen-up way', async (t) => {
  for (const slug of ['caveat', 'dancing-script', 'homemade-apple']) {
    const style = styleOf({ fontId: bundledFontId(slug), fontSize: 28 });
    const fonts = bundledChain(bundledFontSource(slug));
    const list = renderText({ style, text: TEXT, fonts, limits: { centrelines: true } });
    const svg = writeStrokes(list, list.pages[0]!, { color: style.color });
    const width = Number(/stroke-width="([\d.]+)"/.exec(svg)![1]);
    const points = paths(svg).map((d) => d.slice(1).split(/[ L]/).map(Number));
    const shortest = Math.min(...points.map(length));
    t.ok(
      shortest >= width - 0.02,
      `${slug}: the shortest path ${shortest.toFixed(2)} pt, the pen ${width} pt`,
    );
    // The pen-up way the page reports: from the end of each path to the start of the next.
    const reported = penTravel(svg)!.penUpMm;
    const way = points.slice(1).reduce((sum, p, i) => {
      const before = points[i]!;
      return sum + Math.hypot(p[0]! - before.at(-2)!, p[1]! - before.at(-1)!);
    }, 0);
    t.ok(
      Math.abs((way * 25.4) / 72 - reported) < 0.05,
      `${slug}: the page says its pen-up way (${reported} mm)`,
    );
  }
});

t.test(
  'a drawing walked: what touches is one pen-down, a dot apart its own, an m one line with its retraces',
  async (t) => {
    const stroke = (points: number[], o: { entry?: boolean; exit?: boolean } = {}) => ({
      points,
      widths: points.filter((_, k) => k % 2 === 0).map(() => 50),
      closed: false,
      entry: o.entry ?? false,
      exit: o.exit ?? false,
    });
    // An i: its stem, and its dot as the tracing may give it, one point.
    const i = penWalks([stroke([0, 0, 0, 500]), stroke([0, 800])]);
    t.equal(i.length, 2, 'the stem and the dot: two pen-downs');
    t.same(i[1]!.points, [0, 800, 0, 800], 'the dot kept, as a stroke from its point to itself');
    // An m as a tracing gives it: three stems met along their length by one stroke over their tops,
    // entered at the first stem's foot and left at the last's.
    const m = penWalks([
      stroke([0, 0, 0, 500], { entry: true }),
      stroke([0, 480, 400, 480, 800, 480]),
      stroke([400, 480, 400, 0]),
      stroke([800, 480, 800, 0, 900, 0], { exit: true }),
    ]);
    t.equal(m.length, 1, 'one pen-down');
    t.same(m[0]!.points.slice(0, 2), [0, 0], 'from where it is entered');
    t.same(m[0]!.points.slice(-2), [900, 0], 'to where it is left');
    t.ok(m[0]!.entry && m[0]!.exit);
    const length = m[0]!.points.reduce(
      (sum, _, k, p) =>
        k >= 2 && k % 2 === 0 ? sum + Math.hypot(p[k]! - p[k - 2]!, p[k + 1]! - p[k - 1]!) : sum,
      0,
    );
    t.ok(
      length >= 500 + 800 + 480 + 580 + 480,
      `every line walked, the middle stem twice (${length.toFixed(0)} units)`,
    );
  },
);

t.test('without centrelines asked for, the layout keeps none and the writer says so', async (t) => {
  const style = styleOf({ fontSize: 28 });
  const list = renderText({ style, text: 'Hello', fonts: bundledChain(bundledFontSource('caveat')) });
  t.ok(Object.values(list.glyphs).every((g) => g.strokes === undefined));
  t.throws(() => writeStrokes(list, list.pages[0]!, { color: '#000000' }), /without its centrelines/);
});
