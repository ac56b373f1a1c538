// Hands (docs/personal-hands.md): an account's personal font built from filled sample-sheet
// pages, as the dashboard edits it: the pictures (blob keys), the edits, and the personal font
// its last build made.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('hands')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sheet', 'text', (c) => c.notNull())
    .addColumn('scans', 'text', (c) => c.notNull())
    .addColumn('edits', 'text', (c) => c.notNull())
    .addColumn('font_id', 'text')
    .addColumn('built_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('hands_account').on('hands').columns(['account_id', 'created_at']).execute();
}
