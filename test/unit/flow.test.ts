// The layout of structured documents, one block type at a time, measured on the display list:
// where things land, what is drawn by hand, how pages break, and that the output is repeatable.
import { deflateSync } from 'node:zlib';
import t from 'tap';
import { boldCut, bundledChain, bundledFontSource } from '../helpers/fonts.ts';
import type { DocBlock } from '../../src/domain/document.ts';
import { parseTemplate, type Style } from '../../src/domain/template.ts';
import { type DisplayList, type DisplayPage, MM } from '../../src/render/display-list.ts';
import { renderBlocks } from '../../src/render/page/flow.ts';
import { displayListToPdf } from '../../src/render/write/pdf.ts';
import { pageToSvg } from '../../src/render/write/svg.ts';
import { RenderError } from '../../src/render/text/text-layout.ts';
import { bundledFontId } from '../../src/domain/fonts.ts';

const IMG = 'asset_0000000000000000000001';
function style(extra: Record<string, unknown> = {}): Style {
  const p = parseTemplate({
    version: 2,
    name: 't',
    mode: 'simple',
    style: { fontId: bundledFontId('caveat'), pageSize: 'A5', paper: { type: 'blank' }, ...extra },
  });
  if (!p.ok) throw new Error(p.message);
  return (p.template as { style: Style }).style;
}
const fonts = bundledChain(bundledFontSource('caveat'));
function render(
  blocks: DocBlock[],
  s = style(),
  limits?: { maxPages?: number; firstPages?: number },
): DisplayList {
  return renderBlocks({
    style: s,
    blocks,
    fonts,
    headings: { fonts: bundledChain(boldCut('caveat')!, ...fonts), overstrike: false },
    images: { [IMG]: { width: 400, height: 200 } },
    limits,
  });
}
const glyphs = (p: DisplayPage) =>
  p.items.filter((i) => i.kind === 'glyph') as Extract<DisplayPage['items'][number], { kind: 'glyph' }>[];
const strokes = (p: DisplayPage) =>
  p.items.filter((i) => i.kind === 'stroke') as Extract<DisplayPage['items'][number], { kind: 'stroke' }>[];
const para = (text: string): DocBlock => ({ type: 'paragraph', text });

t.test('headings: larger than the text and in the bold cut, largest at level 1', async (t) => {
  const list = render([
    { type: 'heading', level: 1, text: 'One' },
    { type: 'heading', level: 2, text: 'Two' },
    { type: 'heading', level: 3, text: 'Three' },
    para('Body'),
  ]);
  const page = list.pages[0]!;
  const byLine = page.lines.map((l) => l.size);
  t.ok(
    byLine[0]! > byLine[1]! && byLine[1]! > byLine[2]! && byLine[2]! > byLine[3]!,
    `sizes fall from level 1 to the text: ${byLine.join(', ')}`,
  );
  const fontsUsed = glyphs(page).map((g) => list.glyphs[g.ref]!.font);
  t.equal(fontsUsed[0], bundledFontId('caveat-bold'), 'headings in Caveat Bold');
  t.equal(fontsUsed[fontsUsed.length - 1], bundledFontId('caveat'), 'text in Caveat');
  // Caveat has 1,000 units per em: an instance's matrix scale times 1,000 is its size in pt.
  const drawn = Math.hypot(glyphs(page)[0]!.m[0], glyphs(page)[0]!.m[1]) * 1000;
  t.ok(
    Math.abs(drawn - 18 * 1.7) < 18 * 1.7 * 0.35,
    `a level-1 heading is drawn about 1.7 times the 18 pt text (${drawn.toFixed(1)} pt)`,
  );
});

t.test(
  'a heading is never left alone at the foot of a page; on the next page it starts at the top',
  async (t) => {
    const top = render([{ type: 'heading', level: 1, text: 'Late heading' }]).pages[0]!.lines[0]!.y;
    let moved = 0;
    for (let n = 8; n <= 24; n++) {
      const list = render([
        ...Array.from({ length: n }, () => para('line')),
        { type: 'heading', level: 1, text: 'Late heading' },
        para('its text'),
        // Enough to end on: a last page of fewer lines would take some from the page before.
        para('and more'),
        para('and the end'),
      ]);
      const at = list.pages.findIndex((p) => p.lines.some((l) => l.text === 'Late heading'));
      const lines = list.pages[at]!.lines;
      const i = lines.findIndex((l) => l.text === 'Late heading');
      t.equal(lines[i + 1]?.text, 'its text', `${n} lines before: its text follows it on the same page`);
      if (at > 0 && i === 0) {
        moved++;
        t.equal(
          lines[0]!.y,
          top,
          `${n} lines before: moved over, it sits where a heading at the top of a page sits`,
        );
      }
    }
    t.ok(moved > 0, `some of these headings had to move to the next page (${moved})`);
  },
);

t.test(
  'the closing lines of a document never stand alone on its last page, the page before is written to its last rule, and a page break is kept',
  async (t) => {
    // On lined paper, where paragraphs follow each other on the next rule.
    const lined = style({ paper: { type: 'lined', spacing: 8 } });
    const full = render(
      Array.from({ length: 40 }, () => para('line')),
      lined,
    ).pages[0]!.lines.length;
    const words = 'the garden looked wonderful and the roses by the gate were in full bloom'.split(' ');
    const closing = ['With warm wishes,', 'Eleanor'];
    const lineCount = (list: DisplayList) => list.pages.reduce((n, p) => n + p.lines.length, 0);
    let mended = 0;
    for (let n = 3 * full; n < 9 * full; n += 3) {
      const body = Array.from({ length: 3 }, (_, p) =>
        para(
          Array.from({ length: Math.floor(n / 3) + p * 2 }, (_, i) => words[(i + p) % words.length]).join(
            ' ',
          ),
        ),
      );
      const bodyLines = lineCount(render(body, lined));
      const alone = bodyLines % full === 0 || bodyLines % full === full - 1;
      const list = render([...body, ...closing.map((c) => para(c))], lined);
      const last = list.pages.at(-1)!.lines.map((l) => l.text);
      t.same(last.slice(-2), closing, `${n} words: the closing lines end it`);
      if (list.pages.length > 1)
        t.ok(last.length >= 3, `${n} words: the last page holds ${last.length} lines`);
      t.ok(
        list.pages.slice(0, -1).every((p) => p.lines.length === full),
        `${n} words: every page before the last is written to its last rule (${list.pages.map((p) => p.lines.length).join(', ')})`,
      );
      const text = list.pages.flatMap((p) => p.lines.map((l) => l.text.trim())).join(' ');
      t.equal(
        text,
        [...body.map((b) => (b as { text: string }).text), ...closing].join(' '),
        `${n} words: every word once`,
      );
      if (alone) mended++;
    }
    t.ok(mended >= 2, `${mended} of these letters would have left their closing lines alone`);
    const broken = render([
      ...Array.from({ length: 5 }, () => para('line')),
      { type: 'pageBreak' },
      para('Eleanor'),
    ]);
    t.same(
      broken.pages[1]!.lines.map((l) => l.text),
      ['Eleanor'],
      'after a page break block the last page may hold one line',
    );
  },
);

t.test('headings go over their letters twice when the font has no bold cut', async (t) => {
  const list = renderBlocks({
    style: style(),
    blocks: [{ type: 'heading', level: 1, text: 'Hi' }],
    fonts,
    headings: { fonts, overstrike: true },
    images: {},
  });
  t.equal(glyphs(list.pages[0]!).length, 4, 'two letters, each written twice');
});

t.test('lists: a written marker before each item, items wrapped under their text', async (t) => {
  const s = style();
  const long = 'A list item long enough to wrap onto a second line of the page for sure';
  const list = render(
    [
      { type: 'list', ordered: false, start: 1, items: ['First', long] },
      { type: 'list', ordered: true, start: 7, items: ['Seventh', 'Eighth'] },
    ],
    s,
  );
  const lines = list.pages[0]!.lines;
  t.same(
    lines.map((l) => l.text).filter((x) => /^[•\d]/.test(x)),
    ['•', '•', '7.', '8.'],
    'bullets and numbers are written',
  );
  const first = lines.find((l) => l.text === 'First')!;
  const bullet = lines.find((l) => l.text === '•')!;
  t.ok(bullet.x < first.x, 'the marker stands left of the item');
  t.equal(bullet.y, first.y, 'on the same baseline');
  const wrapped = lines.filter((l) => long.includes(l.text) && l.text.length > 0);
  t.equal(wrapped.length, 2, 'the long item wraps');
  t.ok(
    Math.abs(wrapped[1]!.x - wrapped[0]!.x) < 3 * MM,
    'its second line hangs under its text, not under the marker',
  );
});

t.test('tables: hand-drawn rules, cells wrap within their column, rows split across pages', async (t) => {
  const cell = 'A cell with enough words to wrap inside its narrow column';
  const list = render([
    {
      type: 'table',
      header: ['Name', 'Notes'],
      widths: [0.3, 0.7],
      rows: [
        ['a', 'b'],
        [cell, 'c'],
      ],
    },
  ]);
  const page = list.pages[0]!;
  const rules = strokes(page);
  t.equal(
    rules.length,
    4 + 3,
    'four horizontal rules (top, under the header, two rows) and three vertical ones',
  );
  for (const r of rules) {
    const ys = r.points.filter((_, i) => i % 2 === 1);
    const xs = r.points.filter((_, i) => i % 2 === 0);
    const horizontal = Math.max(...xs) - Math.min(...xs) > Math.max(...ys) - Math.min(...ys);
    const across = horizontal ? ys : xs;
    t.ok(Math.max(...across) - Math.min(...across) > 0.05, 'a rule drawn by hand is never ruler-straight');
  }
  const left = Math.min(...rules.flatMap((r) => r.points.filter((_, i) => i % 2 === 0)));
  const split = page.lines.filter((l) => cell.includes(l.text) && l.text);
  t.ok(split.length >= 2, 'the long cell wraps');
  for (const l of split) t.ok(l.x + l.width < left + page.width * 0.3 + 20, 'within its column');

  const rows = Array.from({ length: 60 }, (_, i) => [`Row ${i + 1}`, 'x']);
  const long = render([{ type: 'table', header: ['Name', 'Notes'], widths: [0.5, 0.5], rows }]);
  t.ok(long.pages.length >= 2, `a long table runs over ${long.pages.length} pages`);
  t.equal(long.pages[1]!.lines[0]!.text, 'Name', 'the header is written again at the top of the next page');
  const texts = long.pages.flatMap((p) => p.lines.map((l) => l.text));
  t.equal(texts.filter((x) => /^Row \d+$/.test(x)).length, 60, 'every row appears once');

  const tall = render([
    { type: 'table', header: null, widths: [1], rows: [[Array(400).fill('word').join(' ')]] },
  ]);
  t.ok(tall.pages.length >= 2, 'a row taller than a page breaks inside the row');
  t.ok(strokes(tall.pages[1]!).length >= 2, 'and its cell is ruled on both pages');
});

t.test('images: scaled to their width share, aspect kept, aligned', async (t) => {
  const s = style();
  const list = render([{ type: 'image', assetId: IMG, width: 0.5, align: 'right' }], s);
  const img = list.pages[0]!.items.find((i) => i.kind === 'image')!;
  const content = list.pages[0]!.width - (s.margins.left + s.margins.right) * MM;
  t.ok(img.kind === 'image' && Math.abs(img.width - content / 2) < 0.01, 'half the content width');
  t.ok(img.kind === 'image' && Math.abs(img.height - img.width / 2) < 0.01, 'the 2:1 aspect of the asset');
  t.ok(
    img.kind === 'image' &&
      Math.abs(img.x + img.width - (list.pages[0]!.width - s.margins.right * MM)) < 0.01,
    'right-aligned',
  );
  t.throws(
    () => render([{ type: 'image', assetId: 'asset_0000000000000000000009', width: 1, align: 'left' }]),
    RenderError,
    'an image without its size is an error, not a blank',
  );
});

t.test(
  'columns: side by side, each a flow of its own; the next block starts under the longest',
  async (t) => {
    const list = render([
      {
        type: 'columns',
        gap: 12,
        widths: [0.5, 0.5],
        columns: [[para('Left column text')], [para('Right one'), para('Right two'), para('Right three')]],
      },
      para('After'),
    ]);
    const lines = list.pages[0]!.lines;
    const left = lines.find((l) => l.text === 'Left column text')!;
    const right = lines.find((l) => l.text === 'Right one')!;
    t.equal(left.y, right.y, 'both columns start on the same line');
    t.ok(right.x > left.x + left.width, 'the right column is right of the left one');
    const after = lines.find((l) => l.text === 'After')!;
    t.ok(
      after.y > lines.find((l) => l.text === 'Right three')!.y,
      'the next block comes under the longer column',
    );
  },
);

t.test('dividers, spacers and page breaks', async (t) => {
  const plain = render([para('a'), para('b')]);
  const spaced = render([para('a'), { type: 'spacer', height: 100 }, para('b')]);
  const gap = (l: DisplayList) => l.pages[0]!.lines[1]!.y - l.pages[0]!.lines[0]!.y;
  t.ok(
    Math.abs(gap(spaced) - gap(plain) - 100) < 20,
    `a 100 pt spacer moves the next line about 100 pt (${(gap(spaced) - gap(plain)).toFixed(1)})`,
  );
  const divided = render([para('a'), { type: 'divider' }, para('b')]);
  const [rule] = strokes(divided.pages[0]!);
  t.ok(rule, 'a divider is a stroke');
  const ys = rule!.points.filter((_, i) => i % 2 === 1);
  t.ok(
    Math.min(...ys) > divided.pages[0]!.lines[0]!.y && Math.max(...ys) < divided.pages[0]!.lines[1]!.y,
    'between the two paragraphs',
  );
  const broken = render([para('a'), { type: 'pageBreak' }, para('b')]);
  t.equal(broken.pages.length, 2);
  t.equal(broken.pages[1]!.lines[0]!.text, 'b', 'the page break starts a page');
});

t.test('on ruled paper every baseline sits on a rule, headings included', async (t) => {
  const s = style({ paper: { type: 'lined', spacing: 8 } });
  const list = render(
    [
      { type: 'heading', level: 1, text: 'Title' },
      para('Text under it'),
      { type: 'list', ordered: true, start: 1, items: ['one'] },
    ],
    s,
  );
  const page = list.pages[0]!;
  const rules = new Set(
    page.items.flatMap((i) => (i.kind === 'rule' && i.y1 === i.y2 ? [Math.round(i.y1 * 100)] : [])),
  );
  for (const l of page.lines) t.ok(rules.has(Math.round(l.y * 100)), `"${l.text}" on a rule`);
});

t.test('limits and repeatability', async (t) => {
  const many = Array.from({ length: 30 }, () => ({ type: 'pageBreak' }) as DocBlock);
  t.throws(
    () => render(many, style(), { maxPages: 20 }),
    { code: 'TOO_MANY_PAGES', message: /more than 20 pages/ },
    'the page cap holds during layout',
  );
  const preview = render(many, style(), { maxPages: Number.POSITIVE_INFINITY, firstPages: 4 });
  t.equal(preview.pages.length, 4, 'a preview draws its first pages only');
  t.throws(
    () => render([para('\u{1F9FF}')]),
    { code: 'UNSUPPORTED_CHARACTERS' },
    'a character no font has is refused',
  );
  const blocks: DocBlock[] = [
    { type: 'heading', level: 2, text: 'Same' },
    { type: 'table', header: null, widths: [0.5, 0.5], rows: [['a', 'b']] },
    { type: 'divider' },
  ];
  const pdf = () => displayListToPdf(render(blocks), { deflate: (b) => deflateSync(b) });
  t.same(Buffer.from(pdf()), Buffer.from(pdf()), 'same seed and input: the same PDF bytes');
  const svg = pageToSvg(render(blocks), render(blocks).pages[0]!);
  t.match(
    svg,
    /<path d="M[\d.]+ [\d.]+L[^"]+" fill="none" stroke="#[0-9a-f]{6}" stroke-width="[\d.]+" stroke-linecap="round"/,
    'strokes are SVG paths with round caps',
  );
});
