// The date range of GET /usage (spec §4 Usage): UTC dates, `from` inclusive, `to` exclusive, at
// most 366 days; by default the current month through today.
import { invalid, show, apiRefusal } from './errors.ts';

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
    throw apiRefusal(
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
    throw apiRefusal(
      'INVALID_REQUEST',
      `to must be after from (to is exclusive), got from ${day(from)} and to ${day(to)}`,
      { field: 'to' },
    );
  }
  const days = Math.round((to - from) / DAY_MS);
  if (days > maxDays) {
    throw apiRefusal(
      'INVALID_REQUEST',
      `the range from..to must cover 1-${maxDays} days, got ${days} (${day(from)} to ${day(to)})`,
      { field: 'to' },
    );
  }
  return { from: day(from), to: day(to), days };
}

/**
 * A moment in a query: a UTC date `YYYY-MM-DD` (its midnight) or an RFC 3339 date-time with its
 * offset (`2026-11-24T15:00:00Z`, `…+01:00`), as an ISO string in UTC to compare stored dates with.
 */
function parseInstant(field: string, raw: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) return new Date(parseDay(field, raw)).toISOString();
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.exec(raw);
  const ms = m ? Date.parse(raw) : Number.NaN;
  if (!m || Number.isNaN(ms) || Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4] ?? 0) > 59)
    throw invalid(
      field,
      'a date YYYY-MM-DD (UTC) or a date-time with its offset (2026-11-24T15:00:00Z)',
      raw,
    );
  parseDay(field, m[1]!);
  return new Date(ms).toISOString();
}

/** A range of creation times: `from` inclusive, `to` exclusive, either may be left open. */
export function instantRange(
  fields: { from: string; to: string },
  query: Record<string, string | undefined>,
): { from?: string; to?: string } {
  const from = query[fields.from] !== undefined ? parseInstant(fields.from, query[fields.from]!) : undefined;
  const to = query[fields.to] !== undefined ? parseInstant(fields.to, query[fields.to]!) : undefined;
  if (from !== undefined && to !== undefined && to <= from)
    throw apiRefusal(
      'INVALID_REQUEST',
      `${fields.to} must be after ${fields.from} (${fields.to} is exclusive), got ${fields.from} ${from} and ${fields.to} ${to}`,
      { field: fields.to },
    );
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}
