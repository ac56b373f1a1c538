// Plan change requests (docs/decisions.md, "A hand for every plan"): an owner asks for a plan
// from the dashboard; an operator approves it (the plan changes in the same transaction) or
// refuses it with a reason. Every request is kept with who asked, when, and how it was decided.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('plan_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('period_days', 'integer')
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text')
    .addColumn('from_plan', 'text', (c) => c.notNull())
    .addColumn('decision_note', 'text')
    .addColumn('decided_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('plan_requests_account')
    .on('plan_requests')
    .columns(['account_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('plan_requests_status')
    .on('plan_requests')
    .columns(['status', 'created_at'])
    .execute();
}
