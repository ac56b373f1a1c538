// Bundled fonts as the engine's tests take them: bytes by id, the fallback chain, bold cuts.
import { boldCutId, bundledFontId, fallbackChain } from '../../src/domain/fonts.ts';
import type { FontSource } from '../../src/render/index.ts';
import { fontBytes } from '../../workers/fonts.ts';

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
