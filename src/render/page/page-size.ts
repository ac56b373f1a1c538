// Page geometry: standard sizes in mm, custom sizes in mm or CSS px, and a page's size in pt
// once turned to its orientation.
import { MM } from '../display-list.ts';
import type { PageSize, StandardSize, Style } from '../spec.ts';

export const STANDARD_SIZES: Record<StandardSize, { width: number; height: number }> = {
  A5: { width: 148, height: 210 },
  A4: { width: 210, height: 297 },
  A3: { width: 297, height: 420 },
  Letter: { width: 215.9, height: 279.4 },
  // Envelopes (ISO 269 and the US #10, 4 1/8 x 9 1/2 in): written on in landscape.
  DL: { width: 110, height: 220 },
  C5: { width: 162, height: 229 },
  C6: { width: 114, height: 162 },
  US10: { width: 104.775, height: 241.3 },
};

/** CSS px: 96 per inch. */
export const MM_PER_PX = 25.4 / 96;

/** Width and height in mm, portrait as given (orientation is applied by pageSizePt). */
export function pageDimensionsMm(size: PageSize): { width: number; height: number } {
  if (typeof size === 'string') return { ...STANDARD_SIZES[size] };
  const f = size.unit === 'px' ? MM_PER_PX : 1;
  return { width: size.width * f, height: size.height * f };
}

/**
 * Page width and height in pt. Standard sizes are turned to the orientation; a custom size is
 * taken as its width and height say, and `landscape` swaps them.
 */
export function pageSizePt(style: Pick<Style, 'pageSize' | 'orientation'>): {
  width: number;
  height: number;
} {
  const mm = pageDimensionsMm(style.pageSize);
  const landscape = style.orientation === 'landscape';
  if (typeof style.pageSize === 'object') {
    return landscape
      ? { width: mm.height * MM, height: mm.width * MM }
      : { width: mm.width * MM, height: mm.height * MM };
  }
  const [short, long] = mm.width <= mm.height ? [mm.width, mm.height] : [mm.height, mm.width];
  return landscape ? { width: long * MM, height: short * MM } : { width: short * MM, height: long * MM };
}
