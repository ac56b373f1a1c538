// One render task in a worker thread: plain data in (template style, text, font ids, seed,
// limits), bytes out by transfer. Fonts are read once per thread and stay loaded.
import { deflateSync } from 'node:zlib';
import { Piscina } from 'piscina';
import { bundledChain, bundledFontSource } from '../src/app/font-files.ts';
import type { Style } from '../src/domain/template.ts';
import { renderText } from '../src/render/document.ts';
import { displayListToPdf } from '../src/render/pdf.ts';
import type { FontSource } from '../src/render/fonts.ts';
import { RenderError } from '../src/render/text-layout.ts';

/** zlib level for PDF streams: level 1 is 3x quicker than 6 for about 15 % more bytes. */
export const PDF_DEFLATE_LEVEL = 1;

export interface RenderTask {
  kind: 'pdf';
  style: Style;
  text: string;
  /** The template's font: a bundled slug, or the bytes of a personal font. */
  font: { slug: string } | FontSource;
  createdAt: string;
  maxPages: number;
  maxBytes: number;
}

export type RenderResult =
  | { ok: true; pages: number; bytes: Uint8Array }
  /** A refusal of the input (characters no font has, too many pages, too large): not a crash. */
  | { ok: false; code: RenderError['code']; message: string };

export default function run(task: RenderTask): RenderResult {
  const primary = 'slug' in task.font ? bundledFontSource(task.font.slug) : task.font;
  let result: RenderResult;
  try {
    const list = renderText({ style: task.style, text: task.text, fonts: bundledChain(primary), limits: { maxPages: task.maxPages } });
    const bytes = displayListToPdf(list, { deflate: (b) => deflateSync(b, { level: PDF_DEFLATE_LEVEL }), createdAt: task.createdAt, maxBytes: task.maxBytes });
    result = { ok: true, pages: list.pages.length, bytes };
  } catch (err) {
    // Errors lose their class crossing threads: refusals come back as values.
    if (err instanceof RenderError) return { ok: false, code: err.code, message: err.message };
    throw err;
  }
  // The bytes are transferred, not copied: the result names its buffer as transferable.
  return Piscina.move({ [Piscina.transferableSymbol]: result.bytes.buffer, [Piscina.valueSymbol]: result } as never) as unknown as RenderResult;
}
