// What a font file is: names, glyph count and the scripts its cmap covers. Pure: bytes in,
// facts out. A file that is not an sfnt font, or has no glyphs or no cmap, is refused.
import * as hb from 'harfbuzzjs';

/** Core letters of each script; a script counts as covered when the cmap has enough of them. */
const SCRIPT_CORES: { script: string; ranges: [number, number][]; need: number }[] = [
  {
    script: 'Latin',
    ranges: [
      [0x41, 0x5a],
      [0x61, 0x7a],
    ],
    need: 52,
  },
  { script: 'Latin Extended', ranges: [[0xc0, 0x17f]], need: 180 },
  {
    script: 'Greek',
    ranges: [
      [0x391, 0x3a1],
      [0x3a3, 0x3a9],
      [0x3b1, 0x3c9],
    ],
    need: 48,
  },
  { script: 'Cyrillic', ranges: [[0x410, 0x44f]], need: 64 },
  { script: 'Hebrew', ranges: [[0x5d0, 0x5ea]], need: 27 },
  {
    script: 'Arabic',
    ranges: [
      [0x621, 0x63a],
      [0x641, 0x64a],
    ],
    need: 36,
  },
  { script: 'Devanagari', ranges: [[0x905, 0x939]], need: 45 },
  { script: 'Thai', ranges: [[0xe01, 0xe3a]], need: 50 },
  { script: 'Hiragana', ranges: [[0x3041, 0x3096]], need: 80 },
  { script: 'Katakana', ranges: [[0x30a1, 0x30fa]], need: 80 },
  { script: 'Hangul', ranges: [[0xac00, 0xd7a3]], need: 2000 },
  { script: 'Han', ranges: [[0x4e00, 0x9fff]], need: 2000 },
];

export interface FontInfo {
  family: string;
  subfamily: string;
  fullName: string;
  upem: number;
  glyphCount: number;
  codepoints: number;
  scripts: string[];
  /** A line the font can write on its own (sampleLineOf); empty when it has no letters. */
  sample: string;
}

const SFNT_MAGICS = new Set([0x00010000, 0x4f54544f /* OTTO */, 0x74727565 /* true */]);

export class NotAFontError extends Error {
  constructor(reason: string) {
    super(`not a usable font: ${reason}`);
    this.name = 'NotAFontError';
  }
}

export function inspectFont(bytes: Uint8Array): FontInfo {
  if (bytes.length < 12) throw new NotAFontError(`${bytes.length} bytes is too short for a font file`);
  const magic = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  if (!SFNT_MAGICS.has(magic))
    throw new NotAFontError(
      'no TrueType or OpenType signature (WOFF, collections and other files are not accepted)',
    );
  const face = new hb.Face(new hb.Blob(bytes), 0);
  const glyphCount = numGlyphs(bytes);
  if (!face.upem || glyphCount === 0) throw new NotAFontError('no glyphs');
  const unicodes = face.collectUnicodes();
  if (unicodes.length === 0) throw new NotAFontError('no character map');
  const have = new Set(unicodes);
  const scripts = coveredScripts(have).map((s) => s.script);
  const family = face.getName(16, 'en') || face.getName(1, 'en');
  if (!family) throw new NotAFontError('no family name');
  return {
    family,
    subfamily: face.getName(17, 'en') || face.getName(2, 'en') || 'Regular',
    fullName: face.getName(4, 'en') || family,
    upem: face.upem,
    glyphCount,
    codepoints: unicodes.length,
    scripts,
    sample: sampleLineOf(have),
  };
}

/**
 * `maxp.numGlyphs`, read from the table directory (OpenType §5: offset table, then 16-byte table
 * records of tag, checksum, offset, length). Not through harfbuzzjs' `Face.referenceTable`: it
 * never releases the table it references, and with it the whole font stays in the wasm heap.
 */
function numGlyphs(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tables = view.getUint16(4);
  for (let i = 0; i < tables && 12 + 16 * i + 16 <= bytes.length; i++) {
    const at = 12 + 16 * i;
    if (view.getUint32(at) !== 0x6d617870 /* maxp */) continue;
    const offset = view.getUint32(at + 8);
    return view.getUint32(at + 12) >= 6 && offset + 6 <= bytes.length ? view.getUint16(offset + 4) : 0;
  }
  return 0;
}

/** Which code points a font file's character map has (the file is checked only as far as that needs). */
export function fontCoverage(bytes: Uint8Array): (codepoint: number) => boolean {
  const have = new Set(new hb.Face(new hb.Blob(bytes), 0).collectUnicodes());
  return (cp) => have.has(cp);
}

const PANGRAM = 'Sphinx of black quartz, judge my vow: 0123456789';

/** The scripts whose core letters a character map has enough of, in SCRIPT_CORES order. */
function coveredScripts(have: ReadonlySet<number>): typeof SCRIPT_CORES {
  return SCRIPT_CORES.filter(({ ranges, need }) => {
    let n = 0;
    for (const [a, b] of ranges) for (let cp = a; cp <= b; cp++) if (have.has(cp)) n++;
    return n >= need;
  });
}

/**
 * A line a font should write on its own: a pangram when it covers Latin, else letters of the
 * first script it covers (or of its character map), in groups like words.
 */
export function sampleLine(bytes: Uint8Array): string {
  return sampleLineOf(new Set(new hb.Face(new hb.Blob(bytes), 0).collectUnicodes()));
}

/** sampleLine for a character map given as its code points. */
export function sampleLineOf(have: ReadonlySet<number>): string {
  const [core] = coveredScripts(have);
  if (core?.script === 'Latin' && [...PANGRAM].every((c) => c === ' ' || have.has(c.codePointAt(0)!)))
    return PANGRAM;
  const pool: number[] = [];
  if (core) {
    for (const [a, b] of core.ranges) for (let cp = a; cp <= b; cp++) if (have.has(cp)) pool.push(cp);
  } else {
    pool.push(...[...have].filter((cp) => cp > 0x20 && cp !== 0x7f && cp !== 0xa0).sort((a, b) => a - b));
  }
  const letters = pool.slice(0, 36).map((cp) => String.fromCodePoint(cp));
  const words: string[] = [];
  for (let i = 0; i < letters.length; i += 6) words.push(letters.slice(i, i + 6).join(''));
  return words.join(' ');
}
