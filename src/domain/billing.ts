// Billing rules (spec §3 rule 3, §4 billing rules, DESIGN §6), pure: the store feeds in the
// state it locked, these functions decide, the store writes. Amounts are integer milli-sheets.
import type { KeyMode } from './api-keys.ts';
import type { PeriodDays, Plan } from './plans.ts';

const DAY_MS = 86_400_000;

export interface AllowanceState {
  readonly plan: Plan;
  readonly periodDays: PeriodDays | null;
  readonly mode: KeyMode;
  /** Plan milli-sheets spent in the current period (live mode only). */
  readonly planUsedMilli: number;
  /** Non-expiring milli-sheets from packs (or test top-ups in test mode). */
  readonly extraMilli: number;
  /** Pages produced today (UTC) in this mode. */
  readonly pagesToday: number;
}

/** Plan milli-sheets granted per period; test mode spends only test top-ups (spec rule 5). */
export function planGrantMilli(plan: Plan, periodDays: PeriodDays | null, mode: KeyMode): number {
  if (mode === 'test' || periodDays === null) return 0;
  return (plan.sheetsPerPeriod[`${periodDays}`] ?? 0) * 1000;
}

export function planLeftMilli(s: AllowanceState): number {
  return Math.max(0, planGrantMilli(s.plan, s.periodDays, s.mode) - s.planUsedMilli);
}

export type ChargeRefusal = { ok: false; reason: 'daily_pages' | 'balance'; message: string };

/** The check before work (spec §3 rule 3): some allowance must remain. */
export function checkBeforeWork(s: AllowanceState): { ok: true } | ChargeRefusal {
  if (s.pagesToday >= s.plan.pagesPerDay) {
    return {
      ok: false,
      reason: 'daily_pages',
      message: `daily allowance of ${s.plan.pagesPerDay} pages is used up`,
    };
  }
  if (planLeftMilli(s) + s.extraMilli <= 0) {
    return { ok: false, reason: 'balance', message: 'no plan sheets or extra balance left' };
  }
  return { ok: true };
}

/**
 * A refusal of the balance, said for the key mode that met it: a test key spends test sheets,
 * which a new account has none of, so its refusal says where they come from.
 */
export function balanceRefusal(what: string, refusal: ChargeRefusal, mode: 'live' | 'test'): string {
  const said = `${what}: ${refusal.message}`;
  return mode === 'test' && refusal.reason === 'balance'
    ? `${said}; a test key spends test sheets, which cost nothing: add them in the dashboard (Usage, "Add test sheets") or have the operator run scriptorium admin topup --mode test`
    : said;
}

export interface ChargeSplit {
  readonly ok: true;
  readonly totalMilli: number;
  readonly planMilli: number;
  readonly extraMilli: number;
}

/** The check at completion: the WHOLE document must fit, plan sheets first, then extra. */
export function decideCharge(
  s: AllowanceState,
  pages: number,
  milliPerPage: number,
): ChargeSplit | ChargeRefusal {
  if (!Number.isInteger(pages) || pages < 0)
    throw new RangeError(`pages must be a whole number ≥ 0, got ${pages}`);
  return decideAmount(s, pages, pages * milliPerPage);
}

/** The same check for work of `pages` pages costing `total` milli-sheets in all (pages of several sizes). */
export function decideAmount(s: AllowanceState, pages: number, total: number): ChargeSplit | ChargeRefusal {
  if (s.pagesToday + pages > s.plan.pagesPerDay) {
    return {
      ok: false,
      reason: 'daily_pages',
      message: `${pages} pages exceed the daily allowance: ${s.plan.pagesPerDay - s.pagesToday} of ${s.plan.pagesPerDay} left today`,
    };
  }
  const fromPlan = Math.min(total, planLeftMilli(s));
  const fromExtra = total - fromPlan;
  if (fromExtra > s.extraMilli) {
    const have = (planLeftMilli(s) + s.extraMilli) / 1000;
    return {
      ok: false,
      reason: 'balance',
      message: `the document needs ${total / 1000} sheets, ${have} available`,
    };
  }
  return { ok: true, totalMilli: total, planMilli: fromPlan, extraMilli: fromExtra };
}

/** The plan period containing `now`: whole periods counted from the plan's anchor. */
export function currentPeriod(
  anchorIso: string,
  periodDays: PeriodDays,
  now: Date,
): { start: string; end: string } {
  const anchor = Date.parse(anchorIso);
  const len = periodDays * DAY_MS;
  const n = Math.max(0, Math.floor((now.getTime() - anchor) / len));
  return {
    start: new Date(anchor + n * len).toISOString(),
    end: new Date(anchor + (n + 1) * len).toISOString(),
  };
}

/** Without a plan period, the usage period is the UTC calendar month. */
export function calendarMonth(now: Date): { start: string; end: string } {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return { start: new Date(start).toISOString(), end: new Date(end).toISOString() };
}

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
