// Characters as the text stage sees them before any font is loaded: which need no glyph, how a
// character is named in a refusal, and which of a text's characters no font can draw.

/** A space of some width (drawn as a gap, no glyph). */
export const isSpace = (cp: number) => cp === 0x20 || cp === 0xa0 || cp === 0x3000 || cp === 0x09;

/** A character as a refusal names it: its code point and itself. */
export const characterName = (cp: number) =>
  `U+${cp.toString(16).toUpperCase().padStart(4, '0')} ${JSON.stringify(String.fromCodePoint(cp))}`;

/**
 * The characters of `text` that none of the fonts can draw, named, in order of first appearance:
 * what layout would refuse, found without laying anything out. Spaces, tabs and line breaks need
 * no glyph.
 */
export function uncoveredCharacters(text: string, covers: readonly ((cp: number) => boolean)[]): string[] {
  const missing = new Set<string>();
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (isSpace(cp) || cp === 0x0a || cp === 0x0d) continue;
    if (!covers.some((c) => c(cp))) missing.add(characterName(cp));
  }
  return [...missing];
}
