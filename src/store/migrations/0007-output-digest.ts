// Each stored output's length and SHA-256, written by the completion commit, so that a download
// verifies what it streams (a truncated or altered file is never served as a whole one). Jobs
// completed before this column have none and are served as they are.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

export async function up(db: Kysely<Database>): Promise<void> {
  await db.schema.alterTable('generations').addColumn('blob_sha256', 'text').execute();
  await db.schema.alterTable('generations').addColumn('blob_bytes', 'bigint').execute();
}
