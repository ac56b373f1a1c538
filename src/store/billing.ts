// Balances, the ledger and the usage counters. The rules are in src/domain/billing.ts; this
// file locks the rows they read and writes what they decide, in one transaction.
import {
  type AllowanceState,
  calendarMonth,
  checkBeforeWork,
  currentPeriod,
  decideCharge,
  planGrantMilli,
  planLeftMilli,
  type ChargeRefusal,
  utcDay,
} from '../domain/billing.ts';
import { Refusal } from '../domain/errors.ts';
import { PACK_MAX_SHEETS, PACK_MIN_SHEETS, type PlanCatalog } from '../domain/plans.ts';
import type { Tenant } from '../domain/tenant.ts';
import { newId } from '../lib/ids.ts';
import { toAccount } from './accounts.ts';
import { type Db, isUniqueViolation, num, type Tx } from './database.ts';
import { USAGE_COUNTERS, type UsageCounter } from './schema.ts';

export type ChargeKind = 'charge' | 'render';

export type ChargeResult =
  | { ok: true; duplicate: boolean; totalMilli: number; planMilli: number; extraMilli: number; pages: number }
  | ChargeRefusal;

export interface BalanceReport {
  mode: Tenant['mode'];
  subscription: {
    plan: string;
    name: string;
    periodDays: number | null;
    periodStart: string;
    periodEnd: string;
    sheetsPerPeriod: number;
    sheetsUsed: number;
    sheetsLeft: number;
    pagesPerDay: number;
    premiumFonts: boolean;
    renderAccess: boolean;
  };
  extraSheets: number;
  availableSheets: number;
  usage: { pagesToday: number; pagesThisPeriod: number };
}

interface Loaded {
  state: AllowanceState;
  period: { start: string; end: string };
  /** The plan period the balance row's counter belongs to after this read. */
  planPeriodStart: string | null;
}

export class BillingRepo {
  constructor(
    private readonly db: Db,
    private readonly plans: PlanCatalog,
  ) {}

  /** Reads what the rules need; `lock` takes the balance row lock first (inside a write). */
  async load(tx: Tx, tenant: Tenant, now: Date, lock: boolean): Promise<Loaded> {
    let balanceQuery = tx
      .selectFrom('balances')
      .selectAll()
      .where('account_id', '=', tenant.accountId)
      .where('mode', '=', tenant.mode);
    if (lock) balanceQuery = this.db.forUpdate(balanceQuery);
    const balance = await balanceQuery.executeTakeFirst();
    const accountRow = await tx
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', tenant.accountId)
      .executeTakeFirst();
    if (!balance || !accountRow)
      throw new Refusal('invalid', `account ${JSON.stringify(tenant.accountId)} does not exist`);
    const account = toAccount(accountRow);
    const plan = this.plans[account.plan];
    const period =
      account.periodDays && account.planAnchor
        ? currentPeriod(account.planAnchor, account.periodDays, now)
        : calendarMonth(now);
    const sameperiod = account.periodDays !== null && balance.plan_period_start === period.start;
    const today = await tx
      .selectFrom('usage_daily')
      .select('pages')
      .where('account_id', '=', tenant.accountId)
      .where('mode', '=', tenant.mode)
      .where('day', '=', utcDay(now))
      .executeTakeFirst();
    return {
      state: {
        plan,
        periodDays: account.periodDays,
        mode: tenant.mode,
        planUsedMilli: sameperiod ? num(balance.plan_used_milli) : 0,
        extraMilli: num(balance.extra_milli),
        pagesToday: num(today?.pages),
      },
      period,
      planPeriodStart: account.periodDays ? period.start : null,
    };
  }

  /** Adds a pack of extra sheets (50 to 1,000; test top-ups land in the test balance). */
  async topUp(tenant: Tenant, sheets: number, now: Date, note = 'top-up'): Promise<BalanceReport> {
    if (!Number.isInteger(sheets) || sheets < PACK_MIN_SHEETS || sheets > PACK_MAX_SHEETS) {
      throw new Refusal(
        'invalid',
        `sheets must be a whole number ${PACK_MIN_SHEETS}-${PACK_MAX_SHEETS}, got ${sheets}`,
      );
    }
    await this.db.write((tx) => this.credit(tx, tenant, sheets, now, note));
    return this.report(tenant, now);
  }

  /** Adds `sheets` extra sheets to a balance inside a write, with its ledger line. */
  async credit(tx: Tx, tenant: Tenant, sheets: number, now: Date, note: string): Promise<void> {
    const milli = sheets * 1000;
    await this.load(tx, tenant, now, true);
    await tx
      .updateTable('balances')
      .set((eb) => ({ extra_milli: eb('extra_milli', '+', milli), updated_at: now.toISOString() }))
      .where('account_id', '=', tenant.accountId)
      .where('mode', '=', tenant.mode)
      .execute();
    await tx
      .insertInto('ledger')
      .values({
        id: newId('led'),
        account_id: tenant.accountId,
        mode: tenant.mode,
        kind: 'topup',
        job_id: null,
        plan_milli: 0,
        extra_milli: milli,
        total_milli: milli,
        pages: 0,
        note,
        created_at: now.toISOString(),
      })
      .execute();
  }

  /** The check before work (spec §3 rule 3): some allowance must remain. */
  async checkBeforeWork(
    tenant: Tenant,
    now: Date,
    tx: Tx = this.db.kysely,
  ): Promise<{ ok: true } | ChargeRefusal> {
    const { state } = await this.load(tx, tenant, now, false);
    return checkBeforeWork(state);
  }

  /** Charges a whole document at completion, all or nothing, never below zero, never twice. */
  async charge(
    tenant: Tenant,
    job: { jobId: string; kind?: ChargeKind; pages: number; milliPerPage: number },
    now: Date,
  ): Promise<ChargeResult> {
    try {
      return await this.db.write((tx) => this.chargeIn(tx, tenant, job, now));
    } catch (err) {
      // Only a charge that raced past the row lock can hit the unique key; it is the same charge.
      if (isUniqueViolation(err)) return this.db.write((tx) => this.chargeIn(tx, tenant, job, now));
      throw err;
    }
  }

  /** The charge inside a caller's write transaction (the completion commit of a job). */
  async chargeIn(
    tx: Tx,
    tenant: Tenant,
    job: { jobId: string; kind?: ChargeKind; pages: number; milliPerPage: number },
    now: Date,
  ): Promise<ChargeResult> {
    const kind = job.kind ?? 'charge';
    const loaded = await this.load(tx, tenant, now, true);
    const earlier = await tx
      .selectFrom('ledger')
      .selectAll()
      .where('job_id', '=', job.jobId)
      .where('kind', '=', kind)
      .executeTakeFirst();
    if (earlier) {
      return {
        ok: true,
        duplicate: true,
        totalMilli: num(earlier.total_milli),
        planMilli: num(earlier.plan_milli),
        extraMilli: num(earlier.extra_milli),
        pages: num(earlier.pages),
      };
    }
    const decision = decideCharge(loaded.state, job.pages, job.milliPerPage);
    if (!decision.ok) return decision;
    const at = now.toISOString();
    await tx
      .updateTable('balances')
      .set((eb) => ({
        extra_milli: eb('extra_milli', '-', decision.extraMilli),
        plan_used_milli: loaded.state.planUsedMilli + decision.planMilli,
        plan_period_start: loaded.planPeriodStart,
        updated_at: at,
      }))
      .where('account_id', '=', tenant.accountId)
      .where('mode', '=', tenant.mode)
      .execute();
    await tx
      .insertInto('ledger')
      .values({
        id: newId('led'),
        account_id: tenant.accountId,
        mode: tenant.mode,
        kind,
        job_id: job.jobId,
        plan_milli: decision.planMilli,
        extra_milli: decision.extraMilli,
        total_milli: decision.totalMilli,
        pages: job.pages,
        note: '',
        created_at: at,
      })
      .execute();
    await this.count(tx, tenant, now, { pages: job.pages, credits_milli: decision.totalMilli });
    return { ...decision, duplicate: false, pages: job.pages };
  }

  /** Adds to the per-day usage counters of a tenant (an upsert: one row per day). */
  async count(tx: Tx, tenant: Tenant, now: Date, add: Partial<Record<UsageCounter, number>>): Promise<void> {
    const entries = Object.entries(add).filter(([, v]) => v) as [UsageCounter, number][];
    if (entries.length === 0) return;
    const values = Object.fromEntries(entries);
    await tx
      .insertInto('usage_daily')
      .values({ account_id: tenant.accountId, mode: tenant.mode, day: utcDay(now), ...values })
      .onConflict((oc) =>
        oc.columns(['account_id', 'mode', 'day']).doUpdateSet((eb) => {
          const set: Record<string, unknown> = {};
          for (const [k, v] of entries) set[k] = eb(eb.ref(`usage_daily.${k}`), '+', v);
          return set;
        }),
      )
      .execute();
  }

  /** Sums of the daily usage counters over [from, to), days as YYYY-MM-DD; of one tenant, or of all (null). */
  async usageBetween(tenant: Tenant | null, from: string, to: string): Promise<Record<UsageCounter, number>> {
    let q = this.db.kysely
      .selectFrom('usage_daily')
      .select((eb) => USAGE_COUNTERS.map((c) => eb.fn.sum<number>(c).as(c)))
      .where('day', '>=', from)
      .where('day', '<', to);
    if (tenant) q = q.where('account_id', '=', tenant.accountId).where('mode', '=', tenant.mode);
    const row = await q.executeTakeFirst();
    return Object.fromEntries(USAGE_COUNTERS.map((c) => [c, num(row?.[c])])) as Record<UsageCounter, number>;
  }

  /** The counters of each UTC day from `from` (inclusive) to `to` (exclusive) that has any, oldest first. */
  async usageDays(
    tenant: Tenant,
    from: string,
    to: string,
  ): Promise<({ day: string } & Record<UsageCounter, number>)[]> {
    const rows = await this.db.kysely
      .selectFrom('usage_daily')
      .selectAll()
      .where('account_id', '=', tenant.accountId)
      .where('mode', '=', tenant.mode)
      .where('day', '>=', from)
      .where('day', '<', to)
      .orderBy('day', 'asc')
      .execute();
    return rows.map((r) => ({
      day: r.day,
      ...(Object.fromEntries(USAGE_COUNTERS.map((c) => [c, num(r[c])])) as Record<UsageCounter, number>),
    }));
  }

  /** The `balance` object of GET /usage for this tenant. */
  async report(tenant: Tenant, now: Date): Promise<BalanceReport> {
    const { state, period } = await this.load(this.db.kysely, tenant, now, false);
    const pagesThisPeriod = await this.db.kysely
      .selectFrom('ledger')
      .select((eb) => eb.fn.sum<number>('pages').as('n'))
      .where('account_id', '=', tenant.accountId)
      .where('mode', '=', tenant.mode)
      .where('kind', '=', 'charge')
      .where('created_at', '>=', period.start)
      .where('created_at', '<', period.end)
      .executeTakeFirst();
    const grant = planGrantMilli(state.plan, state.periodDays, state.mode);
    const left = planLeftMilli(state);
    return {
      mode: tenant.mode,
      subscription: {
        plan: state.plan.id,
        name: state.plan.name,
        periodDays: state.periodDays,
        periodStart: period.start,
        periodEnd: period.end,
        sheetsPerPeriod: grant / 1000,
        sheetsUsed: state.planUsedMilli / 1000,
        sheetsLeft: left / 1000,
        pagesPerDay: state.plan.pagesPerDay,
        premiumFonts: state.plan.premiumFonts,
        renderAccess: state.plan.renderAccess,
      },
      extraSheets: state.extraMilli / 1000,
      availableSheets: (left + state.extraMilli) / 1000,
      usage: { pagesToday: state.pagesToday, pagesThisPeriod: num(pagesThisPeriod?.n) },
    };
  }
}
