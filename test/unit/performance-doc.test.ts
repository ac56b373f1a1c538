// docs/performance.md is a current picture: one table per benchmark under "Current figures",
// the tables they replaced under "History". bench/record.ts keeps it so.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { recorded } from '../../bench/record.ts';

const DOC = `# Performance

Intro.

## Current figures

### Render engine, 2026-11-22 (bench/render.ts)

| case | median |
|---|---:|
| pdf | 200 ms |

Why it is 200 ms.

### Pool, 2026-11-22 (bench/pool.ts)

| figure | value |
|---|---:|
| pages/s | 500 |

## History

Earlier tables, newest first.

### Render engine, 2026-11-21 (bench/render.ts)

| case | median |
|---|---:|
| pdf | 300 ms |
`;

const heads = (doc: string, part: 'current' | 'history') => {
  const [current, history] = doc.split('## History');
  return [...(part === 'current' ? current! : history!).matchAll(/^### (.*)$/gm)].map((m) => m[1]);
};

t.test(
  'a new table replaces its benchmark’s current one, which moves to the top of the history with its notes',
  async (t) => {
    const doc = recorded(
      DOC,
      '### Render engine, 2026-11-23 (bench/render.ts)\n\n| case | median |\n|---|---:|\n| pdf | 180 ms |\n',
    );
    t.same(
      heads(doc, 'current'),
      ['Render engine, 2026-11-23 (bench/render.ts)', 'Pool, 2026-11-22 (bench/pool.ts)'],
      'in place, the others untouched',
    );
    t.same(
      heads(doc, 'history'),
      ['Render engine, 2026-11-22 (bench/render.ts)', 'Render engine, 2026-11-21 (bench/render.ts)'],
      'newest first',
    );
    t.match(
      doc,
      /Earlier tables, newest first\.\n\n### Render engine, 2026-11-22 \(bench\/render\.ts\)\n\n\| case[\s\S]*\| pdf \| 200 ms \|\n\nWhy it is 200 ms\.\n\n### Render engine, 2026-11-21/,
      'the old table keeps its notes',
    );
    t.notMatch(doc, /\n{3,}/, 'no runs of blank lines');
  },
);

t.test('a benchmark without a current table gets one at the end of the current figures', async (t) => {
  const doc = recorded(
    DOC,
    '### Farm, 2026-11-23 (bench/farm.ts)\n\n| setup | jobs |\n|---|---:|\n| farm | 40 |\n',
  );
  t.same(heads(doc, 'current'), [
    'Render engine, 2026-11-22 (bench/render.ts)',
    'Pool, 2026-11-22 (bench/pool.ts)',
    'Farm, 2026-11-23 (bench/farm.ts)',
  ]);
  t.same(heads(doc, 'history'), ['Render engine, 2026-11-21 (bench/render.ts)'], 'nothing moved');
});

t.test('a table without its benchmark in the heading is refused', async (t) => {
  t.throws(() => recorded(DOC, '### Something\n\n| a |\n'), /heading that ends in \(bench\/<name>\.ts\)/);
});

t.test('docs/performance.md holds one current table per benchmark', async (t) => {
  const doc = readFileSync(new URL('../../docs/performance.md', import.meta.url), 'utf8');
  const current = heads(doc, 'current').map((h) => /\((bench\/[\w-]+\.ts)\)$/.exec(h!)?.[1]);
  t.ok(current.length >= 7, `${current.length} benchmarks`);
  t.same(
    current.filter((b, i) => !b || current.indexOf(b) !== i),
    [],
    'each names its benchmark, once',
  );
});
