// Plan change requests (docs/decisions.md, "A hand for every plan"): an account's owner asks for
// a plan in the dashboard (a hand on a plan without personal fonts writes with test keys only);
// an operator approves or refuses it in the console or the admin API. Every request is kept, and
// the account sees its state.
import { Refusal, show } from '../domain/errors.ts';
import { shownId } from '../domain/ids.ts';
import { planPeriods } from '../domain/plans.ts';
import type { Account, Page, PlanRequest, PlanRequestStatus, Store } from '../store/index.ts';

export { PLAN_REQUEST_STATUSES } from '../store/index.ts';

interface Deps {
  store: Store;
  now: () => Date;
}

/** The longest note an owner or an operator may write with a request or a decision. */
export const PLAN_NOTE_MAX = 500;

function note(value: unknown, field: string, required: boolean): string {
  if (value === undefined && !required) return '';
  if (typeof value !== 'string' || value.length > PLAN_NOTE_MAX || (required && !value.trim()))
    throw new Refusal(
      'invalid',
      `${field} must be text of ${required ? 1 : 0} to ${PLAN_NOTE_MAX} characters, got ${show(value)}`,
      { field },
    );
  return value.trim();
}

/** An owner's request for a plan: pending until an operator decides it. */
export function requestPlan(
  d: Deps,
  input: { accountId: string; userId: string; plan: unknown; period?: unknown; note?: unknown },
): Promise<PlanRequest> {
  if (typeof input.plan !== 'string')
    throw new Refusal(
      'invalid',
      `plan must be a plan's id (${Object.keys(d.store.plans).join(', ')}), got ${show(input.plan)}`,
      {
        field: 'plan',
      },
    );
  if (input.period !== undefined && (typeof input.period !== 'number' || !Number.isInteger(input.period)))
    throw new Refusal('invalid', `period must be a number of days (7 or 30), got ${show(input.period)}`, {
      field: 'period',
    });
  return d.store.planRequests.create({
    accountId: input.accountId,
    plan: input.plan,
    ...(input.period !== undefined ? { period: input.period as number } : {}),
    note: note(input.note, 'note', false),
    requestedBy: input.userId,
    now: d.now(),
  });
}

/**
 * What the dashboard shows of plans: the account's plan, the plans it may ask for (each with its
 * periods and whether it includes personal fonts), and its requests, newest first.
 */
export async function planChoices(d: Deps, account: Pick<Account, 'id' | 'plan'>, limit = 10) {
  const plan = d.store.plans[account.plan];
  return {
    plan: { id: plan.id, name: plan.name, personalFonts: plan.premiumFonts },
    plans: Object.values(d.store.plans)
      .filter((p) => p.id !== 'none')
      .map((p) => ({
        id: p.id,
        name: p.name,
        periods: planPeriods(p),
        sheetsPerPeriod: p.sheetsPerPeriod,
        pagesPerDay: p.pagesPerDay,
        personalFonts: p.premiumFonts,
      })),
    requests: (await d.store.planRequests.list({ accountId: account.id, limit })).data,
  };
}

/** The owner takes back a pending request. */
export async function withdrawPlanRequest(d: Deps, accountId: string, id: string): Promise<PlanRequest> {
  const done = await d.store.planRequests.decide(id, { status: 'withdrawn', note: null, accountId }, d.now());
  if (done) return done.request;
  const found = await d.store.planRequests.find(id);
  if (!found || found.accountId !== accountId)
    throw new Refusal('missing', `plan request ${shownId(id)} is not a request of this account`);
  throw new Refusal('invalid', `plan request ${shownId(id)} is ${found.status} already, not pending`, {
    field: 'id',
  });
}

/** Every account's requests, newest first, of one status or all: the operator's list. */
export function listPlanRequests(
  d: Deps,
  filter: { status?: PlanRequestStatus; accountId?: string; limit: number; cursor?: string },
): Promise<Page<PlanRequest>> {
  return d.store.planRequests.list(filter);
}

/**
 * An operator's decision: approved (the account has the plan at once: a new period starts, its
 * trial hands' fonts become personal where the plan includes personal fonts) or refused with a
 * reason the account sees. A request decided or withdrawn already is refused, unchanged.
 */
export async function decidePlanRequest(
  d: Deps,
  id: string,
  input: { decision: 'approve' | 'refuse'; note?: unknown },
): Promise<{ request: PlanRequest; account: Account | null }> {
  const refuse = input.decision === 'refuse';
  const why = note(input.note, refuse ? 'reason' : 'note', refuse);
  const done = await d.store.planRequests.decide(
    id,
    { status: refuse ? 'refused' : 'approved', note: why || null },
    d.now(),
  );
  if (done) return done;
  const found = await d.store.planRequests.find(id);
  if (!found) throw new Refusal('missing', `plan request ${shownId(id)} does not exist`);
  throw new Refusal('invalid', `plan request ${shownId(id)} is ${found.status} already, not pending`, {
    field: 'id',
  });
}
