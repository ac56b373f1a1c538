// The request that created a job (`req_…`), so its lifecycle lines in the logs can be joined to
// the access line of the POST that queued it. Null for jobs created before.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

export async function up(db: Kysely<Database>): Promise<void> {
  await db.schema.alterTable('generations').addColumn('request_id', 'text').execute();
}
