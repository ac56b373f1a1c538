// One render task in a worker thread: plain data in (template style, text, font ids, seed,
// limits), bytes out by transfer: a PDF, or a preview's JSON of watermarked PNG pages. Fonts
// are read once per thread and stay loaded.
import { deflateSync } from 'node:zlib';
import { Piscina } from 'piscina';
import { boldCut, bundledChain, bundledFontSource } from '../src/app/font-files.ts';
import { releaseImageMemory } from '../src/app/native-memory.ts';
import { decodePng } from '../src/app/png-decode.ts';
import type { DocBlock } from '../src/domain/document.ts';
import type { Style } from '../src/domain/template.ts';
import type { DisplayList } from '../src/render/display-list.ts';
import { renderText } from '../src/render/document.ts';
import { renderBlocks } from '../src/render/flow.ts';
import { displayListToPdf } from '../src/render/pdf.ts';
import type { FontSource } from '../src/render/fonts.ts';
import { pageToPng } from '../src/render/png.ts';
import { type AssetBytes, pageToSvg } from '../src/render/svg.ts';
import { RenderError } from '../src/render/text-layout.ts';
import { addWatermark } from '../src/render/watermark.ts';

/** zlib level for PDF streams: level 1 is 3x quicker than 6 for about 15 % more bytes. */
export const PDF_DEFLATE_LEVEL = 1;

export interface RenderTask {
  /**
   * `pdf`: the document. `preview`: the first pages as watermarked PNGs, in one JSON body.
   * `svg`, `png`: one page, synchronously (POST /renders), PNG at 144 DPI.
   */
  kind: 'pdf' | 'preview' | 'svg' | 'png';
  style: Style;
  text: string;
  /** The template's font: a bundled slug, or the bytes of a personal font. */
  font: FontRef;
  /** Structured documents: the blocks to lay out instead of `text`. */
  blocks?: DocBlock[];
  /** Headings' font (a legacy template's second font); else the bold cut of `font`, or `font` gone over twice. */
  headingFont?: FontRef;
  /** Further fonts tried before the bundled fallback chain (a legacy template's third and later). */
  fallbackFonts?: FontRef[];
  /** Pixel sizes and bytes of the images the document places (blocks and background). */
  images?: Record<string, { width: number; height: number }>;
  assets?: AssetBytes;
  createdAt: string;
  maxPages: number;
  maxBytes: number;
  /** Renders: the most lines after wrapping. */
  maxLines?: number;
  /** Preview: pages drawn, and their resolution. */
  previewPages?: number;
  previewDpi?: number;
  /** Preview: the job id, written into the JSON body. */
  jobId?: string;
}

export type FontRef = { slug: string } | FontSource;

export type RenderResult =
  | { ok: true; pages: number; bytes: Uint8Array }
  /** A refusal of the input (characters no font has, too many pages, too large): not a crash. */
  | { ok: false; code: RenderError['code']; message: string };

type Done = Extract<RenderResult, { ok: true }>;

const deflate = (b: Uint8Array) => deflateSync(b, { level: PDF_DEFLATE_LEVEL });

export default function run(task: RenderTask): RenderResult | Promise<RenderResult> {
  const result = render(task);
  if (task.kind !== 'png' && task.kind !== 'preview') return result;
  // Between tasks piscina keeps the thread blocked, off its event loop: let the loop turn once
  // here, so that the collected images' native memory is freed (src/app/native-memory.ts).
  return new Promise((resolve) => setImmediate(() => resolve(result)));
}

const source = (f: FontRef): FontSource => ('slug' in f ? bundledFontSource(f.slug) : f);

function render(task: RenderTask): RenderResult {
  const primary = source(task.font);
  let result: Done;
  try {
    result = task.kind === 'pdf' ? pdf(task) : task.kind === 'preview' ? preview(task) : image(task, primary);
  } catch (err) {
    // Errors lose their class crossing threads: refusals come back as values.
    if (err instanceof RenderError) return { ok: false, code: err.code, message: err.message };
    throw err;
  }
  // The bytes are transferred, not copied: the result names its buffer as transferable.
  return Piscina.move({ [Piscina.transferableSymbol]: result.bytes.buffer, [Piscina.valueSymbol]: result } as never) as unknown as RenderResult;
}

/** The document's pages: simple text, or the blocks of a structured one. */
export function layout(task: RenderTask, limits: { maxPages: number; firstPages?: number }): DisplayList {
  const fonts = bundledChain(source(task.font), ...(task.fallbackFonts ?? []).map(source));
  if (!task.blocks) return renderText({ style: task.style, text: task.text, fonts, limits });
  // Headings: the bold cut of their font when one ships, else that font gone over twice.
  const heading = task.headingFont ?? task.font;
  const bold = 'slug' in heading ? boldCut(heading.slug) : null;
  const headingFonts = bundledChain(bold ?? source(heading), ...fonts);
  return renderBlocks({
    style: task.style,
    blocks: task.blocks,
    fonts,
    headings: { fonts: headingFonts, overstrike: !bold },
    images: task.images ?? {},
    limits,
  });
}

function pdf(task: RenderTask): Done {
  const list = layout(task, { maxPages: task.maxPages });
  const bytes = displayListToPdf(list, { deflate, createdAt: task.createdAt, maxBytes: task.maxBytes, assets: task.assets, decodePng });
  return { ok: true, pages: list.pages.length, bytes };
}

/** One page as SVG or PNG (POST /renders): over one page, over the line limit or over the size limit is refused. */
function image(task: RenderTask, primary: FontSource): Done {
  const list = renderText({ style: task.style, text: task.text, fonts: bundledChain(primary), limits: { maxPages: task.maxPages, maxLines: task.maxLines } });
  const page = list.pages[0]!;
  let bytes: Uint8Array;
  if (task.kind === 'svg') bytes = new TextEncoder().encode(pageToSvg(list, page));
  else {
    bytes = pageToPng(list, page, 144, { deflate });
    releaseImageMemory();
  }
  if (bytes.length > task.maxBytes) throw new RenderError('OUTPUT_TOO_LARGE', `the image would be ${bytes.length} bytes, the most allowed is ${task.maxBytes}`);
  return { ok: true, pages: 1, bytes };
}

/** The preview body of GET /generations/{id}/preview (DESIGN §4), made here so the API only streams it. */
function preview(task: RenderTask): Done {
  const dpi = task.previewDpi ?? 96;
  const list = layout(task, { maxPages: Number.POSITIVE_INFINITY, firstPages: task.previewPages ?? 4 });
  addWatermark(list, bundledFontSource('caveat-bold'));
  const pages = list.pages.map((page, i) => {
    const png = pageToPng(list, page, dpi, { deflate, assets: task.assets });
    const view = new DataView(png.buffer, png.byteOffset);
    return { page: i + 1, width: view.getUint32(16), height: view.getUint32(20), contentType: 'image/png', data: Buffer.from(png).toString('base64') };
  });
  releaseImageMemory();
  const bytes = new TextEncoder().encode(JSON.stringify({ id: task.jobId, pages }));
  return { ok: true, pages: pages.length, bytes };
}
