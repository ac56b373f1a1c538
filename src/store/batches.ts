// Batches (an extension, docs/batches.md). A batch is one row here and each of its rows a
// generation of its own; the batch keeps how many rows are left, counted off in the very
// transaction that ends each row (rowEnded), so the batch ends exactly once, with its event.
import type { Selectable } from 'kysely';
import {
  admittedBatch,
  type Batch,
  type BatchCounts,
  type BatchHead,
  type BatchPart,
  batchView,
  type PartCounts,
} from '../domain/batch.ts';
import { balanceRefusal, checkBeforeWork, decideAmount } from '../domain/billing.ts';
import { Refusal } from '../domain/errors.ts';
import {
  admittedJob,
  type Job,
  type JobStatus,
  type Metadata,
  type NewJob,
  UNFINISHED,
} from '../domain/generation.ts';
import type { Tenant } from '../domain/tenant.ts';
import { type AdmissionLimits, admit } from './admission.ts';
import type { BillingRepo } from './billing.ts';
import { type Db, num, type Tx } from './database.ts';
import { rowOf, toJob } from './job-rows.ts';
import { type Kept, settleIn } from './idempotency.ts';
import { type Page, pageOf } from './paging.ts';
import type { BatchesTable } from './schema.ts';
import type { WebhookRepo } from './webhooks.ts';

type Row = Selectable<BatchesTable>;

const toBatch = (r: Selectable<BatchesTable>): Batch => ({
  id: r.id,
  accountId: r.account_id,
  mode: r.mode as Tenant['mode'],
  templateId: r.template_id,
  templateRevision: num(r.template_revision),
  status: r.status as Batch['status'],
  rowCount: num(r.row_count),
  rowEvents: num(r.row_events) === 1,
  merge: num(r.merge) === 1,
  envelopeTemplateId: r.envelope_template_id,
  metadata: r.metadata ? (JSON.parse(r.metadata) as Metadata) : {},
  requestId: r.request_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  completedAt: r.completed_at,
  cancelledAt: r.cancelled_at,
});

/** A completed row's stored PDF, as a batch's archive takes it. */
export interface BatchOutput {
  id: string;
  index: number;
  part: BatchPart;
  blobKey: string | null;
  blobDigest: { sha256: string; bytes: number } | null;
  metadata: Metadata;
}

/** A batch as submitted: what the use-case made of the request, its rows made as jobs. */
export interface NewBatch extends BatchHead {
  /** Rows sent. */
  rowCount: number;
  /** Each row's jobs (with `row` set: its letter, then its envelope), in row order. */
  rows: NewJob[];
  /** The least the batch can cost: one page a document, and those pages' milli-sheets. */
  estimate: { pages: number; milli: number };
}

/** Rows inserted per statement (well under both dialects' limits on bound values). */
const INSERT_CHUNK = 400;

export class BatchRepo {
  constructor(
    private readonly db: Db,
    private readonly billing: BillingRepo,
    private readonly webhooks: WebhookRepo,
  ) {}

  /**
   * Admission and creation in one transaction: the batch is one unfinished job of its account;
   * the plan allowance and balance must cover its least cost (every row one page). Every row's
   * job is written queued; a request sent with an idempotency key keeps its answer in the same commit.
   */
  async submit(tenant: Tenant, b: NewBatch, limits: AdmissionLimits, now: Date, keep?: Kept): Promise<Batch> {
    return this.db.write(async (tx) => {
      await admit(this.db, tx, tenant, limits);
      const { state } = await this.billing.load(tx, tenant, now, true);
      const before = checkBeforeWork(state);
      if (!before.ok)
        throw new Refusal('balance', balanceRefusal('cannot start a batch', before, tenant.mode));
      const whole = decideAmount(state, b.estimate.pages, b.estimate.milli);
      if (!whole.ok)
        throw new Refusal(
          'balance',
          balanceRefusal(
            `cannot start a batch of ${b.rowCount} rows (at least ${b.estimate.pages} pages)`,
            whole,
            tenant.mode,
          ),
        );
      const batch = admittedBatch(tenant, { ...b, rows: b.rowCount }, now);
      await tx
        .insertInto('batches')
        .values({
          id: batch.id,
          account_id: batch.accountId,
          mode: batch.mode,
          template_id: batch.templateId,
          template_revision: batch.templateRevision,
          status: batch.status,
          row_count: batch.rowCount,
          rows_left: b.rows.length,
          row_events: batch.rowEvents ? 1 : 0,
          merge: batch.merge ? 1 : 0,
          envelope_template_id: batch.envelopeTemplateId,
          metadata: Object.keys(batch.metadata).length ? JSON.stringify(batch.metadata) : null,
          admitted_by: limits.instance ?? null,
          request_id: batch.requestId,
          created_at: batch.createdAt,
          updated_at: batch.updatedAt,
          completed_at: null,
          cancelled_at: null,
        })
        .execute();
      for (let i = 0; i < b.rows.length; i += INSERT_CHUNK) {
        const chunk = b.rows.slice(i, i + INSERT_CHUNK);
        await tx
          .insertInto('generations')
          .values(chunk.map((job) => rowOf(admittedJob(tenant, job, now), job.spec, limits.instance)))
          .execute();
      }
      await this.billing.count(tx, tenant, now, { generations: b.rows.length });
      if (keep) await settleIn(tx, keep.claim, keep.reply);
      return batch;
    });
  }

  /** One batch of this tenant, or null (another account's or mode's reads as missing). */
  async get(tenant: Tenant, id: string, on: Tx = this.db.kysely): Promise<Batch | null> {
    const row = await on
      .selectFrom('batches')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', tenant.accountId)
      .where('mode', '=', tenant.mode)
      .executeTakeFirst();
    return row ? toBatch(row) : null;
  }

  /** A tenant's batches, newest first. */
  list(tenant: Tenant, opts: { limit: number; cursor?: string | undefined }): Promise<Page<Batch>> {
    const q = this.db.kysely
      .selectFrom('batches')
      .selectAll()
      .where('account_id', '=', tenant.accountId)
      .where('mode', '=', tenant.mode);
    return pageOf(q, opts, toBatch);
  }

  /** Its rows by status, with the pages and sheets of the completed ones. */
  async counts(id: string, on: Tx = this.db.kysely): Promise<BatchCounts> {
    const rows = await on
      .selectFrom('generations')
      .select((eb) => [
        'status',
        'part',
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>('pages').as('pages'),
        eb.fn.sum<number>('credits_milli').as('credits'),
        eb.fn.min<string>('expires_at').as('expires'),
      ])
      .where('batch_id', '=', id)
      .groupBy(['status', 'part'])
      .execute();
    const partCounts = (part: BatchPart): PartCounts => {
      const of = (s: JobStatus) => num(rows.find((r) => r.status === s && (r.part ?? 'letter') === part)?.n);
      return {
        queued: of('queued'),
        processing: of('processing'),
        completed: of('completed'),
        failed: of('failed'),
        cancelled: of('cancelled'),
      };
    };
    const done = rows.filter((r) => r.status === 'completed');
    const expires = done
      .map((r) => r.expires)
      .filter((e): e is string => !!e)
      .sort();
    return {
      ...partCounts('letter'),
      envelopes: rows.some((r) => r.part === 'envelope') ? partCounts('envelope') : null,
      pages: done.reduce((n, r) => n + num(r.pages), 0),
      creditsMilli: done.reduce((n, r) => n + num(r.credits), 0),
      expiresAt: expires[0] ?? null,
    };
  }

  /** A page of its rows in row order, narrowed by status; the cursor is the next row's index. */
  async rows(
    id: string,
    opts: { limit: number; cursor?: string | undefined; status?: JobStatus | undefined },
  ): Promise<Page<{ letter: Job; envelope: Job | undefined }>> {
    const from = opts.cursor === undefined ? 0 : Number(opts.cursor);
    if (!Number.isInteger(from) || from < 0 || !/^\d+$/.test(opts.cursor ?? '0'))
      throw new Refusal('invalid', 'cursor must be a nextCursor from an earlier page, got an unknown value', {
        field: 'cursor',
      });
    let q = this.db.kysely
      .selectFrom('generations')
      .selectAll()
      .where('batch_id', '=', id)
      .where('part', '=', 'letter')
      .where('row_index', '>=', from);
    if (opts.status) q = q.where('status', '=', opts.status);
    const found = await q
      .orderBy('row_index')
      .limit(opts.limit + 1)
      .execute();
    const letters = found.slice(0, opts.limit).map(toJob);
    const indexes = letters.map((l) => l.rowIndex!);
    const envelopes = indexes.length
      ? (
          await this.db.kysely
            .selectFrom('generations')
            .selectAll()
            .where('batch_id', '=', id)
            .where('part', '=', 'envelope')
            .where('row_index', 'in', indexes)
            .execute()
        ).map(toJob)
      : [];
    const data = letters.map((letter) => ({
      letter,
      envelope: envelopes.find((e) => e.rowIndex === letter.rowIndex),
    }));
    const next = found[opts.limit];
    return { data, hasMore: next !== undefined, nextCursor: next ? String(next.row_index) : null };
  }

  /** Its completed rows whose outputs are still kept at `now`, in row order, `limit` from index `from`. */
  async outputs(id: string, now: Date, from: number, limit: number): Promise<BatchOutput[]> {
    const found = await this.db.kysely
      .selectFrom('generations')
      .select(['id', 'row_index', 'part', 'blob_key', 'blob_sha256', 'blob_bytes', 'metadata'])
      .where('batch_id', '=', id)
      .where('status', '=', 'completed')
      .where('row_index', '>=', from)
      .where('blob_key', 'is not', null)
      .where('expires_at', '>', now.toISOString())
      .orderBy('row_index')
      .orderBy('part', 'desc')
      .limit(limit)
      .execute();
    return found.map((r) => ({
      id: r.id,
      index: num(r.row_index),
      part: (r.part ?? 'letter') as BatchPart,
      blobKey: r.blob_key,
      blobDigest:
        r.blob_sha256 && r.blob_bytes !== null ? { sha256: r.blob_sha256, bytes: num(r.blob_bytes) } : null,
      metadata: r.metadata ? (JSON.parse(r.metadata) as Metadata) : {},
    }));
  }

  /** The first `share` unfinished rows in row order: the ones that should be in the queue now. */
  async nextRows(id: string, share: number): Promise<{ id: string; accountId: string }[]> {
    const found = await this.db.kysely
      .selectFrom('generations')
      .select(['id', 'account_id'])
      .where('batch_id', '=', id)
      .where('status', 'in', UNFINISHED)
      .orderBy('row_index')
      .orderBy('part', 'desc')
      .limit(share)
      .execute();
    return found.map((r) => ({ id: r.id, accountId: r.account_id }));
  }

  /**
   * Cancels the rows not yet started, uncharged; running rows finish. The batch ends `cancelled`
   * once its last row ends (now, when none runs). Again on a cancelled batch: the same answer; a
   * completed one is refused and left as it is. Rows are locked before the batch, as everywhere.
   */
  async cancel(tenant: Tenant, id: string, now: Date): Promise<{ batch: Batch; cancelled: number } | null> {
    return this.db.write(async (tx) => {
      const found = await this.get(tenant, id, tx);
      if (!found) return null;
      if (found.status === 'cancelled' || found.cancelledAt) return { batch: found, cancelled: 0 };
      if (found.status === 'completed')
        throw new Refusal('conflict', 'the batch is completed and can no longer be cancelled');
      const at = now.toISOString();
      const rows = await this.db
        .forUpdate(
          tx.selectFrom('generations').select('id').where('batch_id', '=', id).where('status', '=', 'queued'),
        )
        .execute();
      if (rows.length)
        await tx
          .updateTable('generations')
          .set({ status: 'cancelled', cancelled_at: at, updated_at: at })
          .where('batch_id', '=', id)
          .where('status', '=', 'queued')
          .execute();
      if (rows.length) await this.billing.count(tx, tenant, now, { cancelled_generations: rows.length });
      const batch = await this.lock(tx, id);
      const left = num(batch.rows_left) - rows.length;
      const ended = left <= 0;
      await tx
        .updateTable('batches')
        .set({
          rows_left: left,
          cancelled_at: at,
          updated_at: at,
          ...(ended ? { status: 'cancelled', completed_at: at } : {}),
        })
        .where('id', '=', id)
        .execute();
      return {
        batch: toBatch({
          ...batch,
          cancelled_at: at,
          updated_at: at,
          ...(ended ? { status: 'cancelled', completed_at: at } : {}),
        }),
        cancelled: rows.length,
      };
    });
  }

  /**
   * Inside the transaction that ended one of its rows: the row's event where the batch asked for
   * them, the row counted off, and with the last one the batch ended (`batch.completed`, unless
   * it was cancelled).
   */
  async rowEnded(tx: Tx, job: Job, now: Date): Promise<void> {
    const batch = await this.lock(tx, job.batchId!);
    if (num(batch.row_events) === 1) await this.webhooks.enqueue(tx, job, now);
    const left = num(batch.rows_left) - 1;
    const at = now.toISOString();
    if (left > 0) {
      await tx
        .updateTable('batches')
        .set({ rows_left: left, updated_at: at })
        .where('id', '=', batch.id)
        .execute();
      return;
    }
    const status = batch.cancelled_at ? 'cancelled' : 'completed';
    await tx
      .updateTable('batches')
      .set({ rows_left: 0, status, completed_at: at, updated_at: at })
      .where('id', '=', batch.id)
      .execute();
    if (status !== 'completed') return;
    const ended = toBatch({ ...batch, status, completed_at: at, updated_at: at });
    const counts = await this.counts(batch.id, tx);
    await this.webhooks.enqueueBatch(tx, ended, ended.id, batchView(ended, counts), now);
  }

  /** Unfinished batches: the feeder's work after a start. */
  async unfinished(): Promise<string[]> {
    const rows = await this.db.kysely
      .selectFrom('batches')
      .select('id')
      .where('status', '=', 'queued')
      .orderBy('created_at')
      .execute();
    return rows.map((r) => r.id);
  }

  private async lock(tx: Tx, id: string): Promise<Row> {
    const row = await this.db
      .forUpdate(tx.selectFrom('batches').selectAll().where('id', '=', id))
      .executeTakeFirst();
    if (!row) throw new Error(`batch ${id} is missing`);
    return row;
  }
}
