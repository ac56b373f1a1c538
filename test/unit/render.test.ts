// The render engine as a library: determinism, every effect's off switch, fallback, bidi and
// complex scripts, page geometry, ruled paper and writers (its purity: render-purity.test.ts; its
// PDFs as qpdf and poppler read them: test/e2e/pdf-readers.test.ts).
import t from 'tap';
import { bundledChain, bundledFontSource } from '../helpers/fonts.ts';
import { letterBoxes } from '../helpers/ink.ts';
import { EFFECTS_OFF, styleOf } from '../helpers/specs.ts';
import { type DisplayList, type Item, MM } from '../../src/render/display-list.ts';
import { hexRgb, letterInk } from '../../src/render/color.ts';
import { renderText } from '../../src/render/page/document.ts';
import { deflateSync } from 'node:zlib';
import { MODIFIER_LIMITS, PdfDocument, pageSizePt, writePdf, writePng } from '../../src/render/index.ts';
import { resvgRasterizer as raster } from '../../workers/resvg.ts';
import { pageToSvg } from '../../src/render/write/svg.ts';
import type { RenderError } from '../../src/render/text/text-layout.ts';
import { bundledFontId } from '../../src/domain/fonts.ts';

const style = styleOf;
const fonts = bundledChain(bundledFontSource('caveat'));
const LETTER =
  'Dear friend, thank you for the lovely afternoon. The garden looked wonderful and the roses by the gate were in full bloom.';
const OFF = EFFECTS_OFF;

t.test('same seed and input give identical output; another seed does not', async (t) => {
  const a = renderText({ style: style(), text: LETTER, fonts });
  const b = renderText({ style: style(), text: LETTER, fonts });
  t.equal(pageToSvg(a, a.pages[0]!), pageToSvg(b, b.pages[0]!));
  const c = renderText({ style: style({ modifiers: { seed: 2 } }), text: LETTER, fonts });
  t.not(pageToSvg(c, c.pages[0]!), pageToSvg(a, a.pages[0]!));
});

t.test('no two instances of a letter on a page are the same; all effects off makes them plain', async (t) => {
  const list = renderText({ style: style(), text: LETTER, fonts });
  const seen = new Set<string>();
  const glyphs = list.pages[0]!.items.filter((i) => i.kind === 'glyph');
  for (const g of glyphs)
    seen.add(
      `${g.ref}|${g.m
        .slice(0, 4)
        .map((v) => v.toFixed(5))
        .join(',')}`,
    );
  t.equal(seen.size, glyphs.length, 'every instance differs in outline variant or transform');
  t.ok(
    Object.values(list.glyphs).some((d) => d.variant > 0),
    'drawings of the shapes modifier are used',
  );

  const plain = renderText({ style: style({ modifiers: OFF }), text: LETTER, fonts });
  const items = plain.pages[0]!.items.filter((i) => i.kind === 'glyph');
  t.ok(
    items.every((g) => g.m[1] === 0 && g.m[2] === 0),
    'no rotation',
  );
  t.ok(
    items.every((g) => g.opacity === 1 && g.color === '#1b2a6b'),
    'no ink variation',
  );
  t.ok(
    Object.values(plain.glyphs).every((d) => d.variant === 0),
    'every letter the font’s own outline',
  );
  const scales = new Set(items.map((g) => g.m[0].toFixed(6)));
  t.equal(scales.size, 1, 'one size');
});

t.test(
  'every letter drawn afresh: a common letter shows 16 drawings or more on a page, none twice in a line',
  async (t) => {
    const text = Array.from(
      { length: 30 },
      () => 'the rain here never seems to end, see the trees bend',
    ).join(' ');
    // Lines flat and letters on the baseline, so that a glyph's line is its baseline.
    const flat = { lines: { enabled: false }, letters: { baseline: 0 } };
    const list = renderText({ style: style({ modifiers: flat }), text, fonts });
    const page = list.pages[0]!;
    const { loadFont, shape } = await import('../../src/render/text/fonts.ts');
    const font = loadFont(fonts[0]!);
    const usual = shape(font, 'e', false)[0]!.gid;
    const e = [usual, ...font.alternates('e'.codePointAt(0)!, usual).map((a) => a.gid)];
    const items = page.items.filter((i) => i.kind === 'glyph');
    const drawingsOfE = new Set(
      items
        .filter((i) => list.glyphs[i.ref]!.font === font.id && e.includes(list.glyphs[i.ref]!.gid))
        .map((i) => i.ref),
    );
    t.ok(drawingsOfE.size >= 16, `e: ${drawingsOfE.size} drawings on the first page`);
    const lines = new Map<string, string[]>();
    for (const i of items) {
      const y = i.m[5].toFixed(2);
      lines.set(y, [...(lines.get(y) ?? []), i.ref]);
    }
    t.ok(lines.size >= 10, `${lines.size} lines`);
    const repeats = [...lines.entries()]
      .map(([y, refs]) => [y, refs.filter((r, k) => refs.indexOf(r) !== k)] as const)
      .filter(([, twice]) => twice.length);
    t.same(repeats, [], 'no drawing twice within a line');
  },
);

t.test(
  'shapes: its own range and off switch; a template of before, with letters.warp, keeps what it asked',
  async (t) => {
    const drawings = (modifiers: Record<string, unknown>) => {
      const list = renderText({ style: style({ modifiers }), text: LETTER, fonts });
      return new Set(Object.values(list.glyphs).map((d) => d.path)).size;
    };
    const plain = drawings({ shapes: { enabled: false } });
    t.ok(drawings({}) > plain * 1.5, `default: ${drawings({})} drawings against ${plain} with shapes off`);
    t.equal(drawings({ shapes: { amount: 0 } }), plain, 'amount 0 is off');
    t.equal(drawings({ letters: { warp: 0 } }), plain, 'letters.warp 0 of an older template: off');
    t.ok(drawings({ letters: { warp: 0.5 } }) > plain * 1.5, 'letters.warp 0.5 of an older template: on');
    t.throws(
      () => style({ modifiers: { shapes: { amount: 1.5 } } }),
      /style\.modifiers\.shapes\.amount: .*must be 0-0\.75, got 1\.5/,
    );
  },
);

t.test(
  'shapes: separate strokes move a little against each other, as a pen lifts; a counter moves with its bowl',
  async (t) => {
    const { drawingPath } = await import('../../src/render/hand/variants.ts');
    const { loadFont, shape } = await import('../../src/render/text/fonts.ts');
    const font = loadFont(fonts[0]!);
    const gidOf = (ch: string) => shape(font, ch, false)[0]!.gid;
    // Shapes at full amount, seed 7, no ink effects: only the drawing's deformation.
    const shaped = (drawing: number, key: string) => ({
      drawing,
      shapes: 1,
      pressure: 0,
      blots: 0,
      seed: 7,
      key,
    });
    const contours = (d: string) =>
      d
        .split('M')
        .filter(Boolean)
        .map((c) => {
          const n = c.match(/-?\d+/g)!.map(Number);
          const xs = n.filter((_, k) => k % 2 === 0);
          const ys = n.filter((_, k) => k % 2 === 1);
          return [Math.min(...xs), Math.min(...ys)];
        });
    const i = gidOf('i');
    const key = `${font.id}:${i}`;
    const gaps = [1, 2, 3, 4].map((k) => {
      const [stem, dot] = contours(drawingPath(font.outline(i), font.upem, shaped(k, key))).sort(
        (a, b) => a[1]! - b[1]!,
      );
      return [dot![0]! - stem![0]!, dot![1]! - stem![1]!].join(',');
    });
    t.equal(
      new Set(gaps).size,
      4,
      `the dot of the i sits differently over its stem in each drawing (${gaps.join(' / ')})`,
    );
    const o = gidOf('o');
    const ring = contours(drawingPath(font.outline(o), font.upem, shaped(1, `${font.id}:${o}`)));
    const bare = contours(drawingPath(font.outline(o), font.upem, shaped(0, `${font.id}:${o}`)));
    t.equal(ring.length, 2, 'the o has its bowl and its counter');
    const moved = ring.map((p, k) => [p[0]! - bare[k]![0]!, p[1]! - bare[k]![1]!]);
    t.ok(
      Math.abs(moved[0]![0]! - moved[1]![0]!) < font.upem * 0.06,
      `the counter stays inside its bowl (${JSON.stringify(moved)})`,
    );
  },
);

t.test(
  'a writer who tires: page 20 is a little bigger, leans more and looser, has wider gaps and a creeping margin',
  async (t) => {
    const words = 'the rain falls softly on the quiet hills while the river runs down to the sea'.split(' ');
    const text = Array.from({ length: 9000 }, (_, i) => words[(i * 7) % words.length]).join(' ');
    const list = renderText({ style: style(), text, fonts });
    t.ok(list.pages.length >= 20, `${list.pages.length} pages`);
    const measure = (page: (typeof list.pages)[number]) => {
      const glyphs = page.items.filter((i) => i.kind === 'glyph');
      const scale = glyphs.map((g) => Math.hypot(g.m[0], g.m[1]));
      const lean = glyphs.map((g) => (g.m[2] * g.m[0] + g.m[3] * g.m[1]) / (g.m[0] ** 2 + g.m[1] ** 2));
      // Word gaps: a line's glyphs in writing order; its n - 1 widest steps are its n words' gaps.
      const gaps: number[] = [];
      const inside: number[] = [];
      let k = 0;
      for (const line of page.lines) {
        const words = line.text.split(' ').filter(Boolean);
        const count = glyphs
          .slice(k)
          .findIndex((g, i, all) => i > 0 && Math.abs(g.m[5] - all[i - 1]!.m[5]) > line.size);
        const row = glyphs.slice(k, count < 0 ? undefined : k + count);
        k += row.length;
        const steps = row.slice(1).map((g, i) => g.m[4] - row[i]!.m[4]);
        const sorted = steps.sort((x, y) => y - x);
        gaps.push(...sorted.slice(0, words.length - 1));
        inside.push(...sorted.slice(words.length - 1));
      }
      const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
      const spread = Math.sqrt(mean(lean.map((v) => (v - mean(lean)) ** 2)));
      return {
        scale: mean(scale),
        lean: mean(lean),
        spread,
        gap: mean(gaps),
        inside: mean(inside),
        left: mean(page.lines.map((l) => l.x)),
      };
    };
    const first = measure(list.pages[0]!);
    const twentieth = measure(list.pages[19]!);
    const note = JSON.stringify({ first, twentieth });
    t.ok(
      twentieth.scale / first.scale > 1.01 && twentieth.scale / first.scale < 1.04,
      `the writing grows a little (${(twentieth.scale / first.scale).toFixed(3)}; ${note})`,
    );
    t.ok(twentieth.lean - first.lean > 0.03, 'and leans further right');
    t.ok(twentieth.gap / first.gap > 1.04, 'word gaps widen');
    t.ok(
      Math.abs(twentieth.inside / twentieth.scale / (first.inside / first.scale) - 1) < 0.03,
      `letters inside a word keep their spacing, for their size (${(twentieth.inside / twentieth.scale / (first.inside / first.scale)).toFixed(3)} of page 1's)`,
    );
    t.ok(twentieth.left - first.left > 1.5 * (72 / 25.4), 'the left margin creeps right');
    t.ok(
      twentieth.spread - first.spread > 0.01,
      `the letters loosen: each slants differently (${first.spread.toFixed(3)} against ${twentieth.spread.toFixed(3)})`,
    );
    const rested = renderText({ style: style({ modifiers: { fatigue: { enabled: false } } }), text, fonts });
    const calm = [measure(rested.pages[0]!), measure(rested.pages[19]!)];
    t.ok(
      Math.abs(calm[1]!.scale / calm[0]!.scale - 1) < 0.01 && Math.abs(calm[1]!.lean - calm[0]!.lean) < 0.01,
      'without fatigue, page 20 is written as page 1',
    );
  },
);

t.test(
  'a tired hand opens no gap inside a word: a letter it writes narrower draws the next one closer',
  async (t) => {
    const text =
      'Thank you so much for the lovely afternoon tea last Sunday. The garden looked wonderful. '.repeat(500);
    const list = renderText({ style: style({ modifiers: { fatigue: { amount: 1 } } }), text, fonts });
    t.ok(list.pages.length >= 20, `${list.pages.length} pages`);
    // The clear space between the ink of two neighbouring letters of a word, over a page (each
    // letter's drawing's box as written; its path is relative, so its numbers are not points).
    const insideGaps = (page: (typeof list.pages)[number]) => {
      const glyphs = page.items.flatMap((i) => (i.kind === 'glyph' ? [i] : []));
      const boxes = letterBoxes(list, page);
      const gaps: number[] = [];
      for (let i = 1; i < glyphs.length; i++)
        if (glyphs[i]!.word === glyphs[i - 1]!.word && boxes[i]!.line === boxes[i - 1]!.line)
          gaps.push(boxes[i]!.left - boxes[i - 1]!.right);
      gaps.sort((a, b) => a - b);
      return { p99: gaps[Math.floor(0.99 * (gaps.length - 1))]!, widest: gaps.at(-1)! };
    };
    const [first, twentieth] = [insideGaps(list.pages[0]!), insideGaps(list.pages[19]!)];
    t.ok(
      twentieth.p99 <= first.p99 * 1.25 && twentieth.widest <= first.widest * 1.2,
      `fatigue 1: the gaps inside words, 99th percentile and widest, ${first.p99.toFixed(2)} and ${first.widest.toFixed(2)} pt on page 1, ${twentieth.p99.toFixed(2)} and ${twentieth.widest.toFixed(2)} pt on page 20`,
    );
  },
);

t.test('the left margin wanders slowly from line to line, not ruler-straight nor jumping', async (t) => {
  const text = Array.from({ length: 60 }, () => 'slowly the evening light fell across the garden wall').join(
    ' ',
  );
  const mm = 72 / 25.4;
  for (const seed of [1, 2, 3]) {
    const list = renderText({ style: style({ modifiers: { seed } }), text, fonts });
    const lefts = list.pages[0]!.lines.map((l) => l.x / mm);
    const spread = Math.max(...lefts) - Math.min(...lefts);
    const step = (k: number) =>
      lefts.slice(k).reduce((a, x, i) => a + Math.abs(x - lefts[i]!), 0) / (lefts.length - k);
    t.ok(
      spread >= 1,
      `seed ${seed}: the margin wanders over ${spread.toFixed(2)} mm of ${lefts.length} lines`,
    );
    t.ok(
      step(1) < 0.6 * step(4),
      `seed ${seed}: one line to the next ${step(1).toFixed(2)} mm, four lines on ${step(4).toFixed(2)} mm`,
    );
  }
});

t.test(
  'variation that flows: neighbours move together; each seed has its own slant; spacing never merges or splits words',
  async (t) => {
    const text = Array.from(
      { length: 40 },
      () => 'slowly the evening light fell across the garden wall',
    ).join(' ');
    const flat = { lines: { enabled: false }, words: { enabled: false }, fatigue: { enabled: false } };
    const list = renderText({
      style: style({ modifiers: { ...flat, letters: { baseline: MODIFIER_LIMITS.letters.baseline } } }),
      text,
      fonts,
    });
    const glyphs = list.pages[0]!.items.filter((i) => i.kind === 'glyph');
    // Baseline offsets: line by line (a line's glyphs share its baseline within 3 x the jitter).
    const rows: number[][] = [];
    for (const line of list.pages[0]!.lines) {
      rows.push(glyphs.filter((g) => Math.abs(g.m[5] - line.y) < 10).map((g) => g.m[5] - line.y));
    }
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    const neighbours = mean(rows.flatMap((r) => r.slice(1).map((v, i) => Math.abs(v - r[i]!))));
    const apart = mean(rows.flatMap((r) => r.slice(10).map((v, i) => Math.abs(v - r[i]!))));
    t.ok(
      rows.length >= 10 && neighbours < apart * 0.6,
      `baseline flows: neighbours ${neighbours.toFixed(2)} pt apart, letters ten apart ${apart.toFixed(2)} pt`,
    );

    const slant = (seed: number) => {
      const l = renderText({
        style: style({ modifiers: { seed, fatigue: { enabled: false } } }),
        text,
        fonts,
      });
      const gs = l.pages[0]!.items.filter((i) => i.kind === 'glyph');
      return mean(gs.map((g) => (g.m[2] * g.m[0] + g.m[3] * g.m[1]) / (g.m[0] ** 2 + g.m[1] ** 2)));
    };
    const slants = [1, 2, 3, 4, 5].map(slant);
    t.ok(
      Math.max(...slants) - Math.min(...slants) > 0.02,
      `each seed its own slant (${slants.map((v) => v.toFixed(3)).join(', ')})`,
    );

    // One letter over and over: inside a word the clear space from one letter's ink to the next
    // is the font's and its variation; between words it is also a space. At the top of both
    // spacing ranges the widest inside a word stays narrower than the narrowest between words
    // (each drawing's own width is made room for: the letters after it move with it).
    const same = Array.from({ length: 120 }, () => 'nnnn').join(' ');
    const spaced = renderText({
      style: style({
        modifiers: {
          ...flat,
          letters: { spacing: MODIFIER_LIMITS.letters.spacing },
          words: { spacing: MODIFIER_LIMITS.words.spacing },
        },
      }),
      text: same,
      fonts,
    });
    let inside = 0;
    let between = Infinity;
    for (const page of spaced.pages) {
      const ink = letterBoxes(spaced, page);
      for (let i = 1; i < ink.length; i++) {
        if (ink[i]!.line !== ink[i - 1]!.line) continue;
        const gap = ink[i]!.left - ink[i - 1]!.right;
        if (i % 4 === 0) between = Math.min(between, gap);
        else inside = Math.max(inside, gap);
      }
    }
    t.ok(
      inside < between,
      `widest clear space inside a word ${inside.toFixed(2)} pt, narrowest between words ${between.toFixed(2)} pt`,
    );
  },
);

t.test(
  'the closing lines of a letter never stand alone on its last page, and the page before is written to its last rule',
  async (t) => {
    const perPage = renderText({
      style: style(),
      text: Array.from({ length: 200 }, (_, i) => `Line ${i}`).join('\n'),
      fonts,
    }).pages[0]!.lines.length;
    const words = 'the garden looked wonderful and the roses by the gate were in full bloom'.split(' ');
    const closing = ['With warm wishes,', 'Eleanor'];
    const textOf = (list: DisplayList) =>
      list.pages
        .flatMap((p) => p.lines.map((l) => l.text.trim()))
        .filter(Boolean)
        .join(' ');
    let mended = 0;
    for (let n = 6 * perPage; n < 16 * perPage; n += 5) {
      // Four paragraphs of a letter's body, then its closing lines.
      const body = Array.from({ length: 4 }, (_, p) =>
        Array.from({ length: Math.floor(n / 4) + p * 3 }, (_, i) => words[(i + p) % words.length]).join(' '),
      );
      const plain = renderText({ style: style(), text: body.join('\n'), fonts });
      const bodyLines = plain.pages.reduce((sum, p) => sum + p.lines.length, 0);
      // Without mending, the closing lines would stand alone on a page of their own.
      const alone = bodyLines % perPage === 0 || bodyLines % perPage === perPage - 1;
      const list = renderText({ style: style(), text: [...body, ...closing].join('\n'), fonts });
      const last = list.pages.at(-1)!.lines.map((l) => l.text);
      t.same(last.slice(-2), closing, `${n} words: the closing lines end the letter`);
      if (list.pages.length > 1)
        t.ok(last.length >= 3, `${n} words: the last page carries ${last.length} lines`);
      t.ok(
        list.pages.slice(0, -1).every((p) => p.lines.length === perPage),
        `${n} words: every page before the last is written to its last rule (${list.pages.map((p) => p.lines.length).join(', ')})`,
      );
      t.equal(textOf(list), [...body, ...closing].join(' '), `${n} words: every word written once, in order`);
      if (alone) mended++;
    }
    t.ok(mended >= 3, `${mended} of these letters would have left their closing lines alone`);
    // A body no measure moves (lines too short to wrap) is left as it falls: page 1 full, and the
    // closing lines on the next, as a writer turns the page for a signature.
    const short = Array.from({ length: perPage - 1 }, (_, i) => `Line ${i} of the letter`);
    const list = renderText({ style: style(), text: [...short, ...closing].join('\n'), fonts });
    t.same(
      list.pages.map((p) => p.lines.length),
      [perPage, 1],
      'short lines: page 1 full, the signature on page 2',
    );
    // A last page that carries on the body of the text is left as it falls: a writer turns the
    // page and goes on, page 1 full.
    for (let n = 8 * perPage; ; n += 3) {
      const list = renderText({
        style: style(),
        text: Array.from({ length: n }, (_, i) => words[i % words.length]).join(' '),
        fonts,
      });
      if (list.pages.length < 2) continue;
      t.equal(list.pages[0]!.lines.length, perPage, 'a paragraph running over: page 1 full');
      t.ok(list.pages[1]!.lines.length < 3, `page 2 as it falls (${list.pages[1]!.lines.length} lines)`);
      break;
    }
  },
);

t.test('paper grain: fibres lying every which way on a tile too large to see repeat', async (t) => {
  const { GRAIN_PX, grainAlpha } = await import('../../src/render/write/grain.ts');
  const tile = grainAlpha(5, 1);
  t.ok(GRAIN_PX >= 192, `a tile of ${GRAIN_PX} px (34 mm at 144 DPI)`);
  const on = (x: number, y: number) =>
    tile[((y + GRAIN_PX) % GRAIN_PX) * GRAIN_PX + ((x + GRAIN_PX) % GRAIN_PX)]! > 0;
  const pairs = { across: 0, down: 0, diagonal: 0 };
  for (let y = 0; y < GRAIN_PX; y++)
    for (let x = 0; x < GRAIN_PX; x++) {
      if (!on(x, y)) continue;
      if (on(x + 1, y)) pairs.across++;
      if (on(x, y + 1)) pairs.down++;
      if (on(x + 1, y + 1) || on(x - 1, y + 1)) pairs.diagonal++;
    }
  const total = pairs.across + pairs.down + pairs.diagonal;
  t.ok(
    Object.values(pairs).every((n) => n > total * 0.2),
    `no direction dominates (${JSON.stringify(pairs)})`,
  );
  const covered = tile.filter((a) => a > 0).length / tile.length;
  t.ok(covered > 0.05 && covered < 0.15, `fibres cover ${(covered * 100).toFixed(1)} % of the sheet`);
  // Even density: no cluster of fibres to mark where the tile repeats.
  const blocks: number[] = [];
  for (let by = 0; by < GRAIN_PX; by += 32)
    for (let bx = 0; bx < GRAIN_PX; bx += 32) {
      let n = 0;
      for (let y = by; y < by + 32; y++) for (let x = bx; x < bx + 32; x++) if (on(x, y)) n++;
      blocks.push(n / 1024);
    }
  t.ok(
    blocks.every((b) => Math.abs(b - covered) < covered * 0.5),
    `every 32 px block within half of the mean (${Math.min(...blocks).toFixed(3)}-${Math.max(...blocks).toFixed(3)})`,
  );
});

t.test("paper grain: a sheet's tiles, chosen by its seed from a family drawn once", async (t) => {
  const { GRAIN_FAMILY, GRAIN_TILES, grainAlpha, grainTiles } = await import(
    '../../src/render/write/grain.ts'
  );
  const sets = new Set<string>();
  const used = new Set<number>();
  const wrong: string[] = [];
  for (let seed = 1; seed <= 300; seed++) {
    const tiles = grainTiles(seed);
    if (
      new Set(tiles).size !== GRAIN_TILES ||
      tiles.some((k) => !Number.isInteger(k) || k < 0 || k >= GRAIN_FAMILY)
    )
      wrong.push(`seed ${seed}: ${tiles}`);
    for (const k of tiles) used.add(k);
    sets.add([...tiles].sort((a, b) => a - b).join());
  }
  t.same(wrong, [], `each of 300 seeds lays ${GRAIN_TILES} different tiles of the ${GRAIN_FAMILY}`);
  t.equal(used.size, GRAIN_FAMILY, 'every tile of the family is laid by some sheet');
  t.ok(sets.size > 200, `300 seeds lay ${sets.size} different sets of tiles`);
  t.same(grainTiles(7), grainTiles(7), 'the same seed, the same tiles');
  // Two sheets laying the same family tile show the same image of it (one drawing a thread),
  // and a tile is not the same as another.
  const sheet = (seed: number) => {
    const list = renderText({
      style: style({ modifiers: { seed, paper: { texture: 0.5 } } }),
      text: '',
      fonts,
    });
    const page = list.pages[0]!;
    const svg = pageToSvg(list, page);
    const image = (k: number) => new RegExp(`<image id="grain${k}"[^>]* href="([^"]+)"`).exec(svg)?.[1];
    return { tiles: grainTiles(page.sheet.seed), image };
  };
  const one = sheet(1);
  const a = one.tiles;
  const other = [2, 3, 4, 5, 6, 7, 8, 9].map(sheet).find((o) => o.tiles.includes(a[0]!))!;
  t.ok(other, `another sheet also lays tile ${a[0]}`);
  t.ok(one.image(0)?.startsWith('data:image/png;base64,'), 'the tile is an image in the SVG');
  t.equal(other.image(other.tiles.indexOf(a[0]!)), one.image(0), 'one drawing of a shared tile');
  t.equal(grainAlpha(a[0]!, 1), grainAlpha(a[0]!, 1), 'drawn once a thread');
  t.not(Buffer.compare(grainAlpha(a[0]!, 1), grainAlpha(a[1]!, 1)), 0, "a sheet's tiles differ");
});

t.test('paper grain: no repeat across a page', async (t) => {
  const { GRAIN_PX, blendGrain } = await import('../../src/render/write/grain.ts');
  // An A4 sheet at 144 DPI (2 px to the pt), white, with the grain blended in.
  const [w, h] = [1190, 1684];
  const rgba = new Uint8Array(w * h * 4).fill(255);
  blendGrain(rgba, w, h, 2, 9, 1);
  const ink = (x: number, y: number) => 255 - rgba[(y * w + x) * 4]!;
  /** How alike the grain is to itself `dx` pixels along (Pearson correlation). */
  const alike = (dx: number) => {
    let [sa, sb, sab, saa, sbb, n] = [0, 0, 0, 0, 0, 0];
    for (let y = 0; y < h; y += 2)
      for (let x = 0; x + dx < w; x++) {
        const [a, b] = [ink(x, y), ink(x + dx, y)];
        [sa, sb, sab, saa, sbb, n] = [sa + a, sb + b, sab + a * b, saa + a * a, sbb + b * b, n + 1];
      }
    return (sab / n - (sa / n) * (sb / n)) / Math.sqrt((saa / n - (sa / n) ** 2) * (sbb / n - (sb / n) ** 2));
  };
  const [tile, other] = [alike(GRAIN_PX), alike(101)];
  t.ok(tile < 0.1, `a tile's width along, the grain is not itself again (correlation ${tile.toFixed(3)})`);
  t.ok(
    Math.abs(tile - other) < 0.1,
    `no more alike than any other distance along (${other.toFixed(3)} at 101 px)`,
  );
});

t.test('each effect is switched off by its own setting', async (t) => {
  const on = renderText({ style: style(), text: LETTER, fonts }).pages[0]!;
  for (const [name, off] of Object.entries(OFF)) {
    if (name === 'paper') continue;
    const page = renderText({ style: style({ modifiers: { [name]: off } }), text: LETTER, fonts }).pages[0]!;
    t.not(JSON.stringify(page.items), JSON.stringify(on.items), `${name}: turning it off changes the page`);
  }
  const tilted = renderText({ style: style({ modifiers: { paper: { tilt: 2 } } }), text: LETTER, fonts })
    .pages[0]!;
  t.not(tilted.sheet.tilt, 0, 'paper: a tilt setting tilts the sheet');
  const flat = renderText({
    style: style({ modifiers: { paper: { enabled: false, tilt: 2, shadow: 1, scanner: true } } }),
    text: LETTER,
    fonts,
  });
  t.equal(flat.pages[0]!.sheet.tilt, 0, 'paper: and its off switch straightens it');
  const flatSvg = pageToSvg(flat, flat.pages[0]!);
  for (const id of ['grain0', 'shadow', 'scan'])
    t.notOk(flatSvg.includes(`id="${id}"`), `paper off: no ${id}`);
  const dressed = renderText({
    style: style({ modifiers: { paper: { texture: 0.5, shadow: 0.5, scanner: true } } }),
    text: LETTER,
    fonts,
  });
  const dressedSvg = pageToSvg(dressed, dressed.pages[0]!);
  for (const id of ['grain0', 'shadow', 'scan'])
    t.ok(dressedSvg.includes(`id="${id}"`), `paper: ${id} drawn`);
  t.equal(pageToSvg(dressed, dressed.pages[0]!), dressedSvg, 'the grain is the same for the same seed');
});

t.test(
  "OpenType alternates: a letter takes the font's other drawings, never the same one twice running",
  async (t) => {
    const { loadFont, shape } = await import('../../src/render/text/fonts.ts');
    const caveat = loadFont(bundledFontSource('caveat'));
    const usual = (ch: string) => shape(caveat, ch, false)[0]!.gid;
    const a = usual('a');
    t.ok(caveat.alternates(0x61, a).length >= 2, 'Caveat has alternates of a');
    t.same(caveat.alternates(0x61, usual('b') + 100_000), [], 'only for a drawing of that letter');
    const text = 'banana anagram aardvark alpaca '.repeat(6);
    const drawingsOfA = (alternates: boolean, shapes = true) => {
      const list = renderText({
        style: style({ modifiers: { letters: { alternates }, shapes: { enabled: shapes } } }),
        text,
        fonts,
      });
      const glyphs = list.pages
        .flatMap((p) => p.items.filter((i) => i.kind === 'glyph'))
        .map((g) => (g as { ref: string }).ref);
      const members = new Set([a, ...caveat.alternates(0x61, a).map((x) => x.gid)]);
      return glyphs
        .filter((ref) => members.has(list.glyphs[ref]!.gid))
        .map((ref) => ({ ref, gid: list.glyphs[ref]!.gid }));
    };
    const on = drawingsOfA(true);
    t.equal(on.length, [...text].filter((c) => c === 'a').length, 'every a is one of its drawings');
    t.equal(new Set(on.map((d) => d.gid)).size, 3, 'all three outlines are used');
    t.ok(
      on.every((d, i) => i === 0 || d.ref !== on[i - 1]!.ref),
      'no two a in a row share a drawing',
    );
    const outlinesOnly = drawingsOfA(true, false);
    t.ok(
      outlinesOnly.every((d, i) => i === 0 || d.gid !== outlinesOnly[i - 1]!.gid),
      'with shapes off, no two a in a row share an outline',
    );
    const off = drawingsOfA(false).map((d) => d.gid);
    const shaped = shape(caveat, text, false)
      .map((g) => g.gid)
      .filter((gid) => on.some((d) => d.gid === gid) || gid === a);
    t.same(off, shaped, "with alternates off, the font's own choice stands");
  },
);

t.test(
  'fallback: a character the font lacks comes from the next hand; none at all is an error',
  async (t) => {
    const list = renderText({ style: style(), text: 'Hello नमस्ते 안녕 مرحبا', fonts });
    const used = new Set(Object.values(list.glyphs).map((g) => g.font));
    for (const slug of ['caveat', 'kalam', 'nanum-pen-script', 'aref-ruqaa'])
      t.ok(used.has(bundledFontId(slug)), `${slug} used`);
    const err = t.throws(() => renderText({ style: style(), text: 'Amharic ሰላም', fonts })) as RenderError;
    t.equal(err.code, 'UNSUPPORTED_CHARACTERS');
    t.match(err.message, /U\+1230 "ሰ"/);
  },
);

t.test(
  "fallback hands: sized to the line's x-height; a font's type-only Latin is left to a hand",
  async (t) => {
    const { loadFont } = await import('../../src/render/text/fonts.ts');
    const { layoutParagraph } = await import('../../src/render/text/text-layout.ts');
    const nanum = bundledChain(bundledFontSource('nanum-pen-script')).map(loadFont);
    const m = {
      size: 20,
      width: 400,
      letterSpacing: 0,
      wordSpacing: 0,
      firstLineIndent: 0,
      align: 'left' as const,
    };
    // Nanum Pen Script has no é, ç or ñ: it composes them from its own e, c and n and its own
    // strokes for the marks, sized and set over (or under) the base.
    const hand = nanum[0]!;
    const glyphs = layoutParagraph('café garçon señor', nanum, m, 0, new Set()).lines[0]!.glyphs();
    t.ok(
      glyphs.every((g) => g.font === hand),
      'é, ç and ñ in the hand itself',
    );
    const plain = layoutParagraph('cafe garcon senor', nanum, m, 0, new Set()).lines[0]!.glyphs();
    // A mark is written where its base is, for the same character.
    const isMark = (g: (typeof glyphs)[number], i: number) =>
      i > 0 && glyphs[i - 1]!.cp === g.cp && glyphs[i - 1]!.x === g.x;
    const marks = glyphs.filter(isMark);
    t.same(
      glyphs.filter((g, i) => !isMark(g, i)).map((g) => g.gid),
      plain.map((g) => g.gid),
      'the bases are the letters of cafe garcon senor',
    );
    t.equal(marks.length, 3, 'one mark each');
    const inkTop = (g: (typeof glyphs)[number]) =>
      g.dy + (g.font.box(g.gid)[3] * g.fit * m.size) / g.font.upem;
    const inkBottom = (g: (typeof glyphs)[number]) =>
      g.dy + (g.font.box(g.gid)[1] * g.fit * m.size) / g.font.upem;
    for (const [k, cp, above] of [
      [0, 0xe9, true],
      [1, 0xe7, false],
      [2, 0xf1, true],
    ] as const) {
      const mark = marks[k]!;
      const base = glyphs[glyphs.indexOf(mark) - 1]!;
      t.equal(mark.cp, cp, `U+${cp.toString(16)}: its mark follows its base`);
      t.equal(mark.x, base.x, 'written where the base is written');
      const [bx0, , bx2] = base.font.box(base.gid);
      const [mx0, , mx2] = mark.font.box(mark.gid);
      const middle = (v0: number, v2: number, fit: number) => (((v0 + v2) / 2) * (fit * m.size)) / hand.upem;
      t.ok(
        Math.abs(mark.dx + middle(mx0, mx2, mark.fit) - (base.dx + middle(bx0, bx2, 1))) < 0.05,
        'centred on the base',
      );
      t.ok(
        above ? inkBottom(mark) > inkTop(base) : inkTop(mark) < inkBottom(base) + 0.1 * m.size,
        above ? 'above the base' : 'under the base',
      );
    }
    // What it cannot compose (an i under a mark, with no dotless i of its own) comes from the next
    // hand, sized to the line's x-height.
    const borrowed = layoutParagraph('naïve', nanum, m, 0, new Set())
      .lines[0]!.glyphs()
      .filter((g) => g.font !== hand);
    t.equal(borrowed.length, 1, 'ï from another hand');
    const xHeight = (f: (typeof nanum)[number]) => f.reach.x! / f.upem;
    for (const g of borrowed)
      t.ok(
        Math.abs(g.fit * xHeight(g.font) - xHeight(hand)) < 0.005,
        `U+${g.cp.toString(16)} written ${g.fit.toFixed(2)}x, at the x-height of the line's hand`,
      );

    const { layout, resourcesOf } = await import('../../src/render/index.ts');
    const { textSpec } = await import('../helpers/specs.ts');
    const { fontBytes } = await import('../../workers/fonts.ts');
    const spec = textSpec({ fontId: bundledFontId('aref-ruqaa') }, 'Hello مرحبا');
    t.same(spec.fonts.typeset, { [bundledFontId('aref-ruqaa')]: ['Latin', 'Latin Extended'] });
    const list = layout(spec, { fonts: fontBytes(resourcesOf(spec).fonts), images: {} });
    const fontsUsed = list.pages[0]!.items.flatMap((i) =>
      i.kind === 'glyph' ? [list.glyphs[i.ref]!.font] : [],
    );
    t.same(
      [...new Set(fontsUsed)].sort(),
      [bundledFontId('aref-ruqaa'), bundledFontId('caveat')].sort(),
      'Aref Ruqaa writes the Arabic, Caveat the Latin',
    );
    t.equal(
      fontsUsed.filter((f) => f === bundledFontId('caveat')).length,
      5,
      'all five Latin letters by hand',
    );
    // Its companion writes the figures, quotes and signs beside the Latin, Aref Ruqaa its own.
    const mixed = textSpec({ fontId: bundledFontId('aref-ruqaa') }, 'مرحبا، "Hi" 12 £5 & €3! ؟');
    const mixedList = layout(mixed, { fonts: fontBytes(resourcesOf(mixed).fonts), images: {} });
    const mixedGlyphs = mixedList.pages[0]!.items.flatMap((i) =>
      i.kind === 'glyph' ? [mixedList.glyphs[i.ref]!] : [],
    );
    t.equal(
      mixedGlyphs.filter((g) => g.font === bundledFontId('caveat')).length,
      [...'"Hi"12£5&€3!'].length,
      'the quotes, letters, figures, £ & € and ! by Caveat; the Arabic, its comma and question mark by Aref Ruqaa',
    );
    const alone = loadFont({ ...bundledFontSource('aref-ruqaa'), typeset: ['Latin'] });
    const own = layoutParagraph('Hello', [alone], m, 0, new Set()).lines[0]!.glyphs();
    t.ok(
      own.length === 5 && own.every((g) => g.font === alone),
      'with no other hand in the chain, its type is still better than nothing',
    );
  },
);

t.test('shaping: Arabic joins, Devanagari reorders, RTL paragraphs run from the right', async (t) => {
  const glyphsOf = (text: string) =>
    renderText({ style: style({ modifiers: OFF }), text, fonts })
      .pages[0]!.items.filter((i) => i.kind === 'glyph')
      .map((g) => (g as { ref: string }).ref);
  const isolated = glyphsOf('ب');
  const joined = glyphsOf('بب');
  t.equal(
    joined.filter((r) => !isolated.includes(r)).length,
    2,
    'both joined behs take forms other than the isolated one (the dots are the same mark)',
  );
  t.ok(glyphsOf('कि').length >= 1, 'i-matra cluster shapes');
  const rtl = renderText({ style: style({ modifiers: OFF }), text: 'مرحبا بالعالم', fonts }).pages[0]!;
  const xs = rtl.items.filter((i) => i.kind === 'glyph').map((g) => (g as { m: number[] }).m[4]!);
  t.ok(Math.max(...xs) > rtl.width / 2, 'right-aligned');
  t.equal(rtl.lines[0]?.text, 'مرحبا بالعالم', 'the searchable text is the logical text');
});

t.test('pages: sizes, orientation, margins, breaking and the page cap', async (t) => {
  t.same(pageSizePt({ pageSize: 'A4', orientation: 'portrait' }), { width: 210 * MM, height: 297 * MM });
  t.same(pageSizePt({ pageSize: 'A5', orientation: 'landscape' }), { width: 210 * MM, height: 148 * MM });
  const custom = pageSizePt({
    pageSize: { name: 'card', width: 400, height: 300, unit: 'px' },
    orientation: 'portrait',
  });
  t.same(
    [Math.round(custom.width), Math.round(custom.height)],
    [300, 225],
    'a custom size as given (px at 96 per inch)',
  );
  const turned = pageSizePt({
    pageSize: { name: 'card', width: 400, height: 300, unit: 'px' },
    orientation: 'landscape',
  });
  t.same([Math.round(turned.width), Math.round(turned.height)], [225, 300], 'and landscape swaps it');
  const long = `${LETTER} `.repeat(60);
  const list = renderText({ style: style({ pageSize: 'A5' }), text: long, fonts });
  t.ok(list.pages.length > 1, `${list.pages.length} pages`);
  const bottom = list.pages[0]!.height - 20 * MM;
  t.ok(
    list.pages.every((p) => p.lines.every((l) => l.y <= bottom + 0.01)),
    'no line below the bottom margin',
  );
  const err = t.throws(() =>
    renderText({ style: style({ pageSize: 'A5' }), text: long, fonts, limits: { maxPages: 2 } }),
  ) as RenderError;
  t.equal(err.code, 'TOO_MANY_PAGES');
});

t.test('lined paper: every baseline sits on a rule', async (t) => {
  const s = style({ paper: { type: 'lined', spacing: 9 }, modifiers: { lines: { enabled: false } } });
  const page = renderText({ style: s, text: `${LETTER}\n\n${LETTER}`, fonts }).pages[0]!;
  const rules = new Set(
    page.items.filter((i) => i.kind === 'rule').map((r) => (r as { y1: number }).y1.toFixed(3)),
  );
  for (const l of page.lines) t.ok(rules.has(l.y.toFixed(3)), `baseline ${l.y.toFixed(1)} on a rule`);
});

t.test('writers: SVG escapes text and defines each outline once; PNG at 144 DPI', async (t) => {
  const list = renderText({ style: style(), text: 'a <b>&"c\' a a', fonts });
  const svg = pageToSvg(list, list.pages[0]!, { textLayer: true });
  t.notOk(svg.includes('<b>'), 'no user markup');
  t.match(svg, /a &#60;b&#62;&#38;&#34;c&#39; a a/);
  const defs = svg.match(/<path id=/g)?.length ?? 0;
  t.equal(
    defs,
    new Set(list.pages[0]!.items.filter((i) => i.kind === 'glyph').map((g) => (g as { ref: string }).ref))
      .size,
    'one <path> per distinct glyph',
  );
  const png = writePng(list, list.pages[0]!, 144, { raster });
  t.same([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], 'a PNG');
  t.equal(Buffer.from(png).readUInt32BE(16), Math.round((210 / 25.4) * 144), 'width at 144 DPI');
});

t.test('SVG: letter rotation and size jitter survive into the markup', async (t) => {
  const list = renderText({ style: style(), text: LETTER, fonts });
  const matrices = [...pageToSvg(list, list.pages[0]!).matchAll(/<use [^>]*matrix\(([^)]*)\)/g)].map((m) =>
    m[1]!.split(' ').map(Number),
  );
  t.ok(matrices.length > 50);
  t.ok(
    matrices.filter((m) => m[1] !== 0).length > matrices.length * 0.9,
    'nearly every letter is turned a little',
  );
  t.ok(new Set(matrices.map((m) => m[0])).size > 10, 'and scaled a little');
});

t.test(
  'PNG: reduced outlines, blended grain and our encoder give what resvg draws from the SVG',
  async (t) => {
    const { deflateSync } = await import('node:zlib');
    const { PNG } = await import('pngjs');
    const { Resvg } = await import('@resvg/resvg-js');
    const size = { name: 'card', width: 400, height: 240, unit: 'px' };
    // 2 x 2 image pixels of difference per channel, counted: how many differ by more than 10 % and 25 %.
    const compare = (a: Uint8Array, b: Uint8Array) => {
      let [over10, over25, sum] = [0, 0, 0];
      for (let i = 0; i < a.length; i += 4) {
        const d = Math.max(
          Math.abs(a[i]! - b[i]!),
          Math.abs(a[i + 1]! - b[i + 1]!),
          Math.abs(a[i + 2]! - b[i + 2]!),
        );
        if (d > 25) over10++;
        if (d > 64) over25++;
        sum += d;
      }
      return { over10: over10 / (a.length / 4), over25: over25 / (a.length / 4), mean: sum / (a.length / 4) };
    };
    for (const texture of [0, 1]) {
      const list = renderText({
        // Ink bleed off: it softens the PNG's pixels on purpose (test/unit/ink.test.ts).
        style: style({ fontSize: 14, pageSize: size, modifiers: { paper: { texture }, ink: { bleed: 0 } } }),
        text: LETTER,
        fonts,
      });
      const page = list.pages[0]!;
      const png = PNG.sync.read(
        Buffer.from(writePng(list, page, 144, { raster, deflate: (b) => deflateSync(b, { level: 1 }) })),
      );
      const svg = new Resvg(pageToSvg(list, page), { fitTo: { mode: 'width', value: png.width } }).render();
      t.same([png.width, png.height], [svg.width, svg.height], `texture ${texture}: same size`);
      const diff = compare(png.data, svg.pixels);
      t.ok(
        diff.over10 < 0.01,
        `texture ${texture}: under 1 % of pixels differ by more than 10 % (${(diff.over10 * 100).toFixed(2)} %)`,
      );
      t.ok(
        diff.over25 < 0.001,
        `texture ${texture}: under 0.1 % differ by more than 25 % (${(diff.over25 * 100).toFixed(3)} %)`,
      );
      t.ok(diff.mean < 1, `texture ${texture}: mean difference under one level (${diff.mean.toFixed(2)})`);
    }
    // The grain is there: a blank sheet with grain is not one colour, and the same seed gives the same grain.
    const blank = (seed: number) => {
      const list = renderText({
        style: style({ pageSize: size, modifiers: { seed, paper: { texture: 1 } } }),
        text: '',
        fonts,
      });
      return PNG.sync.read(Buffer.from(writePng(list, list.pages[0]!, 144, { raster }))).data;
    };
    t.ok(new Set(blank(1)).size > 20, 'grain varies the paper');
    t.ok(Buffer.compare(blank(1), blank(1)) === 0, 'the same seed, the same grain');
    t.ok(Buffer.compare(blank(1), blank(2)) !== 0, 'another seed, other grain');
  },
);

t.test('PDF: each letter in its own ink, the colour and opacity set only where they change', async (t) => {
  const glyph = (x: number, color: string, opacity: number, joins = false): Item => ({
    kind: 'glyph',
    ref: 'g',
    m: [1, 0, 0, -1, x, 100],
    color,
    opacity,
    word: 0,
    ...(joins ? { joins: true } : {}),
  });
  const items: Item[] = [
    glyph(10, '#112233', 0.5),
    glyph(20, '#112233', 0.5),
    glyph(30, '#112233', 1),
    glyph(40, '#445566', 1),
    { kind: 'rule', x1: 0, y1: 120, x2: 200, y2: 120, width: 0.5, color: '#999999' },
    glyph(50, '#445566', 0.85),
    glyph(60, '#445566', 0.85, true),
    glyph(70, '#112233', 1),
  ];
  const page = {
    width: 200,
    height: 200,
    background: '#fffdf6',
    sheet: { tilt: 0, shadow: 0, texture: 0, bleed: 0, pool: 0, dry: 0, scanner: false, seed: 1 },
    items,
    lines: [],
  };
  const list: DisplayList = {
    pages: [page],
    glyphs: { g: { font: 'f', gid: 1, variant: 0, scale: 0.02, path: 'M0 0L500 0L500 500Z' } },
  };
  const pdf = Buffer.from(writePdf(list)).toString('latin1');
  // The opacities of the graphics states, by name.
  const alphas = new Map([...pdf.matchAll(/\/(A\d+) << \/ca ([\d.]+)/g)].map((m) => [m[1]!, Number(m[2])]));
  const content = [...pdf.matchAll(/stream\n([\s\S]*?)\nendstream/g)]
    .map((m) => m[1]!)
    .find((c) => c.includes(' Tj'))!;
  // The page's content read as a reader does: a stack of graphics states, each letter drawn in the top one.
  let state = { fill: [0, 0, 0], alpha: 1 };
  const stack: (typeof state)[] = [];
  const drawn: (typeof state)[] = [];
  const operands: string[] = [];
  for (const token of content.split(/\s+/)) {
    if (/^[-\d./]/.test(token) && token !== '/') {
      operands.push(token);
      continue;
    }
    if (token === 'q') stack.push({ ...state });
    else if (token === 'Q') state = stack.pop()!;
    else if (token === 'rg') state = { ...state, fill: operands.slice(-3).map(Number) };
    else if (token === 'gs') state = { ...state, alpha: alphas.get(operands.at(-1)!.slice(1))! };
    else if (token === 'Tj') drawn.push(state);
    operands.length = 0;
  }
  const inkOf = letterInk(page);
  const letters = items.filter((i) => i.kind === 'glyph');
  t.equal(drawn.length, letters.length, 'every letter drawn once');
  letters.forEach((it, i) => {
    const { color, opacity } = inkOf(it);
    const want = hexRgb(color).map((c) => c / 255);
    const got = drawn[i]!;
    t.ok(
      got.fill.every((c, k) => Math.abs(c - want[k]!) < 1e-4) && Math.abs(got.alpha - opacity) < 1e-9,
      `letter ${i + 1}: ${color} at ${opacity} (drawn in ${got.fill.map((c) => c.toFixed(3)).join(' ')} at ${got.alpha})`,
    );
  });
  // The background, then a colour for each change between letters: not one for each letter.
  const fills = content.split('\n').filter((l) => / rg( |$)/.test(l)).length;
  t.equal(fills, 1 + 5, `${fills} fills set for ${letters.length} letters in 5 inks`);
});

/** The content stream of a 200 pt page of `items` (letters) written as a PDF, uncompressed. */
function lettersContent(items: Item[], glyphs: DisplayList['glyphs']): string {
  const list: DisplayList = {
    pages: [
      {
        width: 200,
        height: 200,
        background: '#ffffff',
        sheet: { tilt: 0, shadow: 0, texture: 0, bleed: 0, pool: 0, dry: 0, scanner: false, seed: 1 },
        items,
        lines: [],
      },
    ],
    glyphs,
  };
  return [
    ...Buffer.from(writePdf(list))
      .toString('latin1')
      .matchAll(/stream\n([\s\S]*?)\nendstream/g),
  ]
    .map((m) => m[1]!)
    .find((c) => c.includes(' Tj'))!;
}

t.test(
  "the engine's round is Math.round, and a letter's placement is written whole however large",
  async (t) => {
    const { round } = await import('../../src/render/numbers.ts');
    const values = [
      0,
      0.5,
      -0.5,
      1.5,
      -1.5,
      2.5,
      -2.5,
      0.49999999999999994,
      -0.49999999999999994,
      1e9 + 0.5,
      -(1e9 + 0.5),
    ];
    for (let i = 0; i < 10_000; i++) values.push((i - 5000) / 8, ((i * 7919) % 100_003) / 7 - 7000);
    const wrong = values.filter(
      (v) => round(v) !== Math.round(v) && !(round(v) === 0 && Math.round(v) === 0),
    );
    t.same(wrong, [], `${values.length} values, halves and the doubles next to them among them`);
    // The hand's waves: the quick sine and cosine within 3e-7, near zero, far out, past the table.
    const { cos, sin } = await import('../../src/render/numbers.ts');
    let worst = 0;
    for (let i = 0; i < 20_000; i++) {
      const x = ((i * 7919) % 20_011) * (i % 2 ? 0.37 : -5.3) + (i % 7) * 1e-3;
      worst = Math.max(worst, Math.abs(sin(x) - Math.sin(x)), Math.abs(cos(x) - Math.cos(x)));
    }
    for (const x of [0, Math.PI / 2, -Math.PI, 1e7, 5e9, -5e9])
      worst = Math.max(worst, Math.abs(sin(x) - Math.sin(x)), Math.abs(cos(x) - Math.cos(x)));
    t.ok(worst < 3e-7, `sine and cosine within ${worst.toExponential(1)} of V8's`);
    // A letter past 2^31 tenths of a point: still written as an integer, in full.
    const content = lettersContent(
      [{ kind: 'glyph', ref: 'g', m: [1, 0, 0, -1, 3e8, 100.04], color: '#000000', opacity: 1, word: 0 }],
      { g: { font: 'f', gid: 1, variant: 0, scale: 0.02, path: 'M0 0L500 0L500 500Z' } },
    );
    t.match(content, / 3000000000 1000 Tm /, 'x and y in tenths of a point, whole');
  },
);

t.test(
  "a letter's placement: its matrix in whole numbers, of every length and sign, and its code in four hex digits",
  async (t) => {
    // 300 drawings (codes past 0xff) and numbers of one to seven digits, each sign: written as the
    // slow path (String of Math.round) would write them.
    const scale = 0.02;
    const k = 1000 / scale;
    const glyphs: DisplayList['glyphs'] = {};
    const items: Item[] = [];
    const want: string[] = [];
    for (let i = 0; i < 300; i++) {
      const ref = `g${i}`;
      glyphs[ref] = { font: 'f', gid: 1, variant: i, scale, path: 'M0 0L500 0L500 500Z' };
      const mag = 10 ** (i % 7);
      const m = [
        ((i % 2 ? -1 : 1) * (mag + 0.37)) / k,
        -0.4 / k,
        (0.5 + i) / k,
        -(mag * 3 + 0.49999) / k,
        ((i % 3) - 1) * (mag / 10 + 0.05),
        (mag + 0.5) / 10,
      ] as [number, number, number, number, number, number];
      items.push({ kind: 'glyph', ref, m, color: '#000000', opacity: 1, word: i });
      const ints = [m[0] * k, m[1] * k, m[2] * k, m[3] * k, m[4] * 10, m[5] * 10].map((v) =>
        String(Math.round(v) || 0),
      );
      want.push(`${ints.join(' ')} Tm <${(i + 1).toString(16).padStart(4, '0')}> Tj`);
    }
    const got = lettersContent(items, glyphs)
      .split('\n')
      .filter((l) => l.endsWith(' Tj') && l.includes(' Tm <'));
    t.same(got, want, `${want.length} placements, numbers of 1 to 7 digits, codes 0001 to 012c`);
  },
);

t.test("the hand's draws taken in one go are its draws taken one at a time", async (t) => {
  const { Random } = await import('../../src/render/prng.ts');
  for (const seed of [0, 1, 7042, 2 ** 31 - 1, -5]) {
    const [many, one] = [new Random(seed, 'letters'), new Random(seed, 'letters')];
    const out = new Float64Array(5);
    const got: number[] = [];
    const want: number[] = [];
    // In runs of 1 to 5, as the hand asks for them, and the stream after them the same too.
    for (let i = 0; i < 4000; i++) {
      const n = 1 + (i % 5);
      many.softs(out, n);
      got.push(...out.subarray(0, n));
      for (let k = 0; k < n; k++) want.push(one.soft());
    }
    t.same(got, want, `seed ${seed}: ${want.length} draws, bit for bit`);
    t.equal(many.next(), one.next(), `seed ${seed}: the draw after them`);
  }
});

t.test('PNG encoder: decodes to the pixels it was given', async (t) => {
  const { PNG } = await import('pngjs');
  const { crc32, deflateSync } = await import('node:zlib');
  const { encodePng } = await import('../../src/render/write/png-encode.ts');
  const rgba = new Uint8Array(37 * 11 * 4).map((_, i) => (i * 7919) % 251);
  for (const deflate of [undefined, (b: Uint8Array) => deflateSync(b, { level: 1 })]) {
    const back = PNG.sync.read(Buffer.from(encodePng(37, 11, rgba, { deflate })));
    t.same([back.width, back.height], [37, 11]);
    t.ok(Buffer.compare(back.data, Buffer.from(rgba)) === 0, deflate ? 'zlib' : 'stored blocks');
  }
  // The render threads check the chunks with zlib's CRC-32: the same bytes as the engine's own.
  const opaque = rgba.map((v, i) => (i % 4 === 3 ? 255 : v));
  const mine = encodePng(37, 11, opaque);
  const native = encodePng(37, 11, opaque, { crc32: (b) => crc32(b) });
  t.ok(Buffer.compare(Buffer.from(mine), Buffer.from(native)) === 0, "zlib's CRC writes the same PNG");
  const broken = encodePng(37, 11, opaque, { crc32: () => 0 });
  t.throws(() => PNG.sync.read(Buffer.from(broken)), 'a wrong CRC is caught by the decoder');
});

t.test("shaping applies the font's kerning and contextual forms, not its typeset ligatures", async (t) => {
  const { loadFont, shape } = await import('../../src/render/text/fonts.ts');
  const caveat = loadFont(bundledFontSource('caveat'));
  t.ok(
    shape(caveat, 'AV', false)[0]!.advance < shape(caveat, 'A', false)[0]!.advance,
    'A before V is kerned closer',
  );
  t.equal(shape(caveat, 'fi', false).length, 2, 'f and i stay two letters (test/unit/ligatures.test.ts)');
  t.equal(shape(caveat, 'ffi', false).length, 3, 'ffi too');
  const fif = shape(caveat, 'fif', false);
  t.not(fif[2]!.gid, fif[0]!.gid, 'contextual alternates stay: the second f of "fif" is another drawing');
  const list = renderText({ style: style(), text: 'find', fonts });
  t.equal(
    list.pages[0]!.items.filter((i) => i.kind === 'glyph').length,
    4,
    'a rendered "find" has four letters',
  );
  t.equal(list.pages[0]!.lines[0]!.text, 'find', 'and its searchable text is still four letters');
});

t.test(
  'a PDF written a page at a time, each page handed over as it is laid out, is the PDF of the whole list',
  async (t) => {
    const text = Array.from(
      { length: 90 },
      (_, i) => `Line ${i}: the garden looked wonderful this year`,
    ).join('\n');
    const opts = { deflate: (b: Uint8Array) => deflateSync(b), createdAt: '2026-11-29T00:00:00Z' };
    const whole = renderText({ style: style(), text, fonts });
    t.ok(whole.pages.length >= 3, `${whole.pages.length} pages`);
    const pdf = new PdfDocument(opts);
    const handed: number[] = [];
    const streamed = renderText({
      style: style(),
      text,
      fonts,
      sink: (page, glyphs) => {
        handed.push(page.items.length);
        pdf.add(page, glyphs);
      },
    });
    t.equal(streamed.pages.length, 0, 'the list keeps no page it handed over');
    t.same(
      handed,
      whole.pages.map((p) => p.items.length),
      'every page handed over, in order, as the whole list has it',
    );
    t.equal(pdf.pages, whole.pages.length, 'the PDF counts its pages');
    const bytes = pdf.finish(streamed.glyphs);
    t.ok(
      Buffer.from(bytes).equals(Buffer.from(writePdf(whole, opts))),
      'the same bytes as the whole list written at once',
    );
  },
);
