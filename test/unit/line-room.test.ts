// Guards of the hand at every setting within the documented ranges: lines never collide (their
// letters' ink never meets, though on ruled paper a tall hand's lines overlap where it does not:
// one line to a rule),
// words keep clear space between their ink, and a table's text stays inside its row. Measured on
// the ink of each letter as drawn: its drawing's box carried by the instance's matrix.
import t from 'tap';
import { bundledChain, bundledFontSource } from '../helpers/fonts.ts';
import { letterBoxes } from '../helpers/ink.ts';
import { EFFECTS_AT_TOP, styleOf as style } from '../helpers/specs.ts';
import type { DisplayList } from '../../src/render/display-list.ts';
import { renderText } from '../../src/render/page/document.ts';
import { renderBlocks } from '../../src/render/page/flow.ts';

const MAX = EFFECTS_AT_TOP;
const TEXT =
  'the quick brown fox jumps over the lazy dog while a gentle rain is falling on the hills, ' +
  'quietly, and the old ferry glides by the jetty ' +
  'slowly the evening light fell across the garden wall and the hedge grew dark '.repeat(6);

/**
 * The closest two lines come: the least distance from a letter's lowest ink to the highest ink of
 * a letter of the next line under it (their ink boxes overlapping across), over the pages.
 */
function closest(list: DisplayList): number {
  let least = Infinity;
  for (const page of list.pages) {
    const ink = letterBoxes(list, page);
    for (const a of ink)
      for (const b of ink)
        if (b.line === a.line + 1 && b.left < a.right && a.left < b.right)
          least = Math.min(least, b.top - a.bottom);
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
        if (process.env.DBG) console.error(slug, paper, gap);
        t.ok(gap > 0, `${slug} on ${paper} paper: the closest two lines keep ${gap.toFixed(2)} pt apart`);
      }
    }
  },
);

t.test(
  'ruled paper: a line to a rule for every hand at 18 and 20 pt on 10 mm; blank paper: lines as far apart as the hand reaches',
  async (t) => {
    const lines = (slug: string, spacing: number, fontSize = 18) => {
      const list = renderText({
        style: style({ fontSize, paper: { type: 'lined', spacing } }),
        text: TEXT,
        fonts: bundledChain(bundledFontSource(slug)),
      });
      const ys = list.pages[0]!.lines.map((l) => l.y);
      return [...new Set(ys.slice(1).map((y, i) => ((y - ys[i]!) / (spacing * (72 / 25.4))).toFixed(3)))];
    };
    for (const slug of [...HANDS, 'aref-ruqaa']) {
      t.same(lines(slug, 10), ['1.000'], `${slug}: every line on the next rule`);
      t.same(lines(slug, 10, 20), ['1.000'], `${slug} at 20 pt: every line on the next rule`);
    }
    // Only where the deepest descender over the tallest ascender cannot clear it even written at
    // half its height does a line skip a rule: Homemade Apple (1.87 em from top to bottom) on 8 mm.
    t.same(lines('homemade-apple', 8), ['2.000'], 'Homemade Apple at 18 pt on 8 mm rules: every second rule');
    t.same(
      lines('shadows-into-light', 8),
      ['1.000'],
      'Shadows Into Light at 18 pt on 8 mm rules: every rule',
    );
    const tall = bundledChain(bundledFontSource('homemade-apple'));
    const blank = renderText({ style: style({ lineHeight: 0.8 }), text: TEXT, fonts: tall }).pages[0]!.lines;
    t.ok(
      blank[1]!.y - blank[0]!.y > 18 * 1.8,
      `on blank paper the lines of a tall hand are at least its reach apart (${(blank[1]!.y - blank[0]!.y).toFixed(1)} pt at 18 pt)`,
    );
  },
);

t.test('words keep clear space between their ink, every modifier at its maximum', async (t) => {
  for (const slug of ['caveat', 'homemade-apple', 'indie-flower']) {
    const fonts = bundledChain(bundledFontSource(slug));
    const list = renderText({ style: style({ modifiers: { ...MAX, seed: 5 } }), text: TEXT, fonts });
    let least = Infinity;
    for (const page of list.pages) {
      const ink = letterBoxes(list, page);
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
  const ink = letterBoxes(list, page);
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
      const ink = letterBoxes(list, list.pages[n - 1]!);
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
