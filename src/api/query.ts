// Query strings: each route names the parameters it accepts; an unknown or repeated one is
// refused by name, so `?limt=5` is an error rather than a silently ignored typo.
import { invalid, apiRefusal } from '../domain/errors.ts';
import type { Hold } from '../app/waits.ts';
import type { ApiRequest } from './types.ts';

export function queryParams<const K extends string>(
  req: ApiRequest,
  accepted: readonly K[],
): Partial<Record<K, string>> {
  // Without a prototype: a name is looked up only among the ones sent.
  const out: Partial<Record<K, string>> = Object.create(null);
  if (!req.query) return out;
  for (const [name, value] of new URLSearchParams(req.query)) {
    if (!(accepted as readonly string[]).includes(name)) {
      const allowed = accepted.length ? `accepted: ${accepted.join(', ')}` : 'this endpoint accepts none';
      throw apiRefusal(
        'INVALID_REQUEST',
        `query parameter ${JSON.stringify(name.slice(0, 40))} is not accepted (${allowed})`,
        { field: name },
      );
    }
    if (name in out)
      throw apiRefusal('INVALID_REQUEST', `query parameter ${name} must appear once, got it twice`, {
        field: name,
      });
    out[name as K] = value;
  }
  return out;
}

export const LIST_LIMIT = { min: 1, max: 100, default: 50 } as const;

/** `?limit=` 1-100 (default 50) and `?cursor=` of the list endpoints (DESIGN §4). */
export function listParams(
  req: ApiRequest,
  extra: readonly string[] = [],
): { limit: number; cursor?: string; rest: Record<string, string | undefined> } {
  const q = queryParams(req, ['limit', 'cursor', ...extra]) as Record<string, string | undefined>;
  let limit: number = LIST_LIMIT.default;
  if (q.limit !== undefined) {
    if (!/^\d{1,4}$/.test(q.limit) || Number(q.limit) < LIST_LIMIT.min || Number(q.limit) > LIST_LIMIT.max) {
      throw invalid('limit', `a whole number ${LIST_LIMIT.min}-${LIST_LIMIT.max}`, q.limit);
    }
    limit = Number(q.limit);
  }
  if (q.cursor === '') throw invalid('cursor', 'a nextCursor from an earlier page', q.cursor);
  return { limit, cursor: q.cursor, rest: q };
}

/** The longest a read may be held (`?wait=`), in seconds: under the edge's and clients' idle timeouts. */
export const MOST_WAIT_SECONDS = 30;

/**
 * `?wait=` (whole seconds, 0-30) and `?waitFor=` (`change`, the default, or `end`) of the reads
 * that can be held (src/app/waits.ts); other parameters are refused.
 */
export function holdParams(req: ApiRequest): Hold {
  const q = queryParams(req, ['wait', 'waitFor']);
  let seconds = 0;
  if (q.wait !== undefined) {
    if (!/^\d{1,2}$/.test(q.wait) || Number(q.wait) > MOST_WAIT_SECONDS)
      throw invalid('wait', `a whole number of seconds 0-${MOST_WAIT_SECONDS}`, q.wait);
    seconds = Number(q.wait);
  }
  const until = q.waitFor ?? 'change';
  if (until !== 'change' && until !== 'end') throw invalid('waitFor', 'change or end', until);
  return { seconds, until };
}
