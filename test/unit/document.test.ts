// Document v1 content and structured data, pure: every limit of spec §8 at its edge (accepted at
// the limit, refused one past it, with the block named), and the blocks each resolves to.
import t, { type Test } from 'tap';
import {
  type DocBlock,
  DOCUMENT_V1_LIMITS as L,
  parseContent,
  resolveStructured,
} from '../../src/domain/document.ts';
import { grouped, isDecided } from '../../src/domain/errors.ts';
import { checkInputForTemplate } from '../../src/domain/generation.ts';
import { parseTemplate, type StructuredTemplate, type TemplateModel } from '../../src/domain/template.ts';
import { bundledFontId } from '../../src/domain/fonts.ts';

const A = (n: number) => `asset_${String(n).padStart(22, '0')}`;
const para = (text = 'x') => ({ type: 'paragraph', text });

/** The error a call throws (or null), as field and message. */
function refusal(fn: () => unknown): { code: string; field?: string; message: string } | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (!isDecided(err)) throw err;
    return { code: err.code, field: err.field, message: err.message };
  }
}

function edge(t: Test, what: string, at: unknown[], past: unknown[], field: string, message: RegExp) {
  t.equal(
    refusal(() => parseContent(at, 12)),
    null,
    `${what}: accepted at the limit`,
  );
  const r = refusal(() => parseContent(past, 12));
  t.equal(r?.code, 'INVALID_REQUEST', `${what}: refused one past it`);
  t.equal(r?.field, field, `${what}: names ${field}`);
  t.match(r?.message, message, `${what}: says why`);
}

t.test('Document v1 limits at their edges', async (t) => {
  edge(
    t,
    'blocks',
    Array(L.blocks).fill(para()),
    Array(L.blocks + 1).fill(para()),
    'content[200]',
    /at most 200 blocks/,
  );
  const inColumns = (n: number) => [
    { type: 'columns', columns: [{ content: Array(n).fill(para()) }, { content: [] }] },
  ];
  edge(
    t,
    'blocks inside columns count too',
    inColumns(L.blocks - 1),
    inColumns(L.blocks),
    'content[0].columns[0].content[199]',
    /is block 201: at most 200 blocks are allowed, columns' blocks included/,
  );
  edge(
    t,
    'characters per text block',
    [para('é'.repeat(10_000))],
    [para('é'.repeat(10_001))],
    'content[0].text',
    /must be 0-10000 characters, got 10001/,
  );
  const list = (n: number) => [{ type: 'bulletList', items: Array(n).fill('i') }];
  edge(t, 'list items', list(100), list(101), 'content[0].items', /must have 1-100 items, got 101/);
  const ordered = (n: number) => [{ type: 'orderedList', items: Array(n).fill('i') }];
  edge(
    t,
    'ordered list items',
    ordered(100),
    ordered(101),
    'content[0].items',
    /must have 1-100 items, got 101/,
  );
  const table = (rows: number, cols: number) => [
    { type: 'table', rows: Array.from({ length: rows }, () => Array(cols).fill('c')) },
  ];
  edge(t, 'table rows', table(200, 20), table(201, 1), 'content[0].rows', /must have 1-200 rows, got 201/);
  edge(t, 'table columns', table(1, 20), table(1, 21), 'content[0].rows[0]', /must have 1-20 cells, got 21/);
  edge(
    t,
    'cells in the whole document',
    [...table(200, 10), ...table(200, 10)],
    [...table(200, 10), ...table(200, 10), ...table(1, 1)],
    'content[2].rows',
    /4001 table cells: at most 4000/,
  );
  const images = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'image', assetId: A(i) }));
  edge(t, 'images', images(20), images(21), 'content[20]', /at most 20 images/);
  const cols = (n: number) => [
    { type: 'columns', columns: Array.from({ length: n }, () => ({ content: [para()] })) },
  ];
  edge(t, 'at most 6 columns', cols(6), cols(7), 'content[0].columns', /must have 2-6 columns, got 7/);
  edge(t, 'at least 2 columns', cols(2), cols(1), 'content[0].columns', /must have 2-6 columns, got 1/);
  const widths = (...w: number[]) => [
    { type: 'columns', columns: w.map((width) => ({ width, content: [] })) },
  ];
  edge(
    t,
    'widths total 100',
    widths(30, 70),
    widths(30, 69),
    'content[0].columns',
    /widths must total 100, got 99/,
  );
  edge(
    t,
    'widths for all or none',
    widths(50, 50),
    [{ type: 'columns', columns: [{ width: 50, content: [] }, { content: [] }] }],
    'content[0].columns',
    /every column or for none, got 1 of 2/,
  );
  edge(
    t,
    'spacer at most 500 pt',
    [{ type: 'spacer', height: 500 }],
    [{ type: 'spacer', height: 500.5 }],
    'content[0].height',
    /must be 1-500 pt, got 500.5/,
  );
  edge(
    t,
    'spacer at least 1 pt',
    [{ type: 'spacer', height: 1 }],
    [{ type: 'spacer', height: 0.9 }],
    'content[0].height',
    /must be 1-500 pt, got 0.9/,
  );
  edge(
    t,
    'heading levels 1-3',
    [{ type: 'heading', level: 3, text: 'h' }],
    [{ type: 'heading', level: 4, text: 'h' }],
    'content[0].level',
    /whole number 1-3, got 4/,
  );
  edge(
    t,
    'image width as a percentage',
    [{ type: 'image', assetId: A(1), width: '100%' }],
    [{ type: 'image', assetId: A(1), width: '101%' }],
    'content[0].width',
    /must be 1%-100%, got "101%"/,
  );
  edge(
    t,
    'image align',
    [{ type: 'image', assetId: A(1), align: 'right' }],
    [{ type: 'image', assetId: A(1), align: 'justify' }],
    'content[0].align',
    /one of left, center, right/,
  );
  edge(t, 'empty content', [para()], [], 'content', /1-200 blocks, got none/);
});

t.test('Document v1 content resolves to the engine blocks', async (t) => {
  const blocks = parseContent(
    [
      { type: 'orderedList', items: ['a', 'b'], start: 3 },
      { type: 'image', assetId: A(1), width: '50%', align: 'center' },
      { type: 'table', rows: [['a', 'b', 'c'], ['d']] },
      {
        type: 'columns',
        columns: [{ content: [para('left')] }, { content: [para('mid')] }, { content: [para('right')] }],
      },
      {
        type: 'columns',
        columns: [
          { width: 25, content: [] },
          { width: 75, content: [] },
        ],
      },
    ],
    18,
  );
  t.same(blocks[0], { type: 'list', ordered: true, start: 3, items: ['a', 'b'] });
  t.same(blocks[1], { type: 'image', assetId: A(1), width: 0.5, align: 'center' });
  t.same(
    blocks[2],
    {
      type: 'table',
      header: null,
      widths: [1 / 3, 1 / 3, 1 / 3],
      rows: [
        ['a', 'b', 'c'],
        ['d', '', ''],
      ],
    },
    'short rows are filled with empty cells',
  );
  const equal = blocks[3] as Extract<DocBlock, { type: 'columns' }>;
  t.same(equal.widths, [1 / 3, 1 / 3, 1 / 3], 'columns without widths are equal');
  t.equal(equal.gap, 18, 'the gap comes from the template');
  t.same((blocks[4] as Extract<DocBlock, { type: 'columns' }>).widths, [0.25, 0.75]);
});

const structured = (blocks: unknown[]): StructuredTemplate => {
  const p = parseTemplate({
    version: 2,
    name: 's',
    mode: 'structured',
    style: { fontId: bundledFontId('caveat') },
    blocks,
  });
  if (!p.ok) throw new Error(p.message);
  return p.template as StructuredTemplate;
};

t.test('structured data: each kind of value, optional fields, static blocks', async (t) => {
  const tpl = structured([
    { type: 'heading', static: true, text: 'Invoice' },
    { type: 'text', key: 'intro', style: { fontSize: 20, color: '#aa0000', align: 'center' } },
    { type: 'list', key: 'notes', optional: true },
    { type: 'image', key: 'logo', width: 30, align: 'right' },
    {
      type: 'table',
      key: 'items',
      columns: [
        { key: 'name', title: 'Name', width: 70 },
        { key: 'price', title: 'Price' },
      ],
    },
    {
      type: 'columns',
      columns: [
        { blocks: [{ type: 'text', key: 'left' }] },
        { blocks: [{ type: 'text', key: 'right', optional: true }] },
      ],
    },
    { type: 'spacer', height: 12 },
  ]);
  const blocks = resolveStructured(tpl, {
    intro: 'Hello',
    logo: { assetId: A(2) },
    items: [{ name: 'Tea', price: 3.5 }, { name: 'Cake' }],
    left: 'L',
  });
  t.same(blocks, [
    { type: 'heading', level: 1, text: 'Invoice', size: undefined, color: undefined, align: undefined },
    { type: 'paragraph', text: 'Hello', size: 20, color: '#aa0000', align: 'center' },
    { type: 'image', assetId: A(2), width: 0.3, align: 'right' },
    {
      type: 'table',
      header: ['Name', 'Price'],
      widths: [0.7, 0.3],
      rows: [
        ['Tea', '3.5'],
        ['Cake', ''],
      ],
    },
    {
      type: 'columns',
      gap: 12,
      widths: [0.5, 0.5],
      columns: [[{ type: 'paragraph', text: 'L', size: undefined, color: undefined, align: undefined }], []],
    },
    { type: 'spacer', height: 12 },
  ]);
  const r = refusal(() =>
    resolveStructured(tpl, { intro: 'x', logo: { assetId: A(1), url: 'y' }, items: [], left: 'l' }),
  );
  t.match(r, { code: 'INVALID_TEMPLATE_DATA', field: 'logo/url' });
  const rows = (n: number) => Array.from({ length: n }, () => ({ name: 'n' }));
  t.equal(
    refusal(() =>
      resolveStructured(tpl, { intro: 'x', logo: { assetId: A(1) }, items: rows(200), left: 'l' }),
    ),
    null,
    '200 rows accepted',
  );
  t.match(
    refusal(() =>
      resolveStructured(tpl, { intro: 'x', logo: { assetId: A(1) }, items: rows(201), left: 'l' }),
    ),
    { field: 'items', message: /at most 200 rows, got 201/ },
  );
  t.equal(
    refusal(() =>
      resolveStructured(tpl, { intro: 'é'.repeat(10_000), logo: { assetId: A(1) }, items: [], left: 'l' }),
    ),
    null,
    '10,000 characters accepted',
  );
  t.match(
    refusal(() =>
      resolveStructured(tpl, { intro: 'é'.repeat(10_001), logo: { assetId: A(1) }, items: [], left: 'l' }),
    ),
    { field: 'intro', message: /at most 10,000 characters, got 10,001/ },
  );
});

t.test('the overall text limit applies to data and content as to text', async (t) => {
  const tpl = structured([{ type: 'list', key: 'items' }]) as TemplateModel;
  const items = (chars: number) =>
    Array.from({ length: Math.ceil(chars / 10_000) }, (_, i) =>
      'x'.repeat(Math.min(10_000, chars - i * 10_000)),
    );
  const opts = { textLimit: 4_000, subscribed: false };
  t.ok(
    checkInputForTemplate(tpl, { input: { data: { items: items(4_000) } } }, opts),
    '4,000 characters accepted without a subscription',
  );
  t.match(
    refusal(() => checkInputForTemplate(tpl, { input: { data: { items: items(4_001) } } }, opts)),
    {
      code: 'INVALID_REQUEST',
      field: 'data',
      message:
        'the text of data must be at most 4,000 characters without a subscription, got 4,001 characters',
    },
  );
});

t.test('limits and counts in messages are grouped as en-US writes them', async (t) => {
  for (const n of [0, 7, 999, 1000, 10_001, 100_000, 1_234_567, 55_000_000, -12_345, 1234.5])
    t.equal(grouped(n), n.toLocaleString('en-US', { maximumFractionDigits: 20 }), String(n));
});
