// Font bytes for the render engine (which does no I/O): bundled fonts from their packages, read
// once per process, and the default fallback chain after a template's own font.
import type { FontSource } from '../render/fonts.ts';
import { BUNDLED_FONTS, bundledFontId, readBundledFont } from '../store/bundled-fonts.ts';

/** Tried in order after the template's font: Latin, Devanagari, Hangul, Arabic hands. */
export const FALLBACK_CHAIN = ['caveat', 'kalam', 'nanum-pen-script', 'aref-ruqaa'] as const;

const cache = new Map<string, FontSource>();

export function bundledFontSource(slug: string): FontSource {
  const known = cache.get(slug);
  if (known) return known;
  const font = BUNDLED_FONTS.find((f) => f.slug === slug);
  if (!font) throw new Error(`no bundled font ${JSON.stringify(slug)}`);
  const source = { id: bundledFontId(slug), bytes: readBundledFont(font) };
  cache.set(slug, source);
  return source;
}

/** The template's font first (when bundled), then the fallback chain without repeats. */
export function bundledChain(primary: FontSource): FontSource[] {
  const rest = FALLBACK_CHAIN.map(bundledFontSource).filter((f) => f.id !== primary.id);
  return [primary, ...rest];
}
