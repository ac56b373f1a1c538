// Counts every request made with a valid key in `requests` (spec §4 billing rule 6) and notes
// when each key was last used. Both are batched: one write per flush for all tenants and keys,
// so the hot path never waits on the store.
// A graceful shutdown flushes what is pending; a failed flush keeps its counts for the next.
import type { Tenant } from '../domain/tenant.ts';
import type { Store } from '../store/index.ts';

const DAY_MS = 86_400_000;

/** Requests per tenant per UTC day number (a batch that straddles midnight lands on both days). */
type Batch = Map<string, { tenant: Tenant; days: Map<number, number> }>;

export class RequestCounter {
  private waiting: Batch = new Map();
  /** Key id → the latest request made with it (ISO), not yet written. */
  private lastUsed = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly store: Store,
    private readonly intervalMs = 1000,
  ) {}

  /** One request made with this key of this tenant: counted, and the key's last use noted. */
  request(caller: { tenant: Tenant; keyId: string }, at: Date): void {
    this.add(caller.tenant, at);
    this.used(caller.keyId, at);
  }

  add(tenant: Tenant, at: Date, n = 1): void {
    const key = tenant.mode + tenant.accountId;
    let entry = this.waiting.get(key);
    if (!entry) {
      entry = { tenant, days: new Map() };
      this.waiting.set(key, entry);
    }
    const day = Math.floor(at.getTime() / DAY_MS);
    entry.days.set(day, (entry.days.get(day) ?? 0) + n);
    this.schedule();
  }

  /** Notes a request made with this key, for its `last used` (written with the next flush). */
  used(keyId: string, at: Date | string): void {
    const iso = typeof at === 'string' ? at : at.toISOString();
    const seen = this.lastUsed.get(keyId);
    if (seen === undefined || seen < iso) this.lastUsed.set(keyId, iso);
    this.schedule();
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => void this.flush().catch(() => {}), this.intervalMs).unref();
  }

  /**
   * Requests of this tenant counted but not yet written, on UTC days `from` (inclusive) to `to`
   * (exclusive), YYYY-MM-DD: what a report adds while the store cannot take them.
   */
  pending(tenant: Tenant, from: string, to: string): number {
    const [a, b] = [Date.parse(from) / DAY_MS, Date.parse(to) / DAY_MS];
    let n = 0;
    for (const [day, count] of this.waiting.get(tenant.mode + tenant.accountId)?.days ?? [])
      if (day >= a && day < b) n += count;
    return n;
  }

  /** Writes every pending count; concurrent callers share one write. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing.catch(() => {});
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.waiting.size === 0 && this.lastUsed.size === 0) return;
    const batch = this.waiting;
    const used = this.lastUsed;
    this.waiting = new Map();
    this.lastUsed = new Map();
    this.flushing = this.store.db
      .write(async (tx) => {
        for (const { tenant, days } of batch.values()) {
          for (const [day, n] of days)
            await this.store.billing.count(tx, tenant, new Date(day * DAY_MS), { requests: n });
        }
        await this.store.accounts.touchKeys(tx, used);
      })
      .catch((err: unknown) => {
        for (const { tenant, days } of batch.values())
          for (const [day, n] of days) this.add(tenant, new Date(day * DAY_MS), n);
        for (const [keyId, at] of used) this.used(keyId, at);
        throw err;
      })
      .finally(() => {
        this.flushing = null;
      });
    await this.flushing;
  }
}
