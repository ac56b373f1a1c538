// The 100,000-character document once more, in a process of its own, for bench/chromium.ts:
// a warm-up render, then `--runs` timed ones; prints the median in ms.
import { parseArgs } from 'node:util';
import { deflateSync } from 'node:zlib';
import { bundledChain, bundledFontSource } from '../test/helpers/fonts.ts';
import { parseTemplate, type Style } from '../src/domain/template.ts';
import { renderText } from '../src/render/page/document.ts';
import { displayListToPdf } from '../src/render/write/pdf.ts';
import { bundledFontId } from '../src/domain/fonts.ts';
import { PDF_DEFLATE_LEVEL } from '../workers/render-task.ts';
import { prose } from './prose.ts';

export const DOC_STYLE = {
  fontSize: 28,
  lineHeight: 2,
  pageSize: 'A4',
  paper: { type: 'lined', spacing: 10 },
  margins: { top: 20, right: 15, bottom: 15, left: 20 },
};

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

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  const style = styleOf(DOC_STYLE);
  const fonts = bundledChain(bundledFontSource('caveat'));
  const text = prose(100_000);
  const times: number[] = [];
  // One compressor for the thread, as a render worker has (its compressed glyph forms are kept).
  const deflate = (b: Uint8Array) => deflateSync(b, { level: PDF_DEFLATE_LEVEL });
  for (let i = 0; i <= Number(values.runs); i++) {
    const t0 = performance.now();
    displayListToPdf(renderText({ style, text, fonts }), { deflate });
    if (i > 0) times.push(performance.now() - t0);
  }
  process.stdout.write(`${[...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]}\n`);
}
