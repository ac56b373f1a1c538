// Which front end admitted a job. In a farm each API instance holds at most 32 queued jobs of
// its own (spec §8, "per backend instance"); the column lets it count them.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

export async function up(db: Kysely<Database>): Promise<void> {
  await db.schema.alterTable('generations').addColumn('admitted_by', 'text').execute();
  await db.schema
    .createIndex('generations_admitted')
    .on('generations')
    .columns(['admitted_by', 'status'])
    .execute();
}
