// The shared handwriting fonts that ship with the service (npm packages with the TTF files), and
// which of them a document falls back to. Their ids are stable (derived from the slug) so
// templates stay portable between installs. The files are read by src/lib/font-files.ts.
import { createHash } from 'node:crypto';
import { base62, ID_RANDOM_CHARS } from './ids.ts';
import { Refusal } from './errors.ts';

/** The largest font file accepted. */
export const FONT_MAX_BYTES = 20 * 1024 * 1024;

export interface BundledFont {
  slug: string;
  name: string;
  /** Module specifier of the TTF file, resolved at run time. */
  module: string;
  premium: boolean;
  license: 'OFL-1.1' | 'Apache-2.0';
  /**
   * Scripts the file covers in type, not in a hand (Aref Ruqaa's Latin letters are a book
   * serif): left out of the font's scripts, and their letters written by the next font.
   */
  typeset?: string[];
}

const ofl = (slug: string, name: string, module: string, premium = false): BundledFont => ({
  slug,
  name,
  module: `@expo-google-fonts/${module}`,
  premium,
  license: 'OFL-1.1',
});

export const BUNDLED_FONTS: BundledFont[] = [
  ofl('caveat', 'Caveat', 'caveat/400Regular/Caveat_400Regular.ttf'),
  ofl('caveat-bold', 'Caveat Bold', 'caveat/700Bold/Caveat_700Bold.ttf'),
  ofl('indie-flower', 'Indie Flower', 'indie-flower/400Regular/IndieFlower_400Regular.ttf'),
  ofl('kalam', 'Kalam', 'kalam/400Regular/Kalam_400Regular.ttf'),
  ofl('kalam-bold', 'Kalam Bold', 'kalam/700Bold/Kalam_700Bold.ttf'),
  ofl('patrick-hand', 'Patrick Hand', 'patrick-hand/400Regular/PatrickHand_400Regular.ttf'),
  ofl('gochi-hand', 'Gochi Hand', 'gochi-hand/400Regular/GochiHand_400Regular.ttf'),
  ofl(
    'shadows-into-light',
    'Shadows Into Light',
    'shadows-into-light/400Regular/ShadowsIntoLight_400Regular.ttf',
  ),
  ofl('nanum-pen-script', 'Nanum Pen Script', 'nanum-pen-script/400Regular/NanumPenScript_400Regular.ttf'),
  {
    ...ofl('aref-ruqaa', 'Aref Ruqaa', 'aref-ruqaa/400Regular/ArefRuqaa_400Regular.ttf'),
    typeset: ['Latin', 'Latin Extended'],
  },
  ofl('dancing-script', 'Dancing Script', 'dancing-script/400Regular/DancingScript_400Regular.ttf', true),
  ofl('reenie-beanie', 'Reenie Beanie', 'reenie-beanie/400Regular/ReenieBeanie_400Regular.ttf', true),
  {
    slug: 'homemade-apple',
    name: 'Homemade Apple',
    module: '@expo-google-fonts/homemade-apple/400Regular/HomemadeApple_400Regular.ttf',
    premium: true,
    license: 'Apache-2.0',
  },
];

/** A stable id for a bundled font: same slug, same id, on every install. */
export function bundledFontId(slug: string): string {
  return `font_${base62(createHash('sha256').update(`bundled:${slug}`).digest().subarray(0, 16), ID_RANDOM_CHARS)}`;
}

const byId = new Map(BUNDLED_FONTS.map((f) => [bundledFontId(f.slug), f]));

/** The bundled font of this id; undefined for a personal or unknown font. */
export function bundledFont(id: string): BundledFont | undefined {
  return byId.get(id);
}

/** Tried in order after a template's own fonts: Latin, Devanagari, Hangul, Arabic hands. */
export const FALLBACK_CHAIN = ['caveat', 'kalam', 'nanum-pen-script', 'aref-ruqaa'] as const;

/** Written across previews. */
export const WATERMARK_FONT = 'caveat-bold';

/** The bold cut of a bundled font (`caveat` → `caveat-bold`) when one ships. */
export function boldCutId(id: string): string | null {
  const font = bundledFont(id);
  return font && byId.has(bundledFontId(`${font.slug}-bold`)) ? bundledFontId(`${font.slug}-bold`) : null;
}

/** The scripts a bundled font writes by hand: those its file covers (`covered`) less those it has only in type. */
export function handwrittenScripts(font: BundledFont, covered: string[]): string[] {
  return covered.filter((s) => !font.typeset?.includes(s));
}

/** The fonts among `ids` with scripts only in type, by id: what the engine leaves to the next font. */
export function typesetScripts(ids: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const id of ids) {
    const typeset = bundledFont(id)?.typeset;
    if (typeset) out[id] = typeset;
  }
  return out;
}

/** These fonts first, then the fallback chain, without repeats. */
export function fallbackChain(...first: string[]): string[] {
  return [...new Set([...first, ...FALLBACK_CHAIN.map(bundledFontId)])];
}

/** How many personal fonts an account may hold, and their bytes together. */
/** The license of an account's own font: usable by its live and test keys. */
export const PERSONAL_LICENSE = 'personal';
/**
 * The license of a hand built on a plan without personal fonts (docs/decisions.md, "A hand for
 * every plan"): its test keys write with it; its live keys once the account's plan includes
 * personal fonts, which makes it personal.
 */
export const TRIAL_LICENSE = 'trial';

export interface FontQuota {
  maxCount: number;
  maxTotalBytes: number;
}

/** Null when a font of `bytes` fits the account's quota beside `used`, else why not. */
export function overFontQuota(
  used: { count: number; bytes: number },
  bytes: number,
  quota: FontQuota,
): Refusal | null {
  if (used.count + 1 > quota.maxCount)
    return new Refusal(
      'invalid',
      `an account may hold at most ${quota.maxCount} personal fonts, it holds ${used.count} already: delete one first`,
    );
  if (used.bytes + bytes > quota.maxTotalBytes)
    return new Refusal(
      'invalid',
      `an account's personal fonts may total at most ${quota.maxTotalBytes} bytes, it holds ${used.bytes} and this one is ${bytes}`,
      { field: 'body' },
    );
  return null;
}
