// The documents the Chromium benchmark gives both sides, and our side of it: a process of its
// own (as Chromium's are) that renders on request on one render thread of the service's pool,
// one JSON line in, one out.
//
//   {"kind":"letter","i":7}  a one-page A5 letter, its own text and seed
//   {"kind":"doc","seed":3}  the 100,000-character document in seed 3
//   → {"ms":…, "cpuMs":…, "bytes":…}  wall time, the process's CPU time (all its threads), size
import { createInterface } from 'node:readline';
import type { RenderRequest } from '../src/app/ports/renderer.ts';
import { textSpec } from '../test/helpers/specs.ts';
import { PiscinaRenderer } from '../workers/piscina-renderer.ts';
import { prose } from './prose.ts';
import { DOC_STYLE, LETTER_STYLE, letterText, seeded } from './styles.ts';

// The service's own render thread (the built one, under the pool's heap settings), one of it:
// what a job of this text costs the service, the hand-over between threads included.
const pool = new PiscinaRenderer({ threads: 1, timeoutMs: 120_000, memoryMb: 512 });
const doc = prose(100_000);
const render = async (req: { kind: 'letter'; i: number } | { kind: 'doc'; seed: number }) => {
  const [style, text] =
    req.kind === 'letter'
      ? [seeded(LETTER_STYLE, 1000 + req.i), letterText(req.i)]
      : [seeded(DOC_STYLE, req.seed), doc];
  const task: RenderRequest = {
    output: 'pdf',
    spec: textSpec(style, text),
    fonts: {},
    images: {},
    createdAt: '2026-11-30T00:00:00Z',
    limits: { maxPages: 200, maxBytes: 55_000_000 },
  };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const pdf = await pool.run(task);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, bytes: pdf.bytes.length };
};
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  process.stdout.write(`${JSON.stringify(await render(JSON.parse(line)))}\n`);
}
await pool.close();
