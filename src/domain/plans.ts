// The plan catalogue (spec §4 billing rule 4, DESIGN §6). Data, not code: PLAN_CATALOG may
// override any plan's figures. Sheets are whole sheets here; the store keeps milli-sheets.
import { z } from 'zod';
import { boolean, formatIssue, object, oneOf, range, string } from './validation.ts';

import { PERIODS, type PeriodDays, PLAN_IDS, type PlanId } from './plan-ids.ts';

export { PERIODS, type PeriodDays, PLAN_IDS, type PlanId } from './plan-ids.ts';

export interface Plan {
  readonly id: PlanId;
  readonly name: string;
  /** Sheets granted per period, by period length; empty for `none` (no subscription). */
  readonly sheetsPerPeriod: Partial<Record<`${PeriodDays}`, number>>;
  /** Pages that may be produced per UTC day, per key mode. */
  readonly pagesPerDay: number;
  readonly premiumFonts: boolean;
  readonly renderAccess: boolean;
}

export const DEFAULT_PLANS: Record<PlanId, Plan> = {
  none: {
    id: 'none',
    name: 'No subscription',
    sheetsPerPeriod: {},
    pagesPerDay: 200,
    premiumFonts: false,
    renderAccess: false,
  },
  week: {
    id: 'week',
    name: '7-day plan',
    sheetsPerPeriod: { 7: 100 },
    pagesPerDay: 200,
    premiumFonts: false,
    renderAccess: true,
  },
  basic: {
    id: 'basic',
    name: 'Basic',
    sheetsPerPeriod: { 7: 75, 30: 300 },
    pagesPerDay: 300,
    premiumFonts: false,
    renderAccess: false,
  },
  pro: {
    id: 'pro',
    name: 'Pro',
    sheetsPerPeriod: { 7: 250, 30: 1000 },
    pagesPerDay: 1000,
    premiumFonts: true,
    renderAccess: true,
  },
  premium: {
    id: 'premium',
    name: 'Premium',
    sheetsPerPeriod: { 7: 750, 30: 3000 },
    pagesPerDay: 3000,
    premiumFonts: true,
    renderAccess: true,
  },
};

/** Packs of non-expiring extra sheets (spec §4 billing rule 4). */
export const PACK_MIN_SHEETS = 50;
/** Test sheets a new account starts with, so that its first test call is answered (docs/decisions.md). */
export const SIGN_UP_TEST_SHEETS = 50;
export const PACK_MAX_SHEETS = 1000;

export type PlanCatalog = Record<PlanId, Plan>;

const sheetCount = range(0, 1_000_000_000, 'sheets', { int: true });
const planOverride = object({
  name: string(1, 60),
  sheetsPerPeriod: object({ 7: sheetCount, 30: sheetCount }).partial(),
  pagesPerDay: range(1, 1_000_000, 'pages', { int: true }),
  premiumFonts: boolean(),
  renderAccess: boolean(),
}).partial();

/** Merges a JSON override (PLAN_CATALOG) over the defaults; throws naming the bad field. */
export function planCatalog(overrideJson?: string): PlanCatalog {
  if (!overrideJson) return DEFAULT_PLANS;
  let raw: unknown;
  try {
    raw = JSON.parse(overrideJson);
  } catch {
    throw new Error('must be a JSON object');
  }
  const parsed = z
    .partialRecord(oneOf(PLAN_IDS), planOverride, { error: () => 'must be a JSON object of plans' })
    .safeParse(raw);
  if (!parsed.success) throw new Error(formatIssue(parsed.error.issues[0]!).message);
  const merged = { ...DEFAULT_PLANS };
  for (const [id, o] of Object.entries(parsed.data) as [PlanId, z.infer<typeof planOverride>][]) {
    const base = DEFAULT_PLANS[id];
    merged[id] = { ...base, ...o, id, sheetsPerPeriod: { ...base.sheetsPerPeriod, ...o.sheetsPerPeriod } };
  }
  return merged;
}

/** Which period lengths a plan can run on. */
export function planPeriods(plan: Plan): PeriodDays[] {
  return PERIODS.filter((p) => plan.sheetsPerPeriod[`${p}`] !== undefined);
}

/** A subscription is any plan but `none`: it lifts the text limit from 4,000 characters. */
export function hasSubscription(plan: Plan): boolean {
  return plan.id !== 'none';
}
