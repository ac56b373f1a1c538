// A personal font built from filled sample-sheet pages, on a render thread: each picture decoded
// in full (the upload's decoders), made grey, read as a sheet page (the engine's reader), then
// the font built from the pages with Potrace as the tracer. A picture that is not a readable
// page, or pages that make no font, come back as a refusal naming which and why.
import type { HandBuildResult, HandBuildTask } from '../src/app/ports/renderer.ts';
import {
  buildHand,
  HandBuildError,
  type RedonePage,
  readSheetScan,
  type SheetCode,
  type SheetScan,
  SheetScanError,
} from '../src/render/index.ts';
import { decodeImage } from './image-check.ts';
import { traceInk } from './trace.ts';

export async function buildHandTask(task: HandBuildTask): Promise<HandBuildResult> {
  const pages: SheetScan[] = [];
  const redone: RedonePage[] = [];
  /** Each picture's page, in the order given. */
  const codes: SheetCode[] = [];
  for (const [i, scan] of task.scans.entries()) {
    const decoded = decodeImage(scan);
    if (!decoded.ok)
      return { ok: false, reason: 'not-an-image', message: `scan ${i + 1}: ${decoded.message}`, scan: i };
    const { width, height, rgba } = decoded;
    const gray = new Uint8Array(width * height);
    for (let p = 0; p < gray.length; p++)
      // Rec. 601 luma; a pen's blue or black reads dark either way.
      gray[p] = (rgba[p * 4]! * 299 + rgba[p * 4 + 1]! * 587 + rgba[p * 4 + 2]! * 114) / 1000;
    try {
      const page = await readSheetScan({ width, height, data: gray });
      codes.push(page.code);
      if (scan.redo) redone.push({ page, drawings: scan.redo });
      else pages.push(page);
    } catch (err) {
      if (err instanceof SheetScanError)
        return { ok: false, reason: err.reason, message: `scan ${i + 1}: ${err.message}`, scan: i };
      throw err;
    }
  }
  try {
    const built = await buildHand({
      name: task.name,
      pages,
      redone,
      ...(task.edits ? { edits: task.edits } : {}),
      createdAt: new Date(task.createdAt),
      trace: traceInk,
    });
    return {
      ok: true,
      bytes: built.bytes,
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
