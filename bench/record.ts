// Records a benchmark's table in docs/performance.md, which keeps a current picture: under
// "Current figures" the latest table of each benchmark (found by the `(bench/x.ts)` that ends
// its heading), under "History" the tables it replaced, newest first. The notes written under a
// table go with it into the history; notes on the new figures are written by hand.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const CURRENT = '## Current figures';
const HISTORY = '## History';

/** The new text of the document with `table` (a `### …, date (bench/x.ts)` section) recorded. */
export function recorded(doc: string, table: string): string {
  const bench = /\((bench\/[\w-]+\.ts)\)\s*$/m.exec(table.split('\n')[0] ?? '')?.[1];
  if (!bench) throw new Error('a table starts with a heading that ends in (bench/<name>.ts)');
  const current = doc.indexOf(CURRENT);
  const history = doc.indexOf(HISTORY);
  if (current < 0 || history < current)
    throw new Error(`docs/performance.md needs "${CURRENT}" and then "${HISTORY}"`);
  const sections = doc.slice(current + CURRENT.length, history);
  const start = sections.search(new RegExp(`^### .*\\(${bench.replace(/[./]/g, '\\$&')}\\)\\s*$`, 'm'));
  const fresh = `${table.trim()}\n\n`;
  let kept = sections;
  let replaced = '';
  if (start >= 0) {
    const next = sections.slice(start + 4).search(/^### /m);
    const end = next < 0 ? sections.length : start + 4 + next;
    replaced = sections.slice(start, end).trim();
    kept = `${sections.slice(0, start)}${fresh}${sections.slice(end)}`;
  } else {
    kept = `${sections.trimEnd()}\n\n${fresh}`;
  }
  const past = doc.slice(history + HISTORY.length);
  const intro = past.match(/^\n+[^#][^\n]*(?:\n[^#\n][^\n]*)*\n*/)?.[0] ?? '\n\n';
  const older = past.slice(intro.length);
  const newHistory = replaced ? `${intro.trimEnd()}\n\n${replaced}\n\n${older.trimStart()}` : past;
  return `${doc.slice(0, current)}${CURRENT}${kept.replace(/\n{3,}/g, '\n\n')}${HISTORY}${newHistory.trimEnd()}\n`;
}

/** Writes `table` into docs/performance.md (`--write` of every benchmark). */
export function record(root: string, table: string): void {
  const file = join(root, 'docs', 'performance.md');
  writeFileSync(file, recorded(readFileSync(file, 'utf8'), table));
}
