// A job's `metadata` (an extension): the integrator's own string keys and values, echoed on the
// job and in its webhook events. Null for jobs sent without any.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

export async function up(db: Kysely<Database>): Promise<void> {
  await db.schema.alterTable('generations').addColumn('metadata', 'text').execute();
}
