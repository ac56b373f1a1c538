// The date range of GET /usage (spec §4 Usage): UTC dates, `from` inclusive, `to` exclusive, at
// most 366 days; by default the current month through today.
import { invalid, show, ApiError } from './errors.ts';

const DAY_MS = 86_400_000;

export interface UsageRange {
  /** First day counted, YYYY-MM-DD. */
  from: string;
  /** First day not counted, YYYY-MM-DD. */
  to: string;
  days: number;
}

/** A calendar date `YYYY-MM-DD` that exists (2025-02-30 does not), as UTC midnight in ms. */
function parseDay(field: string, raw: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  if (!m) throw invalid(field, 'a date YYYY-MM-DD (UTC)', raw);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (y < 1970 || back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) {
    throw new ApiError(
      'INVALID_REQUEST',
      `${field} must be a date that exists on the calendar, got ${show(raw)}`,
      { field },
    );
  }
  return ms;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Today (UTC) as a range of one day. */
export function todayRange(now: Date): UsageRange {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { from: day(today), to: day(today + DAY_MS), days: 1 };
}

export function usageRange(query: { from?: string; to?: string }, now: Date, maxDays: number): UsageRange {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const to = query.to !== undefined ? parseDay('to', query.to) : today + DAY_MS;
  let from: number;
  if (query.from !== undefined) from = parseDay('from', query.from);
  else {
    const last = new Date(to - DAY_MS);
    from = Date.UTC(last.getUTCFullYear(), last.getUTCMonth(), 1);
  }
  if (to <= from) {
    throw new ApiError(
      'INVALID_REQUEST',
      `to must be after from (to is exclusive), got from ${day(from)} and to ${day(to)}`,
      { field: 'to' },
    );
  }
  const days = Math.round((to - from) / DAY_MS);
  if (days > maxDays) {
    throw new ApiError(
      'INVALID_REQUEST',
      `the range from..to must cover 1-${maxDays} days, got ${days} (${day(from)} to ${day(to)})`,
      { field: 'to' },
    );
  }
  return { from: day(from), to: day(to), days };
}
