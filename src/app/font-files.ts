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

/** The template's font(s) first, then the fallback chain, without repeats. */
export function bundledChain(...first: FontSource[]): FontSource[] {
  const out: FontSource[] = [];
  for (const f of [...first, ...FALLBACK_CHAIN.map(bundledFontSource)]) if (!out.some((o) => o.id === f.id)) out.push(f);
  return out;
}

/** The bold cut of a bundled font (`caveat` → `caveat-bold`), when one ships. */
export function boldCut(slug: string): FontSource | null {
  return BUNDLED_FONTS.some((f) => f.slug === `${slug}-bold`) ? bundledFontSource(`${slug}-bold`) : null;
}
