// resvg keeps each rendered image (and its working copies) in native memory, allocated by the
// mimalloc it is built with, which V8 does not see. Two things make that memory expensive:
// V8 collects when its own heap fills, which a render barely touches, so the objects holding it
// live on and every PNG is drawn into fresh pages; and mimalloc hands freed pages back to the
// kernel after 10 ms, so the next render faults them in again. On this machine either costs
// 3,000-5,000 page faults and 10-15 ms for a 1 MP image. Hence: a young-generation collection
// after each image resvg drew (about 0.3 ms; the addon's finalizers free the memory when the
// thread's event loop turns; a page the engine painted itself holds none), and freed pages kept
// for a second. mimalloc reads its options from the process's
// environment when the addon loads, so the main thread sets them (tuneImageAllocator() in
// src/config) before resvg is loaded anywhere: worker threads cannot change the process's
// environment.
import { collect as gc } from '../src/lib/gc.ts';

/**
 * Call after dropping a font from the thread's cache, before the task returns. Its HarfBuzz
 * objects are freed by their finalizers once the collector finds them unreachable (and the event
 * loop turns): without a full collection here a dropped font (8 MiB, say) stays taken in the wasm
 * heap, which never shrinks, until one comes, and the next font grows the heap further.
 */
export function releaseFontMemory(): void {
  gc({ type: 'major' });
}

let drawn = false;

/** Called by the rasterizer (workers/resvg.ts) for each image resvg draws. */
export function noteNativeImage(): void {
  drawn = true;
}

/** Call after a PNG render, before the task returns: a collection only if resvg drew an image since the last. */
export function releaseImageMemory(): void {
  if (!drawn) return;
  drawn = false;
  gc({ type: 'minor' });
}
