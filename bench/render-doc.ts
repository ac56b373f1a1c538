// The documents the Chromium benchmark gives both sides, and our side of it: a process of its
// own (as Chromium's are) that renders on request on one render thread of the service's pool,
// one JSON line in, one out.
//
//   {"kind":"letter","i":7}  a one-page A5 letter, its own text and seed
//   {"kind":"doc","seed":3}  the 100,000-character document in seed 3
//   → {"ms":…, "cpuMs":…, "bytes":…}  wall time, the process's CPU time (all its threads), size
import { createInterface } from 'node:readline';
import type { RenderRequest } from '../src/app/ports/renderer.ts';
import { bundledFontId } from '../src/domain/fonts.ts';
import { parseTemplate, type Style } from '../src/domain/template.ts';
import { textSpec } from '../test/helpers/specs.ts';
import { PiscinaRenderer } from '../workers/piscina-renderer.ts';
import { prose } from './prose.ts';

export const DOC_STYLE = {
  fontSize: 28,
  lineHeight: 2,
  pageSize: 'A4',
  paper: { type: 'lined', spacing: 10 },
  margins: { top: 20, right: 15, bottom: 15, left: 20 },
};

/** A one-page letter as customers send them: A5, the template defaults (18 pt, 1.5 lines, margins 20/20/20/25 mm). */
export const LETTER_STYLE = { pageSize: 'A5' };

const NAMES = ['Margaret', 'Tom', 'Aunt Ruth', 'Mr Okafor', 'Priya', 'Jonas', 'Elena', 'Sam'];

/** Letter `i`: a greeting, about 420 characters of prose of its own, a closing; ~480 characters. */
export function letterText(i: number): string {
  const name = NAMES[i % NAMES.length]!;
  return `Dear ${name},\n${prose(420, 1000 + i)
    .replace(/\n/g, ' ')
    .trim()}\nWith love,\n${NAMES[(i + 3) % NAMES.length]}`;
}

export function styleOf(json: Record<string, unknown>): Style {
  const parsed = parseTemplate({
    version: 2,
    name: 'bench',
    mode: 'simple',
    style: { fontId: bundledFontId('caveat'), ...json },
  });
  if (!parsed.ok) throw new Error(parsed.message);
  return (parsed.template as { style: Style }).style;
}

/** `json` with the hand's seed set to `seed` (the rest of the modifiers at their defaults). */
export function seeded(json: Record<string, unknown>, seed: number): Style {
  const style = styleOf(json);
  return { ...style, modifiers: { ...style.modifiers, seed } };
}

if (import.meta.url === `file://${process.argv[1]}`) {
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
}
