// The pure rules of batches: the body, a row, the CSV column naming, the seeds, ZIP entry names.
import t from 'tap';
import { entryName } from '../../src/app/batches.ts';
import {
  batchStatus,
  csvColumn,
  parseBatchBody,
  parseBatchRow,
  rowSeed,
  rowsOfCsv,
  SEED_MAX,
  reservedSegment,
} from '../../src/domain/batch.ts';
import { isDecided, type DecidedRefusal } from '../../src/domain/errors.ts';

const TPL = 'tpl_4fRkX9mQ2bLc8ZtW1nYpDs';
const DATA = { takes: 'data', required: [] } as const;
const TEXT = { takes: 'text', required: ['text'] } as const;

const refused = (f: () => unknown): DecidedRefusal => {
  try {
    f();
  } catch (err) {
    if (isDecided(err)) return err;
    throw err;
  }
  throw new Error('not refused');
};

t.test('CSV columns: text, seed, metadata.KEY, and data paths with dots and [n]', async (t) => {
  t.same(csvColumn('text'), { to: 'text' });
  t.same(csvColumn('seed'), { to: 'seed' });
  t.same(csvColumn('metadata.order'), { to: 'metadata', key: 'order' });
  t.same(csvColumn('lines[2].price'), {
    to: 'data',
    path: [{ key: 'lines' }, { index: 2 }, { key: 'price' }],
  });
  t.same(csvColumn('address.city'), { to: 'data', path: [{ key: 'address' }, { key: 'city' }] });
  t.equal(csvColumn('bad column'), null);
  t.equal(csvColumn('a..b'), null);
  t.equal(csvColumn('items[x]'), null);
});

t.test('CSV records become rows: empty cells left out, lists closed up, tables by row', async (t) => {
  const rows = rowsOfCsv(
    [
      [
        'title',
        'points[0]',
        'points[1]',
        'points[2]',
        'figures[0].item',
        'figures[1].item',
        'metadata.name',
        'seed',
      ],
      ['Botany', '', 'Leaves', 'Roots', 'Oak', '', 'ada', '7'],
      ['Chem', 'Atoms', '', '', '', 'Salt', '', ''],
    ],
    DATA,
  );
  t.same(rows, [
    {
      data: { title: 'Botany', points: ['Leaves', 'Roots'], figures: [{ item: 'Oak' }] },
      metadata: { name: 'ada' },
      seed: 7,
    },
    { data: { title: 'Chem', points: ['Atoms'], figures: [{ item: 'Salt' }] } },
  ]);
  t.same(rowsOfCsv([['text'], ['Dear Tom'], ['Dear Ada']], TEXT), [
    { text: 'Dear Tom' },
    { text: 'Dear Ada' },
  ]);
  t.equal(
    refused(() =>
      rowsOfCsv(
        [
          ['text', 'name'],
          ['a', 'b'],
        ],
        TEXT,
      ),
    ).field,
    'csv/name',
  );
  t.equal(refused(() => rowsOfCsv([['text'], ['a']], DATA)).field, 'csv/text');
  t.equal(refused(() => rowsOfCsv([['text'], ['a']], { takes: 'content', required: [] })).field, 'csv');
  t.match(refused(() => rowsOfCsv([['text']], TEXT)).message, /1-10,000 rows, got "0 rows"|0 rows/);
  const seedText = rowsOfCsv(
    [
      ['text', 'seed'],
      ['a', 'twelve'],
    ],
    TEXT,
  )[0] as { seed: unknown };
  t.equal(seedText.seed, 'twelve', 'a seed that is not a number is left for the row check to refuse');
});

t.test('CSV columns: each given once, one field one way, every required field given once', async (t) => {
  const twice = refused(() =>
    rowsOfCsv(
      [
        ['text', 'seed', 'text'],
        ['a', '1', 'b'],
      ],
      TEXT,
    ),
  );
  t.equal(twice.field, 'csv/text');
  t.match(twice.message, 'csv columns 1 and 3 are both "text"; a column may be given once');
  t.match(
    refused(() =>
      rowsOfCsv(
        [
          [' title', 'title'],
          ['a', 'b'],
        ],
        DATA,
      ),
    ).message,
    /columns 1 and 2 are both/,
  );
  for (const [a, b] of [
    ['title', 'title.city'],
    ['address.city', 'address'],
    ['items[0]', 'items.x'],
    ['lines[0].price', 'lines[0]'],
  ]) {
    const e = refused(() =>
      rowsOfCsv(
        [
          [a!, b!],
          ['1', '2'],
        ],
        DATA,
      ),
    );
    t.match(e.message, `"${a}" and 2 "${b}" name the same field in two ways`);
    t.equal(e.field, `csv/${b}`);
  }
  t.same(
    rowsOfCsv(
      [
        ['items[0]', 'items[1]', 'metadata.a', 'metadata.b'],
        ['x', 'y', '1', '2'],
      ],
      DATA,
    ),
    [{ data: { items: ['x', 'y'] }, metadata: { a: '1', b: '2' } }],
    'neighbours are not a clash',
  );
  const needs = { takes: 'data', required: ['title', 'points'] } as const;
  const missing = refused(() => rowsOfCsv([['title', 'summary'], ...Array(50).fill(['a', 'b'])], needs));
  t.equal(missing.message, 'csv has no column for points, which the template requires of every row');
  t.equal(missing.field, 'csv/points');
  t.same(
    rowsOfCsv(
      [
        ['title', 'points[0]'],
        ['a', 'b'],
      ],
      needs,
    ),
    [{ data: { title: 'a', points: ['b'] } }],
  );
  const envelope = refused(() =>
    rowsOfCsv(
      [
        ['text', 'envelope.name'],
        ['a', 'b'],
      ],
      TEXT,
      needs,
    ),
  );
  t.match(
    envelope.message,
    'csv has no column for envelope.title, envelope.points, which the envelope template',
  );
  t.equal(envelope.field, 'csv/envelope.title');
});

t.test('CSV columns that name a reserved key are refused naming it', async (t) => {
  t.equal(reservedSegment('__proto__.city'), '__proto__');
  t.equal(reservedSegment('items[0].constructor'), 'constructor');
  t.equal(reservedSegment('__proto__[0]'), '__proto__');
  t.equal(reservedSegment('metadata.prototype'), 'prototype');
  t.equal(reservedSegment('address.city'), null);
  const e = refused(() => rowsOfCsv([['constructor.prototype.city'], ['Paris']], DATA));
  t.equal(e.field, 'csv/constructor.prototype.city');
  t.match(e.message, 'the key "constructor" is not accepted');
  t.equal(({} as Record<string, unknown>).city, undefined);
});

t.test('rowSeed: the same batch and row always, another row another, within the seed range', async (t) => {
  const a = rowSeed('bat_3kTn8WqZ1xLm5VbR9cYdPe', 0);
  t.equal(rowSeed('bat_3kTn8WqZ1xLm5VbR9cYdPe', 0), a);
  t.not(rowSeed('bat_3kTn8WqZ1xLm5VbR9cYdPe', 1), a);
  t.not(rowSeed('bat_3kTn8WqZ1xLm5VbR9cYdPf', 0), a);
  const seeds = new Set(Array.from({ length: 10_000 }, (_, i) => rowSeed('bat_3kTn8WqZ1xLm5VbR9cYdPe', i)));
  t.ok(seeds.size > 9_980, `${seeds.size} distinct seeds of 10,000 rows`);
  for (const s of seeds) if (s < 0 || s > SEED_MAX || !Number.isInteger(s)) t.fail(`seed ${s} out of range`);
});

t.test('the body: one of rows or csv, known fields, 1-10,000 rows', async (t) => {
  t.equal(refused(() => parseBatchBody({ templateId: TPL })).field, 'rows');
  t.equal(refused(() => parseBatchBody({ templateId: TPL, rows: [], csv: 'x' })).field, 'csv');
  t.equal(refused(() => parseBatchBody({ templateId: TPL, rows: [] })).field, 'rows');
  t.equal(refused(() => parseBatchBody({ templateId: TPL, rows: {} })).field, 'rows');
  t.equal(refused(() => parseBatchBody({ templateId: TPL, csv: '  ' })).field, 'csv');
  t.equal(refused(() => parseBatchBody({ templateId: TPL, rows: [{}], merge: 1 })).field, 'merge');
  t.equal(refused(() => parseBatchBody({ templateId: 'x', rows: [{}] })).field, 'templateId');
  t.equal(
    refused(() => parseBatchBody({ templateId: TPL, rows: [{}], rowEvents: 'yes' })).field,
    'rowEvents',
  );
  t.match(parseBatchBody({ templateId: TPL, rows: [{}], metadata: { a: 'b' }, rowEvents: true }), {
    rows: { json: [{}] },
    metadata: { a: 'b' },
    rowEvents: true,
  });
});

t.test("a row: a generation's input, its metadata and seed, refused at its place", async (t) => {
  t.same(parseBatchRow(TPL, { text: 'hi', seed: 5, metadata: { n: '1' } }, 3), {
    input: { text: 'hi' },
    metadata: { n: '1' },
    seed: 5,
  });
  t.equal(refused(() => parseBatchRow(TPL, { text: 'hi', extra: 1 }, 3)).field, 'rows/3/extra');
  t.equal(refused(() => parseBatchRow(TPL, { text: 1 }, 3)).field, 'rows/3/text');
  t.equal(refused(() => parseBatchRow(TPL, { text: 'a', data: {} }, 3)).field, 'rows/3/data');
  t.equal(refused(() => parseBatchRow(TPL, { text: 'a', seed: 1.5 }, 3)).field, 'rows/3/seed');
  t.equal(refused(() => parseBatchRow(TPL, { text: 'a', seed: SEED_MAX + 1 }, 3)).field, 'rows/3/seed');
  t.equal(refused(() => parseBatchRow(TPL, 'text', 3)).field, 'rows/3');
  t.equal(refused(() => parseBatchRow(TPL, { text: 'a', metadata: { k: 5 } }, 3)).field, 'rows/3/metadata/k');
});

t.test('ZIP entry names: the index padded, a metadata value made safe', async (t) => {
  t.equal(entryName(7, 4, undefined), '0007.pdf');
  t.equal(entryName(7, 4, 'Zoë Smith / Flat 2'), '0007-Zoe-Smith-Flat-2.pdf');
  t.equal(entryName(7, 1, '../../etc'), '7-..-..-etc.pdf');
  t.equal(entryName(12, 2, '   '), '12.pdf');
});

t.test('status: processing once a row started or ended while others wait', async (t) => {
  const b = { status: 'queued', rowCount: 3 } as Parameters<typeof batchStatus>[0];
  const c = {
    queued: 3,
    processing: 0,
    completed: 0,
    failed: 0,
    cancelled: 0,
    envelopes: null,
    pages: 0,
    creditsMilli: 0,
    expiresAt: null,
  };
  t.equal(batchStatus(b, c), 'queued');
  t.equal(batchStatus(b, { ...c, queued: 2, processing: 1 }), 'processing');
  t.equal(batchStatus({ ...b, status: 'completed' }, { ...c, queued: 0, failed: 3 }), 'completed');
});
