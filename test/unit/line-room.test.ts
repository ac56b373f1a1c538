// Guards of the hand at every setting within the documented ranges: lines never collide, the
// line pitch respects the hand's reach (on lined paper the text skips to a rule that fits),
// words keep clear space between their ink, and a table's text stays inside its row. Measured on
// the ink of each letter as drawn: its drawing's box carried by the instance's matrix.
import t from 'tap';
import { bundledChain, bundledFontSource } from '../helpers/fonts.ts';
import { EFFECTS_AT_TOP, styleOf as style } from '../helpers/specs.ts';
import type { DisplayList, DisplayPage } from '../../src/render/display-list.ts';
import { renderText } from '../../src/render/document.ts';
import { renderBlocks } from '../../src/render/flow.ts';

const MAX = EFFECTS_AT_TOP;
const TEXT =
  'the quick brown fox jumps over the lazy dog while a gentle rain is falling on the hills, ' +
  'quietly, and the old ferry glides by the jetty ' +
  'slowly the evening light fell across the garden wall and the hedge grew dark '.repeat(6);

const boxes = new Map<string, [number, number, number, number]>();
/** A drawing's box in font units (y up), from its path data. */
function drawingBox(list: DisplayList, ref: string): [number, number, number, number] {
  const path = list.glyphs[ref]!.path;
  let box = boxes.get(path);
  if (!box) {
    const n = path.match(/-?\d+(\.\d+)?/g)!.map(Number);
    const xs = n.filter((_, i) => i % 2 === 0);
    const ys = n.filter((_, i) => i % 2 === 1);
    box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    boxes.set(path, box);
  }
  return box;
}

interface Ink {
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** The page's text line the letter belongs to (nearest baseline). */
  line: number;
}

/** The ink box of every letter on a page, on the page (pt, y down), with the line it is on. */
function inkOf(list: DisplayList, page: DisplayPage): Ink[] {
  const out: Ink[] = [];
  for (const it of page.items) {
    if (it.kind !== 'glyph') continue;
    const [x0, y0, x1, y1] = drawingBox(list, it.ref);
    const [a, b, c, d, e, f] = it.m;
    const xs = [x0, x1].flatMap((x) => [y0, y1].map((y) => a * x + c * y + e));
    const ys = [x0, x1].flatMap((x) => [y0, y1].map((y) => b * x + d * y + f));
    let line = 0;
    page.lines.forEach((l, i) => {
      if (Math.abs(l.y - f) < Math.abs(page.lines[line]!.y - f)) line = i;
    });
    out.push({
      left: Math.min(...xs),
      right: Math.max(...xs),
      top: Math.min(...ys),
      bottom: Math.max(...ys),
      line,
    });
  }
  return out;
}

/** The closest two lines come: the least distance from one line's lowest ink to the next line's highest, over the page. */
function closest(list: DisplayList): number {
  let least = Infinity;
  for (const page of list.pages) {
    const ink = inkOf(list, page);
    for (let i = 0; i + 1 < page.lines.length; i++) {
      const bottom = Math.max(...ink.filter((g) => g.line === i).map((g) => g.bottom));
      const top = Math.min(...ink.filter((g) => g.line === i + 1).map((g) => g.top));
      least = Math.min(least, top - bottom);
    }
  }
  return least;
}

const HANDS = [
  'caveat',
  'dancing-script',
  'gochi-hand',
  'homemade-apple',
  'indie-flower',
  'kalam',
  'patrick-hand',
  'shadows-into-light',
  'reenie-beanie',
  'nanum-pen-script',
];

t.test(
  'lines never collide: every hand, every modifier at its maximum, the tightest line height',
  async (t) => {
    for (const slug of HANDS) {
      const fonts = bundledChain(bundledFontSource(slug));
      for (const paper of ['blank', 'lined'] as const) {
        const list = renderText({
          style: style({
            fontSize: 16,
            lineHeight: 0.8,
            paper: { type: paper },
            modifiers: { ...MAX, seed: 3 },
          }),
          text: TEXT,
          fonts,
        });
        const gap = closest(list);
        t.ok(gap > 0, `${slug} on ${paper} paper: the closest two lines keep ${gap.toFixed(2)} pt apart`);
      }
    }
  },
);

t.test('line pitch follows the hand: on lined paper a tall hand skips to the rule that fits', async (t) => {
  const tall = bundledChain(bundledFontSource('homemade-apple'));
  const lined = renderText({
    style: style({ paper: { type: 'lined', spacing: 8 } }),
    text: TEXT,
    fonts: tall,
  });
  const ys = lined.pages[0]!.lines.map((l) => l.y);
  const pitch = ys[1]! - ys[0]!;
  const rule = 8 * (72 / 25.4);
  t.ok(Math.abs(pitch / rule - Math.round(pitch / rule)) < 1e-6, 'every baseline on a rule');
  t.ok(
    pitch >= 2 * rule - 1e-6,
    `Homemade Apple at 18 pt writes on every ${Math.round(pitch / rule)}nd rule`,
  );
  const caveat = renderText({
    style: style({ paper: { type: 'lined', spacing: 8 } }),
    text: TEXT,
    fonts: bundledChain(bundledFontSource('caveat')),
  });
  const c = caveat.pages[0]!.lines.map((l) => l.y);
  t.equal(Math.round((c[1]! - c[0]!) / rule), 1, 'Caveat at 18 pt writes on every rule');
  const blank = renderText({ style: style({ lineHeight: 0.8 }), text: TEXT, fonts: tall }).pages[0]!.lines;
  t.ok(
    blank[1]!.y - blank[0]!.y > 18 * 1.8,
    `on blank paper the lines of a tall hand are at least its reach apart (${(blank[1]!.y - blank[0]!.y).toFixed(1)} pt at 18 pt)`,
  );
});

t.test('words keep clear space between their ink, every modifier at its maximum', async (t) => {
  for (const slug of ['caveat', 'homemade-apple', 'indie-flower']) {
    const fonts = bundledChain(bundledFontSource(slug));
    const list = renderText({ style: style({ modifiers: { ...MAX, seed: 5 } }), text: TEXT, fonts });
    let least = Infinity;
    for (const page of list.pages) {
      const ink = inkOf(list, page);
      // One glyph per letter in these hands and this text (no ligatures), so letters count glyphs.
      const letters = page.lines.reduce((n, l) => n + l.text.replace(/ /g, '').length, 0);
      t.equal(ink.length, letters, `${slug}: a glyph per letter`);
      // Glyphs in writing order; a word ends where the next letter starts after a space.
      let g = 0;
      for (const line of page.lines) {
        const words = line.text
          .split(' ')
          .filter(Boolean)
          .map((w) => [...w].length);
        for (let w = 0; w + 1 < words.length; w++) {
          const end = g + words[w]!;
          const right = Math.max(...ink.slice(g, end).map((i) => i.right));
          const left = Math.min(...ink.slice(end, end + words[w + 1]!).map((i) => i.left));
          least = Math.min(least, left - right);
          g = end;
        }
        g += words[words.length - 1] ?? 0;
      }
    }
    t.ok(least > 0, `${slug}: the ink of two words is never closer than ${least.toFixed(2)} pt`);
  }
});

t.test("a table's text stays inside its row: the padding takes the hand's wobble", async (t) => {
  const fonts = bundledChain(bundledFontSource('caveat'));
  const rows = Array.from({ length: 8 }, (_, i) => [
    `row ${i} holds a longer note that wraps`,
    'yes, quite',
    'the end',
  ]);
  const list = renderBlocks({
    style: style({ modifiers: { ...MAX, seed: 9 } }),
    blocks: [{ type: 'table', header: ['what', 'which', 'why'], widths: [0.5, 0.25, 0.25], rows }],
    fonts,
    headings: { fonts, overstrike: true },
    images: {},
    limits: {},
  });
  const page = list.pages[0]!;
  // The rules across the table: hand-drawn strokes, mostly level.
  const across = page.items
    .filter((i) => i.kind === 'stroke')
    .map((s) => (s as { points: number[] }).points)
    .filter((p) => Math.abs(p[p.length - 1]! - p[1]!) < 10 && Math.abs(p[p.length - 2]! - p[0]!) > 100)
    .map((p) => p.filter((_, i) => i % 2 === 1));
  t.ok(across.length >= 9, `${across.length} rules across the table`);
  const ink = inkOf(list, page);
  const crossing = ink.filter((g) =>
    across.some((ys) => ys.some((y) => y > g.top + 0.2 && y < g.bottom - 0.2)),
  );
  t.equal(crossing.length, 0, `no letter of the ${ink.length} crosses a rule`);
});

t.test('a tired hand keeps to the page: lines are wrapped for the larger, looser writing', async (t) => {
  const fonts = bundledChain(bundledFontSource('caveat'));
  const text = Array.from(
    { length: 560 },
    () =>
      'the rain falls softly on the quiet hills while the river runs down to the sea and the evening light fades',
  ).join(' ');
  for (const amount of [0.2, 1]) {
    const s = style({ modifiers: { fatigue: { amount } } });
    const list = renderText({ style: s, text, fonts });
    const right = list.pages[0]!.width - s.margins.right * (72 / 25.4);
    for (const n of [1, 20]) {
      const ink = inkOf(list, list.pages[n - 1]!);
      const reach = Math.max(...ink.map((g) => g.right));
      t.ok(
        reach < right + 6,
        `fatigue ${amount}, page ${n}: the ink reaches ${(reach - right).toFixed(1)} pt past the right margin`,
      );
      if (n === 20 && amount === 1) {
        const lines = list.pages[19]!.lines;
        const ends = lines.map((_, i) => Math.max(...ink.filter((g) => g.line === i).map((g) => g.right)));
        t.ok(
          ends.filter((e) => e > right - 60).length > lines.length / 2,
          'and most of its lines still run close to the margin (not a narrow column)',
        );
      }
    }
  }
});
