// Font bytes where the rendering happens: bundled fonts read from their packages once per
// thread, personal fonts as the task brings them.
import { bundledFont } from '../src/domain/fonts.ts';
import { readBundledFont } from '../src/lib/font-files.ts';

const cache = new Map<string, Uint8Array>();

/** The bytes of every font in `ids`: from `given` (personal fonts), else bundled. */
export function fontBytes(
  ids: Iterable<string>,
  given: Record<string, Uint8Array> = {},
): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  for (const id of ids) out[id] = given[id] ?? bundledBytes(id);
  return out;
}

function bundledBytes(id: string): Uint8Array {
  let bytes = cache.get(id);
  if (!bytes) {
    const font = bundledFont(id);
    if (!font) throw new Error(`font ${id} is neither bundled nor given with the task`);
    bytes = readBundledFont(font);
    cache.set(id, bytes);
  }
  return bytes;
}
