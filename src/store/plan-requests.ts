// Plan change requests: an owner asks for a plan in the dashboard, an operator decides. At most
// one request of an account is pending; an approval changes the plan in the same transaction as
// it is recorded, so a request is never approved without its plan, nor decided twice.
import { Refusal } from '../domain/errors.ts';
import type { PeriodDays, PlanCatalog, PlanId } from '../domain/plans.ts';
import { newId } from '../lib/ids.ts';
import { type Account, applyPlan, resolvePlan } from './accounts.ts';
import type { Db } from './database.ts';
import { type Page, pageOf } from './paging.ts';
import type { PlanRequestsTable } from './schema.ts';

export const PLAN_REQUEST_STATUSES = ['pending', 'approved', 'refused', 'withdrawn'] as const;
export type PlanRequestStatus = (typeof PLAN_REQUEST_STATUSES)[number];

export interface PlanRequest {
  id: string;
  accountId: string;
  plan: PlanId;
  periodDays: PeriodDays | null;
  note: string;
  status: PlanRequestStatus;
  requestedBy: string | null;
  fromPlan: string;
  decisionNote: string | null;
  decidedAt: string | null;
  createdAt: string;
}

const toRequest = (r: PlanRequestsTable): PlanRequest => ({
  id: r.id,
  accountId: r.account_id,
  plan: r.plan as PlanId,
  periodDays: r.period_days as PeriodDays | null,
  note: r.note,
  status: r.status as PlanRequestStatus,
  requestedBy: r.requested_by,
  fromPlan: r.from_plan,
  decisionNote: r.decision_note,
  decidedAt: r.decided_at,
  createdAt: r.created_at,
});

export class PlanRequestRepo {
  constructor(
    private readonly db: Db,
    private readonly plans: PlanCatalog,
  ) {}

  /** Records a request; refused while another of the account's is pending, or for the plan it has. */
  async create(input: {
    accountId: string;
    plan: string;
    period?: number;
    note: string;
    requestedBy: string | null;
    now: Date;
  }): Promise<PlanRequest> {
    const chosen = resolvePlan(this.plans, input.plan, input.period);
    return this.db.write(async (tx) => {
      const account = await this.db
        .forUpdate(
          tx
            .selectFrom('accounts')
            .select(['id', 'plan', 'plan_period_days'])
            .where('id', '=', input.accountId),
        )
        .executeTakeFirst();
      if (!account) throw new Refusal('missing', `account ${JSON.stringify(input.accountId)} does not exist`);
      if (account.plan === chosen.plan && (account.plan_period_days ?? null) === chosen.periodDays)
        throw new Refusal(
          'invalid',
          `plan must differ from the account's plan, got "${chosen.plan}"${chosen.periodDays ? ` for ${chosen.periodDays} days` : ''}, which it has`,
          { field: 'plan' },
        );
      const open = await tx
        .selectFrom('plan_requests')
        .select(['plan', 'created_at'])
        .where('account_id', '=', input.accountId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (open)
        throw new Refusal(
          'invalid',
          `a request for plan ${open.plan} made ${open.created_at} is pending: withdraw it first`,
          { field: 'plan' },
        );
      const row: PlanRequestsTable = {
        id: newId('preq'),
        account_id: input.accountId,
        plan: chosen.plan,
        period_days: chosen.periodDays,
        note: input.note,
        status: 'pending',
        requested_by: input.requestedBy,
        from_plan: account.plan,
        decision_note: null,
        decided_at: null,
        created_at: input.now.toISOString(),
      };
      await tx.insertInto('plan_requests').values(row).execute();
      return toRequest(row);
    });
  }

  async find(id: string): Promise<PlanRequest | null> {
    const row = await this.db.kysely
      .selectFrom('plan_requests')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRequest(row) : null;
  }

  /** Requests, newest first: one account's, or every account's, of one status or all. */
  list(filter: {
    accountId?: string;
    status?: PlanRequestStatus;
    limit: number;
    cursor?: string;
  }): Promise<Page<PlanRequest>> {
    let q = this.db.kysely.selectFrom('plan_requests').selectAll();
    if (filter.accountId !== undefined) q = q.where('account_id', '=', filter.accountId);
    if (filter.status !== undefined) q = q.where('status', '=', filter.status);
    return pageOf(q, filter, toRequest);
  }

  /**
   * Decides a pending request: approved (the account gets the plan asked for, in the same
   * transaction) or refused, with the operator's note; or withdrawn by the account. Null when
   * it is not pending (decided already, or withdrawn).
   */
  async decide(
    id: string,
    decision: { status: Exclude<PlanRequestStatus, 'pending'>; note: string | null; accountId?: string },
    now: Date,
  ): Promise<{ request: PlanRequest; account: Account | null } | null> {
    const at = now.toISOString();
    return this.db.write(async (tx) => {
      let q = tx
        .updateTable('plan_requests')
        .set({ status: decision.status, decision_note: decision.note, decided_at: at })
        .where('id', '=', id)
        .where('status', '=', 'pending');
      if (decision.accountId !== undefined) q = q.where('account_id', '=', decision.accountId);
      const changed = await q.executeTakeFirst();
      if (Number(changed.numUpdatedRows) === 0) return null;
      const row = await tx
        .selectFrom('plan_requests')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const request = toRequest(row);
      const account =
        decision.status === 'approved'
          ? await applyPlan(
              tx,
              this.plans,
              request.accountId,
              { plan: request.plan, periodDays: request.periodDays },
              now,
            )
          : null;
      return { request, account };
    });
  }
}
