// Admission of new work (spec §3, §8): the account's unfinished jobs and the instance's queue,
// checked under one lock so that parallel submissions admit exactly as many as the limits allow.
// A batch counts as one job toward both, whatever its number of rows.
import { sql } from 'kysely';
import { Refusal } from '../domain/errors.ts';
import { UNFINISHED } from '../domain/generation.ts';
import type { Tenant } from '../domain/tenant.ts';
import { type Db, num, type Tx } from './database.ts';

export interface AdmissionLimits {
  /** Unfinished jobs per account (spec §8: 2); a batch is one. */
  unfinished: number;
  /** Queued jobs on this instance (spec §8: 32); an unfinished batch is one. */
  queued: number;
  /**
   * The admitting instance, where several share one queue (farm): only the jobs it admitted
   * count toward its `queued`. Without one, every queued job counts (one process owns them all).
   */
  instance?: string;
}

/**
 * Takes the admission lock and refuses when the account or the instance is full. PostgreSQL takes
 * a transaction lock; SQLite's write transaction already holds its lock.
 */
export async function admit(db: Db, tx: Tx, tenant: Tenant, limits: AdmissionLimits): Promise<void> {
  if (db.dialect === 'postgres')
    await sql`select pg_advisory_xact_lock(hashtext('scriptorium:admission'))`.execute(tx);
  const jobs = await tx
    .selectFrom('generations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', tenant.accountId)
    .where('status', 'in', UNFINISHED)
    .where('batch_id', 'is', null)
    .executeTakeFirst();
  const batches = await tx
    .selectFrom('batches')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', tenant.accountId)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  const unfinished = num(jobs?.n) + num(batches?.n);
  if (unfinished >= limits.unfinished) {
    throw new Refusal(
      'limit',
      `the account has ${unfinished} unfinished jobs, the most allowed is ${limits.unfinished}: wait for one to finish`,
      { retryAfter: 60, quota: { name: 'unfinished-jobs', limit: limits.unfinished, reset: 60 } },
    );
  }
  let queuedJobs = tx
    .selectFrom('generations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'queued')
    .where('batch_id', 'is', null);
  let openBatches = tx
    .selectFrom('batches')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'queued');
  if (limits.instance !== undefined) {
    queuedJobs = queuedJobs.where('admitted_by', '=', limits.instance);
    openBatches = openBatches.where('admitted_by', '=', limits.instance);
  }
  const queued =
    num((await queuedJobs.executeTakeFirst())?.n) + num((await openBatches.executeTakeFirst())?.n);
  if (queued >= limits.queued) {
    throw new Refusal(
      'limit',
      `the queue holds ${queued} jobs, the most allowed is ${limits.queued}: try again shortly`,
      { retryAfter: 60, quota: { name: 'queue-full', limit: limits.queued, reset: 60 } },
    );
  }
}
