// Template colours (#rgb or #rrggbb, validated at import) as 0-255 channels.
import type { DisplayPage } from './display-list.ts';
/** ⌊x / 255⌋ for 0 ≤ x < 65536, in integers: a channel blended in 1/255 steps. */
export const div255 = (x: number) => (x + 1 + (x >> 8)) >> 8;

export function hexRgb(hex: string): [number, number, number] {
  const h = hex.length === 4 ? hex.replace(/^#(.)(.)(.)$/, '#$1$1$2$2$3$3') : hex;
  return [
    Number.parseInt(h.slice(1, 3), 16),
    Number.parseInt(h.slice(3, 5), 16),
    Number.parseInt(h.slice(5, 7), 16),
  ];
}

/**
 * Ink of `opacity` on paper of colour `paper`, as one solid colour: where two letters overlap (a
 * connected hand's join) the ink stays one tone instead of darkening as two layers of it would.
 * Exact on a plain sheet; a writer keeps real transparency over images.
 */
export function solidInk(color: string, opacity: number, paper: string): string {
  if (opacity >= 1) return color;
  const [a, b] = [hexRgb(color), hexRgb(paper)];
  return `#${a
    .map((v, i) =>
      Math.round(b[i]! + (v - b[i]!) * opacity)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/**
 * How a writer fills the letters of `page`: a letter that runs on from the one before (a
 * connected hand's join) in solid ink (solidInk), painted over the end of the letter before so
 * that their overlap is one tone; every other letter, and every letter over an image, in the
 * ink's own colour and opacity (the same colour on a plain sheet, and fewer inks to write).
 */
export function letterInk(
  page: DisplayPage,
): (it: { color: string; opacity: number; joins?: boolean }) => { color: string; opacity: number } {
  if (page.items.some((i) => i.kind === 'image')) return (it) => it;
  return (it) => (it.joins ? { color: solidInk(it.color, it.opacity, page.background), opacity: 1 } : it);
}
