// The render specification of a job, mapped from its template and input once, at submission
// (DESIGN §3). Jobs admitted before this column have none and are mapped from their snapshot.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

export async function up(db: Kysely<Database>): Promise<void> {
  await db.schema.alterTable('generations').addColumn('render_spec', 'text').execute();
}
