import { balanceRefusal, type ChargeRefusal, checkBeforeWork } from '../domain/billing.ts';
import { Refusal } from '../domain/errors.ts';
import {
  admittedJob,
  canMove,
  type Job,
  type JobError,
  type JobKind,
  type JobStatus,
  type NewJob,
  UNFINISHED,
} from '../domain/generation.ts';
import type { RenderSpec } from '../render/index.ts';
import type { Tenant } from '../domain/tenant.ts';
import { type AdmissionLimits, admit } from './admission.ts';
import type { BatchRepo } from './batches.ts';
import type { BillingRepo } from './billing.ts';
import { type Db, num, type Tx } from './database.ts';
import { type Kept, settleIn } from './idempotency.ts';
import { type Page, pageOf } from './paging.ts';
import type { WebhookRepo } from './webhooks.ts';

import { type Row, rowOf, toJob } from './job-rows.ts';

export type { NewJob } from '../domain/generation.ts';

export type { AdmissionLimits } from './admission.ts';

export type Completion =
  | { outcome: 'completed'; job: Job }
  | { outcome: 'refused'; job: Job; refusal: ChargeRefusal }
  /** Not this attempt's to finish: cancelled, finished already, or taken over by a newer attempt. */
  | { outcome: 'stale'; job: Job | null };

const tenantOf = (j: Job): Tenant => ({ accountId: j.accountId, mode: j.mode });
/** The job as setFailed leaves it. */
const failedJob = (j: Job, error: JobError, at: string): Job => ({
  ...j,
  status: 'failed',
  error,
  completedAt: at,
  updatedAt: at,
});

export class GenerationRepo {
  constructor(
    private readonly db: Db,
    private readonly billing: BillingRepo,
    private readonly webhooks: WebhookRepo,
    private readonly batches: BatchRepo,
  ) {}

  /**
   * Inside the transaction that set `job` to its final state: its event (a batch row's only where
   * its batch asked for them), and a batch row counted off its batch.
   */
  private async ended(tx: Tx, job: Job, now: Date): Promise<void> {
    if (job.batchId !== null) await this.batches.rowEnded(tx, job, now);
    else await this.webhooks.enqueue(tx, job, now);
  }

  /**
   * Admission and creation in one transaction (spec §3, §8): the account's unfinished jobs, the
   * instance's queue, and for a PDF some allowance left. Every submission takes the same lock,
   * so 25 parallel requests of one account admit exactly as many as the limit allows. A
   * request sent with an idempotency key keeps its answer in the same commit.
   */
  async submit(tenant: Tenant, job: NewJob, limits: AdmissionLimits, now: Date, keep?: Kept): Promise<Job> {
    return this.db.write(async (tx) => {
      await admit(this.db, tx, tenant, limits);
      if (job.kind === 'pdf') {
        const { state } = await this.billing.load(tx, tenant, now, true);
        const check = checkBeforeWork(state);
        if (!check.ok)
          throw new Refusal('balance', balanceRefusal('cannot start a generation', check, tenant.mode));
      }
      const created = admittedJob(tenant, job, now);
      await tx
        .insertInto('generations')
        .values(rowOf(created, job.spec, limits.instance))
        .execute();
      await this.billing.count(tx, tenant, now, job.kind === 'pdf' ? { generations: 1 } : { previews: 1 });
      if (keep) await settleIn(tx, keep.claim, keep.reply);
      return created;
    });
  }

  /** One job of this tenant, or null (another account's or mode's reads as missing). */
  async get(tenant: Tenant, id: string): Promise<Job | null> {
    const row = await this.db.kysely
      .selectFrom('generations')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', tenant.accountId)
      .where('mode', '=', tenant.mode)
      .executeTakeFirst();
    return row ? toJob(row) : null;
  }

  /** The render specification stored at submission; null for a job admitted before specs were stored. */
  async renderSpec(id: string): Promise<RenderSpec | null> {
    const row = await this.db.kysely
      .selectFrom('generations')
      .select('render_spec')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.render_spec ? (JSON.parse(row.render_spec) as RenderSpec) : null;
  }

  /** Any job, for the workers. */
  async find(id: string): Promise<Job | null> {
    const row = await this.db.kysely
      .selectFrom('generations')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toJob(row) : null;
  }

  /** A tenant's jobs, newest first, narrowed by status, kind and creation time (`from` ≤ t < `to`). */
  async list(
    tenant: Tenant,
    opts: {
      limit: number;
      cursor?: string | undefined;
      status?: JobStatus | undefined;
      kind?: JobKind | undefined;
      created?: { from?: string; to?: string };
    },
  ): Promise<Page<Job>> {
    let q = this.db.kysely
      .selectFrom('generations')
      .selectAll()
      .where('account_id', '=', tenant.accountId)
      .where('mode', '=', tenant.mode)
      .where('batch_id', 'is', null);
    if (opts.status) q = q.where('status', '=', opts.status);
    if (opts.kind) q = q.where('kind', '=', opts.kind);
    if (opts.created?.from) q = q.where('created_at', '>=', opts.created.from);
    if (opts.created?.to) q = q.where('created_at', '<', opts.created.to);
    return pageOf(q, opts, toJob);
  }

  /** Jobs of every account (the admin API), newest first, narrowed by any of the filters. */
  async listAll(opts: {
    limit: number;
    cursor?: string | undefined;
    status?: JobStatus | undefined;
    accountId?: string | undefined;
    mode?: Tenant['mode'] | undefined;
    kind?: JobKind | undefined;
  }): Promise<Page<Job>> {
    let q = this.db.kysely.selectFrom('generations').selectAll();
    if (opts.status) q = q.where('status', '=', opts.status);
    if (opts.accountId) q = q.where('account_id', '=', opts.accountId);
    if (opts.mode) q = q.where('mode', '=', opts.mode);
    if (opts.kind) q = q.where('kind', '=', opts.kind);
    return pageOf(q, opts, toJob);
  }

  /** Unfinished jobs of the whole service by status: the farm-wide queue figures. */
  async unfinishedCounts(): Promise<{ queued: number; processing: number }> {
    const rows = await this.db.kysely
      .selectFrom('generations')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('status', 'in', UNFINISHED)
      .groupBy('status')
      .execute();
    const of = (s: string) => num(rows.find((r) => r.status === s)?.n);
    return { queued: of('queued'), processing: of('processing') };
  }

  /** The unexpired preview of this template revision and input, if one is queued, running or done. */
  async findPreview(
    tenant: Tenant,
    templateId: string,
    revision: number,
    inputHash: string,
    now: Date,
  ): Promise<Job | null> {
    const row = await this.db.kysely
      .selectFrom('generations')
      .selectAll()
      .where('account_id', '=', tenant.accountId)
      .where('mode', '=', tenant.mode)
      .where('input_hash', '=', inputHash)
      .where('kind', '=', 'preview')
      .where('template_id', '=', templateId)
      .where('template_revision', '=', revision)
      .where((eb) =>
        eb.or([
          eb('status', 'in', UNFINISHED),
          eb.and([eb('status', '=', 'completed'), eb('expires_at', '>', now.toISOString())]),
        ]),
      )
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    return row ? toJob(row) : null;
  }

  /**
   * A worker takes the job: queued → processing, or a processing job whose worker is gone taken
   * over. Either way the attempt number goes up; only that attempt may finish it. Null when the
   * job is no longer to be run; a job taken `maxAttempts` times already fails instead (its
   * storage kept failing or its worker kept dying), uncharged.
   */
  async claim(id: string, now: Date, maxAttempts = Number.POSITIVE_INFINITY): Promise<Job | null> {
    return this.db.write(async (tx) => {
      const row = await this.lockRow(tx, id);
      if (!row || (row.status !== 'queued' && row.status !== 'processing')) return null;
      const at = now.toISOString();
      if (num(row.attempt) >= maxAttempts) {
        const job = toJob(row);
        const error: JobError = {
          code: 'GENERATION_FAILED',
          message: `the job was started ${num(row.attempt)} times without finishing (the service kept failing); nothing was charged`,
        };
        await this.setFailed(tx, job, error, at);
        if (job.kind === 'pdf') await this.billing.count(tx, tenantOf(job), now, { failed_generations: 1 });
        await this.ended(tx, failedJob(job, error, at), now);
        return null;
      }
      await tx
        .updateTable('generations')
        .set({
          status: 'processing',
          attempt: num(row.attempt) + 1,
          started_at: row.started_at ?? at,
          updated_at: at,
        })
        .where('id', '=', id)
        .execute();
      return toJob({
        ...row,
        status: 'processing',
        attempt: num(row.attempt) + 1,
        started_at: row.started_at ?? at,
        updated_at: at,
      });
    });
  }

  /**
   * The completion commit (DESIGN §9): with the output already stored under `blobKey`, one
   * transaction re-checks the whole charge, writes the ledger (plan sheets first, then extra) and
   * sets the job completed; a shortfall fails the job with nothing charged.
   */
  async complete(
    id: string,
    attempt: number,
    out: {
      pages: number;
      blobKey: string;
      /** The stored output's SHA-256 (hex) and length, which downloads verify. */
      sha256: string;
      bytes: number;
      milliPerPage: number;
      expiresAt: string;
    },
    now: Date,
  ): Promise<Completion> {
    return this.db.write(async (tx) => {
      const row = await this.lockRow(tx, id);
      if (row?.status !== 'processing' || num(row.attempt) !== attempt)
        return { outcome: 'stale', job: row ? toJob(row) : null };
      const job = toJob(row);
      const at = now.toISOString();
      let credits: number | null = null;
      if (job.kind === 'pdf') {
        const charge = await this.billing.chargeIn(
          tx,
          tenantOf(job),
          { jobId: id, pages: out.pages, milliPerPage: out.milliPerPage },
          now,
        );
        if (!charge.ok) {
          const error: JobError = {
            code: 'INSUFFICIENT_BALANCE',
            message: `not charged and no PDF issued: ${charge.message}`,
          };
          await this.setFailed(tx, job, error, at);
          await this.billing.count(tx, tenantOf(job), now, { failed_generations: 1 });
          const failed = failedJob(job, error, at);
          await this.ended(tx, failed, now);
          return { outcome: 'refused', job: failed, refusal: charge };
        }
        credits = charge.totalMilli;
        await this.billing.count(tx, tenantOf(job), now, { successful_generations: 1 });
      }
      const done = {
        status: 'completed',
        pages: out.pages,
        credits_milli: credits,
        blob_key: out.blobKey,
        blob_sha256: out.sha256,
        blob_bytes: out.bytes,
        completed_at: at,
        expires_at: out.expiresAt,
        updated_at: at,
      };
      await tx.updateTable('generations').set(done).where('id', '=', id).execute();
      const completed = toJob({ ...row, ...done });
      await this.ended(tx, completed, now);
      return { outcome: 'completed', job: completed };
    });
  }

  /** This attempt failed (render error, timeout, too many pages, too large): nothing charged. */
  async fail(id: string, attempt: number, error: JobError, now: Date): Promise<Job | null> {
    return this.db.write(async (tx) => {
      const row = await this.lockRow(tx, id);
      if (row?.status !== 'processing' || num(row.attempt) !== attempt) return null;
      const job = toJob(row);
      const at = now.toISOString();
      await this.setFailed(tx, job, error, at);
      if (job.kind === 'pdf') await this.billing.count(tx, tenantOf(job), now, { failed_generations: 1 });
      const failed = failedJob(job, error, at);
      await this.ended(tx, failed, now);
      return failed;
    });
  }

  /**
   * Cancels a queued or processing job without charge (DESIGN §4): again on a cancelled job is
   * the same answer; a completed or failed job is left as it is and refused.
   */
  async cancel(tenant: Tenant, id: string, now: Date): Promise<Job | null> {
    return this.db.write(async (tx) => {
      const row = await this.lockRow(tx, id);
      if (!row || row.account_id !== tenant.accountId || row.mode !== tenant.mode) return null;
      const job = toJob(row);
      if (job.status === 'cancelled') return job;
      if (!canMove(job.status, 'cancelled')) {
        throw new Refusal('conflict', `the job is ${job.status} and can no longer be cancelled`);
      }
      const at = now.toISOString();
      await tx
        .updateTable('generations')
        .set({ status: 'cancelled', cancelled_at: at, updated_at: at })
        .where('id', '=', id)
        .execute();
      if (job.kind === 'pdf') await this.billing.count(tx, tenant, now, { cancelled_generations: 1 });
      const cancelled: Job = { ...job, status: 'cancelled', cancelledAt: at, updatedAt: at };
      await this.ended(tx, cancelled, now);
      return cancelled;
    });
  }

  /** Jobs to run after a start: queued ones, and processing ones whose worker is gone, oldest first. */
  async unfinished(): Promise<
    { id: string; accountId: string; status: JobStatus; batchId: string | null }[]
  > {
    const rows = await this.db.kysely
      .selectFrom('generations')
      .select(['id', 'account_id', 'status', 'batch_id'])
      .where('status', 'in', UNFINISHED)
      .orderBy('created_at')
      .orderBy('row_index')
      .orderBy('part', 'desc')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      accountId: r.account_id,
      status: r.status as JobStatus,
      batchId: r.batch_id,
    }));
  }

  /** Completed jobs past their retention that still hold an output. */
  async expired(now: Date, limit: number): Promise<{ id: string; blobKey: string }[]> {
    const rows = await this.db.kysely
      .selectFrom('generations')
      .select(['id', 'blob_key'])
      .where('status', '=', 'completed')
      .where('expires_at', '<=', now.toISOString())
      .where('blob_key', 'is not', null)
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, blobKey: r.blob_key! }));
  }

  /** Forgets an expired job's output once it is deleted (the job stays completed; downloads say 410). */
  async clearBlob(id: string, blobKey: string, now: Date): Promise<void> {
    await this.db.write((tx) =>
      tx
        .updateTable('generations')
        .set({ blob_key: null, updated_at: now.toISOString() })
        .where('id', '=', id)
        .where('blob_key', '=', blobKey)
        .execute(),
    );
  }

  /** Whether some job holds this output key (the sweeper's test for an orphan). */
  async ownsBlob(blobKey: string): Promise<boolean> {
    const row = await this.db.kysely
      .selectFrom('generations')
      .select('id')
      .where('blob_key', '=', blobKey)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Whether the job may still write outputs: unfinished. */
  async isLive(id: string): Promise<boolean> {
    const row = await this.db.kysely
      .selectFrom('generations')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined && UNFINISHED.includes(row.status as JobStatus);
  }

  private async setFailed(tx: Tx, job: Job, error: JobError, at: string): Promise<void> {
    await tx
      .updateTable('generations')
      .set({
        status: 'failed',
        error_code: error.code,
        error_message: error.message,
        completed_at: at,
        updated_at: at,
      })
      .where('id', '=', job.id)
      .execute();
  }

  private lockRow(tx: Tx, id: string): Promise<Row | undefined> {
    return this.db
      .forUpdate(tx.selectFrom('generations').selectAll().where('id', '=', id))
      .executeTakeFirst();
  }
}
