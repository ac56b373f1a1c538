// A batch sent with `merge: true` offers its completed rows as one PDF (docs/batches.md).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('batches')
    .addColumn('merge', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
