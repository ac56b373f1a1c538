// Newest-first pages with an opaque cursor (DESIGN §4 lists): the last row's (created_at, id).
import type { SelectQueryBuilder } from 'kysely';
import { Refusal } from '../domain/errors.ts';
import type { Database } from './schema.ts';

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

export function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(`${createdAt}|${id}`).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: string; id: string } | null {
  const [createdAt, id, extra] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!createdAt || !id || extra !== undefined || Number.isNaN(Date.parse(createdAt))) return null;
  return { createdAt, id };
}

type Row = { id: string; created_at: string };

/** Runs `q` (rows of one table with `id` and `created_at`) as one page of `opts.limit`. */
export async function pageOf<TB extends keyof Database, R extends Row, T>(
  q: SelectQueryBuilder<Database, TB, R>,
  opts: { limit: number; cursor?: string | undefined },
  map: (row: R) => T,
): Promise<Page<T>> {
  // The columns exist on every table this is used with; Kysely cannot see that through TB.
  const loose = q as unknown as SelectQueryBuilder<{ t: Row }, 't', R>;
  let page = loose;
  if (opts.cursor !== undefined) {
    const c = decodeCursor(opts.cursor);
    if (!c)
      throw new Refusal('invalid', 'cursor must be a nextCursor from an earlier page, got an unknown value', {
        field: 'cursor',
      });
    page = page.where((eb) =>
      eb.or([
        eb('created_at', '<', c.createdAt),
        eb.and([eb('created_at', '=', c.createdAt), eb('id', '<', c.id)]),
      ]),
    );
  }
  const rows = await page
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(opts.limit + 1)
    .execute();
  const kept = rows.slice(0, opts.limit);
  const last = kept[kept.length - 1];
  const hasMore = rows.length > opts.limit;
  return {
    data: kept.map(map),
    hasMore,
    nextCursor: hasMore && last ? encodeCursor(last.created_at, last.id) : null,
  };
}
