// V8's heap as a render thread wants it. Set for the whole process (V8's flags are the
// process's, not a thread's) before the first render thread starts.
import { setFlagsFromString } from 'node:v8';

/**
 * Turns V8's allocation-site pretenuring off. V8 watches where objects are made and, when most
 * made at one place outlive a young-generation collection, makes them there in the old
 * generation from then on. A render thread's letters are made and let go page by page, but
 * early in a thread's life V8 decided so for each letter's placement, its hand and its display
 * item (why, V8's statistics do not say), and never decided back: about
 * 50 MB of them a 100,000-character document went to the old generation to be found dead by
 * its slow collections (docs/decisions.md, "Render engine").
 */
export function tuneRenderHeap(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
