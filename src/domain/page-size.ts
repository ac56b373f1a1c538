// Page sizes and what a page bills (spec §4 billing rule 1, DESIGN §6). Sizes are compared in
// whole micrometres so that a custom size given in px is judged exactly, not by float luck.
// The geometry itself is the render engine's.
import { type PageSize, pageDimensionsMm, STANDARD_SIZES } from '../render/index.ts';

export {
  type CustomSize,
  MM_PER_PX,
  type PageSize,
  pageDimensionsMm,
  STANDARD_SIZES,
  type StandardSize,
} from '../render/index.ts';

/** Billing tiers, smallest first: milli-sheets per page (A5 1, A4 1.5, A3 2). */
export const BILLING_TIERS = [
  { size: 'A5', milliSheets: 1000 },
  { size: 'A4', milliSheets: 1500 },
  { size: 'A3', milliSheets: 2000 },
] as const;
export type BillingTier = (typeof BILLING_TIERS)[number]['size'];

const um = (mm: number) => Math.round(mm * 1000);

function fits(page: { width: number; height: number }, box: { width: number; height: number }): boolean {
  const [w, h, bw, bh] = [um(page.width), um(page.height), um(box.width), um(box.height)];
  return (w <= bw && h <= bh) || (w <= bh && h <= bw);
}

/** The smallest of A5, A4, A3 that holds the page in either orientation; null when over A3. */
export function billingTier(size: PageSize): (typeof BILLING_TIERS)[number] | null {
  const page = pageDimensionsMm(size);
  return BILLING_TIERS.find((t) => fits(page, STANDARD_SIZES[t.size])) ?? null;
}

/** Milli-sheets one page of this size costs; throws for a page larger than A3. */
export function milliSheetsPerPage(size: PageSize): number {
  const tier = billingTier(size);
  if (!tier) throw new RangeError('page larger than A3');
  return tier.milliSheets;
}

/** Whether a custom size is allowed: positive and at most A3 (297 x 420 mm) either way round. */
export function isAllowedSize(size: PageSize): boolean {
  const { width, height } = pageDimensionsMm(size);
  return width > 0 && height > 0 && billingTier(size) !== null;
}

/** Milli-sheets as the API shows them: 1500 → 1.5. */
export function sheets(milli: number): number {
  return milli / 1000;
}
