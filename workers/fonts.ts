// Font bytes where the rendering happens: bundled fonts read from their packages once per
// thread, personal fonts as the task brings them. And the bundled hands' strokes, read when the
// release was built (workers/strokes-ahead.ts, into dist/server/strokes/): the engine is told where
// they are when the thread first asks for fonts, and takes them where they were read from the file
// it writes with.
import { readFileSync } from 'node:fs';
import { envValue } from '../src/config/env.ts';
import { bundledFont } from '../src/domain/fonts.ts';
import { readBundledFont } from '../src/lib/font-files.ts';
import { packageFile } from '../src/lib/package-files.ts';
import { type StrokesAhead, strokesReadAhead } from '../src/render/index.ts';

const cache = new Map<string, Uint8Array>();
/** Whether the engine has been told where the strokes read ahead are. */
let told = false;

/** The bytes of every font in `ids`: from `given` (personal fonts), else bundled. */
export function fontBytes(
  ids: Iterable<string>,
  given: Record<string, Uint8Array> = {},
): Record<string, Uint8Array> {
  if (!told) {
    strokesReadAhead(strokesAhead);
    told = true;
  }
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

const ahead = new Map<string, StrokesAhead | undefined>();

/**
 * The strokes read ahead for a bundled font, once per thread; none for another font, before a
 * build, or while developing from the sources (`npm run dev`), which may be newer than the build.
 */
export function strokesAhead(id: string): StrokesAhead | undefined {
  if (!ahead.has(id)) {
    const font = envValue('SCRIPTORIUM_FROM_SOURCE') === '1' ? undefined : bundledFont(id);
    let read: StrokesAhead | undefined;
    try {
      read =
        font &&
        JSON.parse(readFileSync(packageFile('dist', 'server', 'strokes', `${font.slug}.json`), 'utf8'));
    } catch {
      read = undefined;
    }
    ahead.set(id, read);
  }
  return ahead.get(id);
}
