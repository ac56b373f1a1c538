// A small read-through cache for rows read on every request (API keys, templates). An entry
// is current while the database's version token is unchanged (see Db.version); where that token
// cannot see other processes' writes (PostgreSQL), an entry also lives at most `ttlMs`. Values are frozen: callers
// share them. Misses (null) are never kept.
import type { Db } from './database.ts';

interface Entry<V> {
  value: V;
  token: string;
  at: number;
}

export class ReadCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly db: Db,
    private readonly opts: { ttlMs: number; max: number } = { ttlMs: 1000, max: 10_000 },
  ) {}

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const { token, exact } = this.db.version(); // read before loading: a write in between only makes the entry stale
    const now = performance.now();
    const hit = this.entries.get(key);
    if (hit && hit.token === token && (exact || now - hit.at < this.opts.ttlMs)) return hit.value;
    const value = deepFreeze(await load());
    if (value === null) return value; // misses are not kept: unknown keys must not crowd out known ones
    if (this.entries.size >= this.opts.max) this.entries.clear();
    this.entries.set(key, { value, token, at: now });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
