// A personal font built from filled sample-sheet pages, on a render thread: each picture decoded
// in full (the upload's decoders), made grey, read as a sheet page (the engine's reader), then
// the font built from the pages with Potrace as the tracer. A picture that is not a readable
// page, or pages that make no font, come back as a refusal naming which and why.
import { createHash } from 'node:crypto';
import type { HandBuildResult, HandBuildTask, ImageCheck } from '../src/app/ports/renderer.ts';
import {
  buildHand,
  exportedFont,
  HandBuildError,
  type RedonePage,
  readSheetScan,
  type SheetCode,
  type SheetScan,
  SheetScanError,
} from '../src/foundry/index.ts';
import { decodeImage } from './image-check.ts';
import { traceInk } from './trace.ts';

/**
 * Pages read lately on this thread, by their picture's digest: a hand's preview after each edit
 * builds from the same pictures, and reading a page (decoding its JPEG, finding the sheet) costs
 * more than building from it. A page read keeps its boxes' ink, about 1.6 MB.
 */
const readPages = new Map<string, SheetScan>();
const READ_PAGES_KEPT = 6;

/** A picture read as a sheet page: the page, why it is not one, or why it does not decode. */
async function readPicture(scan: ImageCheck): Promise<SheetScan | SheetScanError | string> {
  const digest = createHash('sha256').update(scan.bytes).digest('hex');
  const kept = readPages.get(digest);
  if (kept) {
    // Most recently used: to the end of the order.
    readPages.delete(digest);
    readPages.set(digest, kept);
    return kept;
  }
  const decoded = decodeImage(scan);
  if (!decoded.ok) return decoded.message;
  const { width, height, rgba } = decoded;
  const gray = new Uint8Array(width * height);
  for (let p = 0; p < gray.length; p++)
    // Rec. 601 luma; a pen's blue or black reads dark either way.
    gray[p] = (rgba[p * 4]! * 299 + rgba[p * 4 + 1]! * 587 + rgba[p * 4 + 2]! * 114) / 1000;
  let page: SheetScan;
  try {
    page = await readSheetScan({ width, height, data: gray });
  } catch (err) {
    if (err instanceof SheetScanError) return err;
    throw err;
  }
  if (readPages.size >= READ_PAGES_KEPT) readPages.delete(readPages.keys().next().value!);
  readPages.set(digest, page);
  return page;
}

export async function buildHandTask(task: HandBuildTask): Promise<HandBuildResult> {
  const pages: SheetScan[] = [];
  const redone: RedonePage[] = [];
  /** Each picture's page, in the order given. */
  const codes: SheetCode[] = [];
  for (const [i, scan] of task.scans.entries()) {
    const read = await readPicture(scan);
    if (typeof read === 'string')
      return { ok: false, reason: 'not-an-image', message: `scan ${i + 1}: ${read}`, scan: i };
    if (read instanceof SheetScanError)
      return { ok: false, reason: read.reason, message: `scan ${i + 1}: ${read.message}`, scan: i };
    codes.push(read.code);
    if (scan.redo) redone.push({ page: read, drawings: scan.redo });
    else pages.push(read);
  }
  try {
    const built = await buildHand({
      name: task.name,
      pages,
      redone,
      ...(task.edits ? { edits: task.edits } : {}),
      createdAt: new Date(task.createdAt),
      trace: traceInk,
      strokes: !task.preview,
    });
    // A build is given back too, as OpenType and WOFF2 (Google's encoder, loaded with the first build).
    const otf = task.preview ? null : exportedFont(built.bytes);
    const exported = otf ? { otf, woff2: await (await import('wawoff2')).compress(otf) } : undefined;
    return {
      ok: true,
      bytes: built.bytes,
      ...(exported ? { exported } : {}),
      pages: codes,
      characters: built.characters,
      paths: built.paths,
      warnings: built.warnings,
      measured: built.measured,
    };
  } catch (err) {
    if (err instanceof HandBuildError)
      return {
        ok: false,
        reason: err.reason,
        message: err.message,
        pages: [...pages, ...redone.map((r) => r.page)].map((p) => p.code),
      };
    throw err;
  }
}
