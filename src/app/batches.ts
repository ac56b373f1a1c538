// Batches (an extension, docs/batches.md): many rows of one template in one request. Every row is
// checked at submission as a generation would be, and a batch with bad rows creates nothing.
// Each row is a job of its own with its own seed; the feeder keeps at most BATCH_SHARE rows of an
// account's batches in the queue, so a batch spreads over every worker without crowding out
// other accounts' jobs, and the rest wait in the store (a restart resumes them from there).
import { parse as parseCsv } from 'csv-parse/sync';
import {
  admittedBatch,
  atRow,
  type Batch,
  BATCH_LIMITS,
  type BatchCounts,
  type BatchRow,
  parseBatchBody,
  parseBatchRow,
  rowSeed,
  rowsOfCsv,
} from '../domain/batch.ts';
import { ApiError, invalid } from '../domain/errors.ts';
import type { Job, JobStatus, NewJob } from '../domain/generation.ts';
import { isId, shownId } from '../domain/ids.ts';
import { milliSheetsPerPage } from '../domain/page-size.ts';
import type { TemplateModel } from '../domain/template.ts';
import type { Tenant } from '../domain/tenant.ts';
import { newId, sha256Hex } from '../lib/ids.ts';
import type { JobQueue } from '../queue/types.ts';
import type { Page, Store } from '../store/index.ts';
import type { Caller } from './auth.ts';
import { type JobDeps, ownTemplate, specChecker } from './generations.ts';
import { keptFor, type Remembered } from './idempotency.ts';

export interface SubmittedBatch {
  batch: Batch;
  counts: BatchCounts;
}

/** What a template takes as input: simple text, structured data, or v1 content. */
const takesOf = (t: TemplateModel): 'text' | 'data' | 'content' =>
  t.version === 1 ? 'content' : t.mode === 'structured' ? 'data' : 'text';

/** CSV text as records, a refusal naming the line where it is not CSV. */
function csvRecords(csv: string): string[][] {
  try {
    return parseCsv(csv, { bom: true, skip_empty_lines: true, relax_column_count: false }) as string[][];
  } catch (err) {
    const e = err as { message?: string; lines?: number };
    throw new ApiError(
      'INVALID_REQUEST',
      `csv is not valid CSV${e.lines ? ` at line ${e.lines}` : ''}: ${e.message ?? 'unreadable'}`,
      { field: 'csv' },
    );
  }
}

/**
 * POST /batches: checks every row, then admits the batch and writes every row's job in one
 * transaction, and hands its first rows to the queue. Bad rows: a refusal naming the first ones
 * (up to 10) and their fields, and nothing created.
 */
export async function submitBatch(
  d: JobDeps,
  caller: Caller,
  body: unknown,
  remember?: Remembered<SubmittedBatch>,
  requestId?: string,
): Promise<SubmittedBatch> {
  const parsed = parseBatchBody(body);
  const tenant = caller.tenant;
  const template = await ownTemplate(d, tenant, parsed.templateId);
  const raw =
    'json' in parsed.rows
      ? parsed.rows.json
      : rowsOfCsv(csvRecords(parsed.rows.csv), takesOf(template.model));
  const check = specChecker(d, caller, template.model);
  const id = newId('bat');
  const rows: NewJob[] = [];
  const faults: ApiError[] = [];
  for (const [index, value] of raw.entries()) {
    let row: BatchRow;
    let checked: Awaited<ReturnType<typeof check>>;
    try {
      row = parseBatchRow(template.id, value, index);
      checked = await check({ input: row.input });
    } catch (err) {
      faults.push(err instanceof ApiError && err.field?.startsWith('rows/') ? err : atRow(index, err));
      if (faults.length >= BATCH_LIMITS.reported) break;
      continue;
    }
    if (faults.length) continue;
    const seed = row.seed ?? rowSeed(id, index);
    const spec = {
      ...checked.spec,
      style: { ...checked.spec.style, modifiers: { ...checked.spec.style.modifiers, seed } },
    };
    rows.push({
      id: newId('gen'),
      kind: 'pdf',
      templateId: template.id,
      templateRevision: template.revision,
      template: checked.model,
      input: row.input,
      inputHash: sha256Hex(JSON.stringify(row.input)),
      spec,
      metadata: row.metadata,
      ...(requestId ? { requestId } : {}),
      row: { batchId: id, index, seed },
    });
  }
  if (faults.length) throw badRows(faults, raw.length);
  const now = d.now();
  const counts = freshCounts(rows.length);
  const made = {
    id,
    templateId: template.id,
    templateRevision: template.revision,
    metadata: parsed.metadata,
    rowEvents: parsed.rowEvents,
    ...(requestId ? { requestId } : {}),
  };
  const batch = await d.store.batches.submit(
    tenant,
    {
      ...made,
      rows,
      estimate: { pages: rows.length, milliPerPage: milliSheetsPerPage(rows[0]!.spec.style.pageSize) },
    },
    { unfinished: d.config.maxUnfinishedJobs, queued: d.config.queueMax, instance: d.instance },
    now,
    keptFor(remember, { batch: admittedBatch(tenant, { ...made, rows: rows.length }, now), counts }),
  );
  await feedBatch(d, batch.id);
  return { batch, counts };
}

/** The refusal of a batch with bad rows: the first ones named, the first one's field. */
function badRows(faults: ApiError[], total: number): ApiError {
  const first = faults[0]!;
  const more =
    faults.length >= BATCH_LIMITS.reported ? ` (the first ${faults.length} bad rows of ${total})` : '';
  return new ApiError(
    faults.every((f) => f.code === 'INVALID_TEMPLATE_DATA') ? 'INVALID_TEMPLATE_DATA' : first.code,
    `${faults.length === 1 ? 'a row is' : `${faults.length} rows are`} not valid${more}, nothing was created: ${faults.map((f) => f.message).join('; ')}`,
    first.field ? { field: first.field } : {},
  );
}

const freshCounts = (rows: number): BatchCounts => ({
  queued: rows,
  processing: 0,
  completed: 0,
  failed: 0,
  cancelled: 0,
  pages: 0,
  creditsMilli: 0,
  expiresAt: null,
});

/**
 * Hands the batch's next rows to the queue: its first BATCH_SHARE unfinished rows in row order
 * (rows the queue holds already are not added twice). Called when the batch is admitted, after
 * each of its rows ends, and at a start.
 */
export async function feedBatch(
  d: { store: Store; queue: JobQueue; config: { batchShare: number } },
  batchId: string,
): Promise<string[]> {
  const next = await d.store.batches.nextRows(batchId, d.config.batchShare);
  for (const row of next) d.queue.enqueue({ ...row, batch: { id: batchId, share: d.config.batchShare } });
  return next.map((r) => r.id);
}

/** One batch of the tenant, with its counts; a refusal as the API says it when there is none. */
export async function batchOf(
  d: { store: Store },
  tenant: Tenant,
  id: string,
): Promise<{ batch: Batch; counts: BatchCounts }> {
  const batch = isId('bat', id) ? await d.store.batches.get(tenant, id) : null;
  if (!batch) throw notFound(id);
  return { batch, counts: await d.store.batches.counts(batch.id) };
}

const notFound = (id: string) =>
  new ApiError('BATCH_NOT_FOUND', `no batch ${shownId(id)} for this account and key mode`);

/** The tenant's batches, newest first, each with its counts. */
export async function batchesPage(
  d: { store: Store },
  tenant: Tenant,
  paging: { limit: number; cursor?: string | undefined },
): Promise<Page<{ batch: Batch; counts: BatchCounts }>> {
  const page = await d.store.batches.list(tenant, paging);
  const data = await Promise.all(
    page.data.map(async (batch) => ({ batch, counts: await d.store.batches.counts(batch.id) })),
  );
  return { ...page, data };
}

/** A page of one batch's rows in row order. */
export async function batchRows(
  d: { store: Store },
  tenant: Tenant,
  id: string,
  opts: { limit: number; cursor?: string | undefined; status?: JobStatus | undefined },
): Promise<Page<Job>> {
  const { batch } = await batchOf(d, tenant, id);
  return d.store.batches.rows(batch.id, opts);
}

/** POST /batches/{id}/cancel: the rows not yet started are cancelled, uncharged; running ones finish. */
export async function cancelBatch(
  d: { store: Store; now: () => Date },
  tenant: Tenant,
  id: string,
): Promise<{ batch: Batch; counts: BatchCounts }> {
  const done = isId('bat', id) ? await d.store.batches.cancel(tenant, id, d.now()) : null;
  if (!done) throw notFound(id);
  return { batch: done.batch, counts: await d.store.batches.counts(done.batch.id) };
}

/** The index a ZIP entry's name takes a metadata field from: letters, digits, `.`, `-` and `_` only. */
export function entryName(index: number, width: number, label: string | undefined): string {
  const n = String(index).padStart(width, '0');
  const safe = label
    ?.normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return safe ? `${n}-${safe}.pdf` : `${n}.pdf`;
}

/** `name`: a metadata key to name ZIP entries by; refused when it cannot be one. */
export function checkNameField(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[^\s]{1,40}$/.test(value)) throw invalid('name', 'a metadata key of 1-40 characters', value);
  return value;
}
