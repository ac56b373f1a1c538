// The documents the Chromium benchmark gives both sides, and our side of it: a process of its
// own (as Chromium's are) that renders on request, one JSON line in, one out.
//
//   {"kind":"letter","i":7}  a one-page A5 letter, its own text and seed
//   {"kind":"doc","seed":3}  the 100,000-character document in seed 3
//   → {"ms":…, "cpuMs":…, "bytes":…}  wall time, the process's CPU time (all its threads), size
import { createInterface } from 'node:readline';
import { deflateSync } from 'node:zlib';
import { bundledChain, bundledFontSource } from '../test/helpers/fonts.ts';
import { parseTemplate, type Style } from '../src/domain/template.ts';
import { renderText } from '../src/render/page/document.ts';
import { displayListToPdf } from '../src/render/write/pdf.ts';
import { bundledFontId } from '../src/domain/fonts.ts';
import { deflateFont, PDF_DEFLATE_LEVEL } from '../workers/render-task.ts';
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
  const fonts = bundledChain(bundledFontSource('caveat'));
  const doc = prose(100_000);
  // One compressor for the process, as a render worker has.
  const deflate = (b: Uint8Array) => deflateSync(b, { level: PDF_DEFLATE_LEVEL });
  const render = (req: { kind: 'letter'; i: number } | { kind: 'doc'; seed: number }) => {
    const [style, text] =
      req.kind === 'letter'
        ? [seeded(LETTER_STYLE, 1000 + req.i), letterText(req.i)]
        : [seeded(DOC_STYLE, req.seed), doc];
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const pdf = displayListToPdf(renderText({ style, text, fonts }), { deflate, deflateFont });
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    return { ms, cpuMs: (cpu.user + cpu.system) / 1000, bytes: pdf.length };
  };
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    process.stdout.write(`${JSON.stringify(render(JSON.parse(line)))}\n`);
  }
}
