// The dashboard builder's live preview: a live `scriptorium serve` (embedded mode, default pool)
// drawing the first page of an unsaved template, as the builder asks for it, one draft at a time
// per session. Each row is one of the demo templates; every draft changes the font size, as an
// edit would, so no two are alike. The target (issue 20): the first page within 300 ms warm.
//
//   node --import tsx bench/builder.ts [--drafts 100] [--write]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { exampleImage, readExample } from '../src/app/demo.ts';
import { machine, ROOT, serve } from './serve.ts';
import { record } from './record.ts';

const { values: args } = parseArgs({
  options: { drafts: { type: 'string', default: '100' }, write: { type: 'boolean', default: false } },
});
const drafts = Number(args.drafts);

const dir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-builder-'));
const server = await serve({ DATA_DIR: dir });
const base = `http://127.0.0.1:${server.port}/dashboard/v1`;

/** A new dashboard user (a session and its account) per row: drafts are limited per account. */
async function session(n: number) {
  const res = await fetch(`${base}/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: `Bench ${n}`,
      accountName: `Bench ${n}`,
      email: `bench${n}@example.com`,
      password: 'a benchmark passphrase',
    }),
  });
  if (res.status !== 201) throw new Error(`sign-up: ${res.status} ${await res.text()}`);
  const view = (await res.json()) as { csrfToken: string; accounts: { accountId: string }[] };
  const headers = {
    cookie: res.headers.get('set-cookie')!.split(';')[0]!,
    'x-csrf-token': view.csrfToken,
  };
  return { headers, account: view.accounts[0]!.accountId };
}

interface Row {
  name: string;
  what: string;
  p50: number;
  p95: number;
  max: number;
  bytes: number;
  width: number;
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.ceil((xs.length * p) / 100) - 1]!;

const ROWS = [
  { example: 'letter', what: 'simple text, a 7-line letter, A4' },
  { example: 'notes', what: 'structured: heading, list, table, text; A4 grid paper' },
  { example: 'card', what: 'structured: columns with an image and text; A5' },
  { example: 'document', what: 'legacy v1: headings, lists, a table, an image' },
] as const;

const rows: Row[] = [];
for (const [i, r] of ROWS.entries()) {
  const s = await session(i);
  const up = await fetch(`${base}/accounts/${s.account}/assets?mode=test`, {
    method: 'POST',
    headers: { ...s.headers, 'content-type': 'image/png' },
    body: exampleImage('meadow.png'),
  });
  if (up.status !== 201) throw new Error(`upload: ${up.status} ${await up.text()}`);
  const { id: assetId } = (await up.json()) as { id: string };
  const model = JSON.parse(readExample(r.example, { 'meadow.png': assetId }).template);
  const style = model.version === 1 ? model.settings : model.style;
  const times: number[] = [];
  let bytes = 0;
  let width = 0;
  for (let n = -10; n < drafts; n++) {
    style.fontSize = 14 + (Math.abs(n) % 7); // an edit, as the builder sends after a pause
    const t0 = performance.now();
    const res = await fetch(`${base}/accounts/${s.account}/drafts`, {
      method: 'POST',
      headers: { ...s.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'test', template: model }),
    });
    const body = (await res.json()) as { png: string };
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`${r.example}: ${res.status} ${JSON.stringify(body)}`);
    if (n < 0) continue; // the first ten warm the pool's threads: not recorded
    times.push(ms);
    const png = Buffer.from(body.png, 'base64');
    bytes += png.length;
    width = png.readUInt32BE(16);
  }
  const row = {
    name: model.name,
    what: r.what,
    p50: pct(times, 50),
    p95: pct(times, 95),
    max: Math.max(...times),
    bytes: bytes / times.length,
    width,
  };
  console.error(`${r.example}: p50 ${row.p50.toFixed(0)} ms, p95 ${row.p95.toFixed(0)} ms`);
  rows.push(row);
}
await server.stop();
rmSync(dir, { recursive: true, force: true });

const table = [
  `### Builder previews, ${new Date().toISOString().slice(0, 10)} (bench/builder.ts)`,
  '',
  `${machine()}; \`scriptorium serve\` in embedded mode with its default pool. Request: \`POST /dashboard/v1/accounts/{account}/drafts\` with the demo template as a JSON object (its font size changed each time), one at a time as the builder sends them, ${drafts} per row after 10 to warm up; time from request to the whole JSON answer (the page as a base64 PNG at 96 DPI). Target: p50 and p95 within 300 ms.`,
  '',
  '| template | what | p50 ms | p95 ms | max ms | PNG bytes | PNG width px |',
  '|---|---|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.what} | ${r.p50.toFixed(0)} | ${r.p95.toFixed(0)} | ${r.max.toFixed(0)} | ${Math.round(r.bytes).toLocaleString('en-US')} | ${r.width} |`,
  ),
  '',
].join('\n');
console.log(table);
if (args.write) record(ROOT, table);
