// Bundled fonts as the engine's tests take them: bytes by id, the fallback chain, bold cuts.
import { BUNDLED_FONTS, boldCutId, bundledFontId, fallbackChain } from '../../src/domain/fonts.ts';
import type { FontSource } from '../../src/render/index.ts';
import { fontBytes } from '../../workers/fonts.ts';

/** Every bundled hand, by slug (the bold cuts are the same hands). */
export const HANDS = BUNDLED_FONTS.map((f) => f.slug).filter((s) => !s.endsWith('-bold'));

const source = (id: string): FontSource => ({ id, bytes: fontBytes([id])[id]! });

export function bundledFontSource(slug: string): FontSource {
  return source(bundledFontId(slug));
}

/** These fonts first, then the fallback chain, without repeats. */
export function bundledChain(...first: FontSource[]): FontSource[] {
  const given = new Map(first.map((f) => [f.id, f]));
  return fallbackChain(...first.map((f) => f.id)).map((id) => given.get(id) ?? source(id));
}

export function boldCut(slug: string): FontSource | null {
  const id = boldCutId(bundledFontId(slug));
  return id ? source(id) : null;
}

/**
 * A font file of `size` bytes: the font with a table of zeros added (tag `zpad`, sorted last),
 * its other tables moved to make room in the directory. It parses and draws as the font does.
 */
export function paddedFont(font: Uint8Array, size: number): Buffer {
  const src = Buffer.from(font);
  const count = src.readUInt16BE(4);
  const dirEnd = 12 + 16 * count;
  const dataStart = dirEnd + 16;
  const body = src.subarray(dirEnd);
  const padAt = dataStart + body.length + ((4 - (body.length % 4)) % 4);
  if (size < padAt) throw new Error(`a padded font is at least ${padAt} bytes`);
  const out = Buffer.alloc(size);
  src.copy(out, 0, 0, 12);
  out.writeUInt16BE(count + 1, 4);
  for (let i = 0; i < count; i++) {
    const at = 12 + 16 * i;
    src.copy(out, at, at, at + 16);
    out.writeUInt32BE(src.readUInt32BE(at + 8) + 16, at + 8);
  }
  out.write('zpad', dirEnd, 'latin1');
  out.writeUInt32BE(padAt, dirEnd + 8);
  out.writeUInt32BE(size - padAt, dirEnd + 12);
  body.copy(out, dataStart);
  return out;
}
