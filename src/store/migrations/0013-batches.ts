// Batches (an extension, docs/batches.md): many rows of one template in one request. The batch
// is one row here; each of its rows is a generation of its own (its own job record, seed and
// charge) that names the batch and its index in it.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('template_id', 'text', (c) => c.notNull())
    .addColumn('template_revision', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('row_count', 'integer', (c) => c.notNull())
    .addColumn('rows_left', 'integer', (c) => c.notNull())
    .addColumn('row_events', 'integer', (c) => c.notNull())
    .addColumn('envelope_template_id', 'text')
    .addColumn('metadata', 'text')
    .addColumn('admitted_by', 'text')
    .addColumn('request_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addColumn('cancelled_at', 'text')
    .execute();
  await db.schema
    .createIndex('batches_account')
    .on('batches')
    .columns(['account_id', 'mode', 'created_at'])
    .execute();
  await db.schema.createIndex('batches_status').on('batches').columns(['status']).execute();
  await db.schema.alterTable('generations').addColumn('batch_id', 'text').execute();
  await db.schema.alterTable('generations').addColumn('row_index', 'integer').execute();
  await db.schema.alterTable('generations').addColumn('seed', 'integer').execute();
  await db.schema.alterTable('generations').addColumn('part', 'text').execute();
  await db.schema
    .createIndex('generations_batch')
    .on('generations')
    .columns(['batch_id', 'row_index'])
    .execute();
}
