// Accounts and their API keys. Keys are stored only as SHA-256 with a display prefix.
import { type Page, pageOf } from './paging.ts';
import { displayPrefix, type KeyMode } from '../domain/api-keys.ts';
import { Refusal } from '../domain/errors.ts';
import { PERSONAL_LICENSE, TRIAL_LICENSE } from '../domain/fonts.ts';
import { type PeriodDays, type PlanCatalog, type PlanId, planPeriods } from '../domain/plans.ts';
import { newApiKey, newId, sha256Hex } from '../lib/ids.ts';
import { type Db, num, type Tx } from './database.ts';
import { ReadCache } from './read-cache.ts';
import type { AccountsTable, ApiKeysTable } from './schema.ts';

export interface Account {
  id: string;
  name: string;
  plan: PlanId;
  periodDays: PeriodDays | null;
  planAnchor: string | null;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  mode: KeyMode;
  name: string;
  displayPrefix: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export function toAccount(r: AccountsTable): Account {
  return {
    id: r.id,
    name: r.name,
    plan: r.plan as PlanId,
    periodDays: (r.plan_period_days as PeriodDays | null) ?? null,
    planAnchor: r.plan_anchor,
    createdAt: r.created_at,
  };
}

function toKey(r: ApiKeysTable): ApiKeyRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    mode: r.mode as KeyMode,
    name: r.name,
    displayPrefix: r.display_prefix,
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
    lastUsedAt: r.last_used_at,
  };
}

/** Checks a plan and period against the catalogue; the period defaults to the plan's longest. */
export function resolvePlan(
  plans: PlanCatalog,
  plan: string,
  period?: number,
): { plan: PlanId; periodDays: PeriodDays | null } {
  if (!(plan in plans)) {
    throw new Refusal('invalid', `plan must be one of ${Object.keys(plans).join(', ')}, got "${plan}"`);
  }
  const periods = planPeriods(plans[plan as PlanId]);
  if (periods.length === 0) {
    if (period !== undefined)
      throw new Refusal('invalid', `period must be omitted for plan ${plan}, got ${period}`);
    return { plan: plan as PlanId, periodDays: null };
  }
  const chosen = period ?? periods[periods.length - 1]!;
  if (!periods.includes(chosen as PeriodDays)) {
    throw new Refusal(
      'invalid',
      `period of plan ${plan} must be ${periods.join(' or ')} days, got ${period}`,
    );
  }
  return { plan: plan as PlanId, periodDays: chosen as PeriodDays };
}

/**
 * Gives an account a plan inside a write: a new period starts now, bought sheets stay (billing
 * rule 4). A plan that includes personal fonts makes the account's trial hands' fonts personal
 * fonts (docs/decisions.md, "A hand for every plan"), usable by live keys from then on.
 */
export async function applyPlan(
  tx: Tx,
  plans: PlanCatalog,
  id: string,
  chosen: { plan: PlanId; periodDays: PeriodDays | null },
  now: Date,
): Promise<Account> {
  const { plan, periodDays } = chosen;
  const at = now.toISOString();
  await tx
    .updateTable('accounts')
    .set({ plan, plan_period_days: periodDays, plan_anchor: periodDays ? at : null, updated_at: at })
    .where('id', '=', id)
    .execute();
  await tx
    .updateTable('balances')
    .set({ plan_used_milli: 0, plan_period_start: null, updated_at: at })
    .where('account_id', '=', id)
    .execute();
  if (plans[plan].premiumFonts)
    await tx
      .updateTable('fonts')
      .set({ license: PERSONAL_LICENSE })
      .where('account_id', '=', id)
      .where('license', '=', TRIAL_LICENSE)
      .execute();
  const row = await tx.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return toAccount(row);
}

export class AccountRepo {
  private readonly keys: ReadCache<(ApiKeyRecord & { account: Account }) | null>;

  constructor(
    private readonly db: Db,
    private readonly plans: PlanCatalog,
  ) {
    this.keys = new ReadCache(db);
  }

  async create(input: { name: string; plan?: string; period?: number; now: Date }): Promise<Account> {
    return this.db.write((tx) => this.insert(tx, input));
  }

  /** Creates an account and its two balances in the caller's transaction. */
  async insert(tx: Tx, input: { name: string; plan?: string; period?: number; now: Date }): Promise<Account> {
    const name = input.name.trim();
    if (name.length < 1 || name.length > 120) {
      throw new Refusal('invalid', `name must be 1-120 characters, got ${name.length}`);
    }
    const { plan, periodDays } = resolvePlan(this.plans, input.plan ?? 'none', input.period);
    const now = input.now.toISOString();
    const row: AccountsTable = {
      id: newId('acc'),
      name,
      plan,
      plan_period_days: periodDays,
      plan_anchor: periodDays ? now : null,
      created_at: now,
      updated_at: now,
    };
    await tx.insertInto('accounts').values(row).execute();
    for (const mode of ['live', 'test'] as const) {
      await tx
        .insertInto('balances')
        .values({
          account_id: row.id,
          mode,
          extra_milli: 0,
          plan_used_milli: 0,
          plan_period_start: null,
          updated_at: now,
        })
        .execute();
    }
    return toAccount(row);
  }

  async get(id: string): Promise<Account | null> {
    const row = await this.db.kysely
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toAccount(row) : null;
  }

  async count(): Promise<number> {
    const r = await this.db.kysely
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return num(r.n);
  }

  /** One page of accounts, newest first (the admin API). */
  page(opts: { limit: number; cursor?: string | undefined }): Promise<Page<Account>> {
    return pageOf(this.db.kysely.selectFrom('accounts').selectAll(), opts, toAccount);
  }

  async list(): Promise<Account[]> {
    const rows = await this.db.kysely
      .selectFrom('accounts')
      .selectAll()
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map(toAccount);
  }

  /** Connects or changes a plan: a new period starts now; bought sheets stay (billing rule 4). */
  async setPlan(id: string, planName: string, period: number | undefined, now: Date): Promise<Account> {
    const chosen = resolvePlan(this.plans, planName, period);
    return this.db.write(async (tx) => {
      const found = await tx.selectFrom('accounts').select('id').where('id', '=', id).executeTakeFirst();
      if (!found) throw new Refusal('invalid', `account ${JSON.stringify(id)} does not exist`);
      return applyPlan(tx, this.plans, id, chosen, now);
    });
  }

  /** Creates a key; the full key is returned once and never stored. At most `max` active keys. */
  async createKey(input: {
    accountId: string;
    mode: KeyMode;
    name?: string;
    max: number;
    now: Date;
  }): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = newApiKey(input.mode);
    const at = input.now.toISOString();
    const row: ApiKeysTable = {
      id: newId('key'),
      account_id: input.accountId,
      mode: input.mode,
      name: (input.name ?? `${input.mode} key`).slice(0, 120),
      key_hash: sha256Hex(key),
      display_prefix: displayPrefix(key),
      created_at: at,
      revoked_at: null,
      last_used_at: null,
    };
    await this.db.write(async (tx) => {
      const account = await this.db
        .forUpdate(tx.selectFrom('accounts').select('id').where('id', '=', input.accountId))
        .executeTakeFirst();
      if (!account) throw new Refusal('invalid', `account ${JSON.stringify(input.accountId)} does not exist`);
      const active = await tx
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('account_id', '=', input.accountId)
        .where('revoked_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (num(active.n) >= input.max) {
        throw new Refusal(
          'invalid',
          `account ${input.accountId} has ${num(active.n)} active API keys, the most allowed is ${input.max}: revoke one first`,
        );
      }
      await tx.insertInto('api_keys').values(row).execute();
    });
    return { key, record: toKey(row) };
  }

  /** The key whose SHA-256 matches; lookups go by hash, never by comparing secrets. */
  async findKey(presented: string): Promise<(ApiKeyRecord & { account: Account }) | null> {
    const hash = sha256Hex(presented);
    return this.keys.get(hash, () => this.loadKey(hash));
  }

  private async loadKey(hash: string): Promise<(ApiKeyRecord & { account: Account }) | null> {
    const row = await this.db.kysely
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .selectAll('api_keys')
      .select([
        'accounts.name as acc_name',
        'accounts.plan',
        'accounts.plan_period_days',
        'accounts.plan_anchor',
      ])
      .select('accounts.created_at as acc_created_at')
      .where('key_hash', '=', hash)
      .executeTakeFirst();
    if (!row) return null;
    return {
      ...toKey(row),
      account: toAccount({
        id: row.account_id,
        name: row.acc_name,
        plan: row.plan,
        plan_period_days: row.plan_period_days,
        plan_anchor: row.plan_anchor,
        created_at: row.acc_created_at,
        updated_at: row.acc_created_at,
      }),
    };
  }

  /**
   * Records when keys were last used (`at` ISO per key id), in the caller's transaction; a time
   * never moves back, so batches written out of order keep the latest.
   */
  async touchKeys(tx: Tx, used: ReadonlyMap<string, string>): Promise<void> {
    for (const [id, at] of used)
      await tx
        .updateTable('api_keys')
        .set({ last_used_at: at })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
        .execute();
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.db.kysely
      .selectFrom('api_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map(toKey);
  }

  /** Revokes a key; revoking a revoked key keeps its first revocation time. */
  /** Revokes a key (of `accountId` only, when given); null when there is no such key. */
  async revokeKey(keyId: string, now: Date, accountId?: string): Promise<ApiKeyRecord | null> {
    return this.db.write(async (tx) => {
      let found = tx.selectFrom('api_keys').selectAll().where('id', '=', keyId);
      if (accountId !== undefined) found = found.where('account_id', '=', accountId);
      if (!(await found.executeTakeFirst())) return null;
      await tx
        .updateTable('api_keys')
        .set({ revoked_at: now.toISOString() })
        .where('id', '=', keyId)
        .where('revoked_at', 'is', null)
        .execute();
      const row = await tx.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirst();
      return row ? toKey(row) : null;
    });
  }
}
