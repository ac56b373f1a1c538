// resvg's images drawn on a test's own thread. Their pixels are native memory that V8 does not
// count, freed once a collection finds their wrappers and the event loop turns
// (workers/native-memory.ts): a test that draws many in a row without either holds them all
// (gigabytes of pages) and faults fresh memory in for each.
import { collect } from '../../src/lib/gc.ts';

/** As a render thread does after an image: the young generation collected, the event loop turned. */
export async function freeImages(): Promise<void> {
  collect({ type: 'minor' });
  await new Promise((resolve) => setImmediate(resolve));
}
