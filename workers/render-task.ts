// One render request → bytes, through the engine's door: a PDF, one page as SVG, PNG or a pen
// plotter's strokes, or a preview's JSON of watermarked PNG pages. Both renderer adapters run it
// (piscina threads, or in process for fast tests). Fonts are read once per thread and stay loaded.
import { crc32 } from 'node:zlib';
import type { Rendered, RenderRequest, RenderResult } from '../src/app/ports/renderer.ts';
import { bundledFontId, WATERMARK_FONT } from '../src/domain/fonts.ts';
import {
  assetBytes,
  forgetFont,
  layout,
  PdfDocument,
  RenderError,
  type Resources,
  resourcesOf,
  writePng,
  writePreview,
  writeStrokes,
  writeSvg,
} from '../src/render/index.ts';
import { zlibDeflate } from './deflate.ts';
import { fontBytes } from './fonts.ts';
import { releaseFontMemory, releaseImageMemory } from './native-memory.ts';
import { decodePng } from './png-decode.ts';
import { resvgRasterizer as raster } from './resvg.ts';

/**
 * libdeflate's level for PDF streams (font programs included) and PNG pixels: its quickest. Level
 * 2 wrote a document's content streams 4 % smaller in 1.7x the time (docs/decisions.md, "Deflate").
 */
export const DEFLATE_LEVEL = 1;

/** PDF streams, font programs and images' pixels: libdeflate (workers/deflate.ts). */
export const deflateStream = (b: Uint8Array) => zlibDeflate(b, DEFLATE_LEVEL);
/** What the PNG writer compresses and checks its chunks with: libdeflate, and zlib's (native) CRC-32. */
export const pngZlib = { deflate: deflateStream, crc32: (b: Uint8Array) => crc32(b) };

/** Renders a request; a refusal of the input comes back as a value (errors lose their class crossing threads). */
export function renderRequest(req: RenderRequest): RenderResult {
  try {
    return render(req);
  } catch (err) {
    if (err instanceof RenderError) return { ok: false, code: err.code, message: err.message };
    throw err;
  } finally {
    if (req.once) {
      for (const id of Object.keys(req.fonts)) forgetFont(id);
      releaseFontMemory();
    }
  }
}

/** The fonts and images of a request, as the engine takes them. */
export function resources(req: RenderRequest): Resources {
  return { fonts: fontBytes(resourcesOf(req.spec).fonts, req.fonts), images: req.images };
}

function render(req: RenderRequest): Rendered {
  const { limits } = req;
  switch (req.output) {
    case 'pdf': {
      // Written a page at a time: a page of simple text goes to the PDF as soon as it is laid
      // out, and its display list with it (a structured document's pages come in the list).
      const res = resources(req);
      const pdf = new PdfDocument({
        deflate: deflateStream,
        createdAt: req.createdAt,
        maxBytes: limits.maxBytes,
        assets: assetBytes(res),
        decodePng,
      });
      const list = layout(req.spec, res, { maxPages: limits.maxPages }, (page, glyphs) =>
        pdf.add(page, glyphs),
      );
      for (const page of list.pages) pdf.add(page, list.glyphs);
      const bytes = pdf.finish(list.glyphs);
      return { ok: true, pages: pdf.pages, bytes };
    }
    case 'preview':
      return preview(req);
    case 'draft':
      return draft(req);
    default:
      return image(req);
  }
}

/**
 * One page as SVG, PNG or a pen plotter's strokes (POST /renders): over one page, over the line
 * limit or over the size limit is refused.
 */
function image(req: RenderRequest): Rendered {
  const list = layout(req.spec, resources(req), {
    maxPages: req.limits.maxPages,
    maxLines: req.limits.maxLines,
    centrelines: req.output === 'strokes',
  });
  const page = list.pages[0]!;
  let bytes: Uint8Array;
  if (req.output === 'svg')
    bytes = new TextEncoder().encode(writeSvg(list, page, { deflate: deflateStream }));
  else if (req.output === 'strokes')
    bytes = new TextEncoder().encode(writeStrokes(list, page, { color: req.spec.style.color }));
  else {
    bytes = writePng(list, page, 144, { raster, ...pngZlib });
    releaseImageMemory();
  }
  const max = req.limits.maxBytes;
  if (bytes.length > max)
    throw new RenderError(
      'OUTPUT_TOO_LARGE',
      `the image would be ${bytes.length} bytes, the most allowed is ${max}`,
    );
  return { ok: true, pages: 1, bytes };
}

/**
 * The builder's preview: the first page as a PNG at `previewDpi`, laid out as in the whole
 * document (more than `maxPages` is refused), with no watermark.
 */
function draft(req: RenderRequest): Rendered {
  const res = resources(req);
  const list = layout(req.spec, res, { maxPages: req.limits.maxPages, firstPages: 1 });
  const bytes = writePng(list, list.pages[0]!, req.limits.previewDpi ?? 96, {
    raster,
    ...pngZlib,
    assets: assetBytes(res),
  });
  releaseImageMemory();
  return { ok: true, pages: list.pages.length, bytes };
}

/** The preview body of GET /generations/{id}/preview (DESIGN §4), made here so the API only streams it. */
function preview(req: RenderRequest): Rendered {
  const res = resources(req);
  const list = layout(req.spec, res, {
    maxPages: Number.POSITIVE_INFINITY,
    firstPages: req.limits.previewPages ?? 4,
  });
  const watermark = bundledFontId(WATERMARK_FONT);
  const drawn = writePreview(list, {
    watermarkFont: { id: watermark, bytes: fontBytes([watermark])[watermark]! },
    dpi: req.limits.previewDpi ?? 96,
    raster,
    ...pngZlib,
    assets: assetBytes(res),
  });
  const pages = drawn.map(({ png, ...p }) => ({
    ...p,
    contentType: 'image/png',
    data: Buffer.from(png).toString('base64'),
  }));
  releaseImageMemory();
  const bytes = new TextEncoder().encode(JSON.stringify({ id: req.jobId, pages }));
  return { ok: true, pages: pages.length, bytes };
}
