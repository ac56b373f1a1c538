// The tables of the system of record. Types stay portable: text, integer; dates are ISO text.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('plan_period_days', 'integer')
    .addColumn('plan_anchor', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('display_prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_account').on('api_keys').columns(['account_id']).execute();

  await db.schema
    .createTable('templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('templates_tenant')
    .on('templates')
    .columns(['account_id', 'mode', 'created_at'])
    .execute();

  await db.schema
    .createTable('fonts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('premium', 'integer', (c) => c.notNull())
    .addColumn('license', 'text', (c) => c.notNull())
    .addColumn('scripts', 'text', (c) => c.notNull())
    .addColumn('glyph_count', 'integer', (c) => c.notNull())
    .addColumn('codepoints', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('fonts_account').on('fonts').columns(['account_id']).execute();

  await db.schema
    .createTable('assets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('assets_tenant').on('assets').columns(['account_id', 'mode']).execute();

  await db.schema
    .createTable('generations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('template_id', 'text', (c) => c.notNull())
    .addColumn('template_revision', 'integer', (c) => c.notNull())
    .addColumn('template_snapshot', 'text', (c) => c.notNull())
    .addColumn('input', 'text', (c) => c.notNull())
    .addColumn('input_hash', 'text', (c) => c.notNull())
    .addColumn('pages', 'integer')
    .addColumn('credits_milli', 'integer')
    .addColumn('blob_key', 'text')
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('cancelled_at', 'text')
    .addColumn('expires_at', 'text')
    .execute();
  await db.schema
    .createIndex('generations_tenant')
    .on('generations')
    .columns(['account_id', 'mode', 'created_at'])
    .execute();
  await db.schema
    .createIndex('generations_status')
    .on('generations')
    .columns(['status', 'created_at'])
    .execute();
  await db.schema
    .createIndex('generations_preview')
    .on('generations')
    .columns(['account_id', 'mode', 'input_hash'])
    .execute();

  await db.schema
    .createTable('balances')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('extra_milli', 'integer', (c) => c.notNull().check(sqlNonNegative('extra_milli')))
    .addColumn('plan_used_milli', 'integer', (c) => c.notNull().check(sqlNonNegative('plan_used_milli')))
    .addColumn('plan_period_start', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('balances_pk', ['account_id', 'mode'])
    .execute();

  await db.schema
    .createTable('ledger')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('job_id', 'text')
    .addColumn('plan_milli', 'integer', (c) => c.notNull())
    .addColumn('extra_milli', 'integer', (c) => c.notNull())
    .addColumn('total_milli', 'integer', (c) => c.notNull())
    .addColumn('pages', 'integer', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // one charge per job and kind: a retried completion can never charge twice (DESIGN §6)
    .addUniqueConstraint('ledger_job_kind', ['job_id', 'kind'])
    .execute();
  await db.schema
    .createIndex('ledger_tenant')
    .on('ledger')
    .columns(['account_id', 'mode', 'created_at'])
    .execute();

  await db.schema
    .createTable('usage_daily')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('requests', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('generations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('successful_generations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_generations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cancelled_generations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_milli', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('renders', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('svg_renders', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('png_renders', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('previews', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_daily_pk', ['account_id', 'mode', 'day'])
    .execute();
}

/** A balance can never go below zero, whatever code writes it. */
function sqlNonNegative(column: string) {
  return sql`${sql.ref(column)} >= 0`;
}
