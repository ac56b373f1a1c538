// Batches (an extension, docs/batches.md): many rows of one template in one request. Every row is
// checked at submission as a generation would be, and a batch with bad rows creates nothing.
// Each row is a job of its own with its own seed; the feeder keeps at most BATCH_SHARE rows of an
// account's batches in the queue, so a batch spreads over every worker without crowding out
// other accounts' jobs, and the rest wait in the store (a restart resumes them from there).
import {
  admittedBatch,
  atRow,
  type Batch,
  BATCH_LIMITS,
  type BatchCounts,
  csvTarget,
  type BatchPart,
  type BatchRow,
  parseBatchBody,
  parseBatchRow,
  reservedSegment,
  rowSeed,
  rowsOfCsv,
} from '../domain/batch.ts';
import { invalid, apiRefusal, isDecided, type DecidedRefusal } from '../domain/errors.ts';
import type { Job, JobInput, JobStatus, NewJob } from '../domain/generation.ts';
import { isId, shownId } from '../domain/ids.ts';
import { milliSheetsPerPage } from '../domain/page-size.ts';
import type { TemplateModel } from '../domain/template.ts';
import { reservedKey } from '../domain/validation.ts';
import type { Tenant } from '../domain/tenant.ts';
import { newId, sha256Hex } from '../lib/ids.ts';
import type { Page, Store, TemplateRecord } from '../store/index.ts';
import type { Caller } from './auth.ts';
import { type JobDeps, ownTemplate, specChecker } from './generations.ts';
import { feedBatch } from './batch-feeder.ts';
import { keptFor, type Remembered } from './idempotency.ts';

export interface SubmittedBatch {
  batch: Batch;
  counts: BatchCounts;
}

type Checked = Awaited<ReturnType<ReturnType<typeof specChecker>>>;

/** The envelope template a batch names: the tenant's own, else TEMPLATE_NOT_FOUND at envelope/templateId. */
async function envelopeTemplate(d: JobDeps, tenant: Tenant, id: string): Promise<TemplateRecord> {
  try {
    return await ownTemplate(d, tenant, id);
  } catch (err) {
    if (!isDecided(err)) throw err;
    throw apiRefusal(err.code, `envelope: ${err.message}`, { field: 'envelope/templateId' });
  }
}

/**
 * CSV text as records (RFC 4180: each CRLF or LF ends a record outside quotes, whichever a line
 * uses), a refusal naming the line where it is not CSV, or where it holds U+FFFD: the mark a
 * reader leaves where bytes were not UTF-8 (no hand writes it).
 */
async function csvRecords(csv: string): Promise<string[][]> {
  const lost = csv.indexOf('\uFFFD');
  if (lost >= 0) {
    const line = csv.slice(0, lost).split('\n').length;
    throw apiRefusal(
      'INVALID_REQUEST',
      `csv is not UTF-8 text: line ${line} holds U+FFFD, the mark a reader leaves where a file's bytes were not UTF-8; read the file as UTF-8 (or save it as UTF-8) and send it again`,
      { field: 'csv' },
    );
  }
  // The CSV reader loads with the first CSV, not with the process.
  const { parse: parseCsv } = await import('csv-parse/sync');
  try {
    return parseCsv(csv, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: false,
      record_delimiter: ['\r\n', '\n'],
    }) as string[][];
  } catch (err) {
    const e = err as { message?: string; lines?: number };
    throw apiRefusal(
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
  const envelope = parsed.envelope ? await envelopeTemplate(d, tenant, parsed.envelope.templateId) : null;
  const raw =
    'json' in parsed.rows
      ? parsed.rows.json
      : rowsOfCsv(
          await csvRecords(parsed.rows.csv),
          csvTarget(template.model),
          envelope ? csvTarget(envelope.model) : null,
        );
  const check = specChecker(d, caller, template.model);
  const checkEnvelope = envelope ? specChecker(d, caller, envelope.model) : null;
  const id = newId('bat');
  const jobs: NewJob[] = [];
  const faults: DecidedRefusal[] = [];
  let milli = 0;
  for (const [index, value] of raw.entries()) {
    let row: BatchRow;
    const made: { part: BatchPart; template: TemplateRecord; input: JobInput; checked: Checked }[] = [];
    try {
      row = parseBatchRow(template.id, value, index, envelope?.id ?? null);
      made.push({ part: 'letter', template, input: row.input, checked: await check({ input: row.input }) });
      if (envelope && checkEnvelope && row.envelope) {
        const input = row.envelope;
        const checked = await checkEnvelope({ input }).catch((err: unknown) => {
          if (!isDecided(err)) throw err;
          throw apiRefusal(err.code, `envelope: ${err.message}`, {
            field: `envelope${err.field ? `/${err.field}` : ''}`,
          });
        });
        made.push({ part: 'envelope', template: envelope, input, checked });
      }
    } catch (err) {
      faults.push(isDecided(err) && err.field?.startsWith('rows/') ? err : atRow(index, err));
      if (faults.length >= BATCH_LIMITS.reported) break;
      continue;
    }
    if (faults.length) continue;
    for (const m of made) {
      // A row's seed is its letter's; its envelope's is derived beside it.
      const seed = m.part === 'letter' && row.seed !== undefined ? row.seed : rowSeed(id, index, m.part);
      const spec = {
        ...m.checked.spec,
        style: { ...m.checked.spec.style, modifiers: { ...m.checked.spec.style.modifiers, seed } },
      };
      milli += milliSheetsPerPage(spec.style.pageSize);
      jobs.push({
        id: newId('gen'),
        kind: 'pdf',
        templateId: m.template.id,
        templateRevision: m.template.revision,
        template: m.checked.model,
        input: m.input,
        inputHash: sha256Hex(JSON.stringify(m.input)),
        spec,
        metadata: row.metadata,
        ...(requestId ? { requestId } : {}),
        row: { batchId: id, index, seed, part: m.part },
      });
    }
  }
  if (faults.length) throw badRows(faults, raw.length);
  const now = d.now();
  const counts = freshCounts(raw.length, envelope !== null);
  const head = {
    id,
    templateId: template.id,
    templateRevision: template.revision,
    metadata: parsed.metadata,
    rowEvents: parsed.rowEvents,
    merge: parsed.merge,
    envelopeTemplateId: envelope?.id ?? null,
    ...(requestId ? { requestId } : {}),
  };
  const batch = await d.store.batches.submit(
    tenant,
    { ...head, rowCount: raw.length, rows: jobs, estimate: { pages: jobs.length, milli } },
    { unfinished: d.config.maxUnfinishedJobs, queued: d.config.queueMax, instance: d.instance },
    now,
    keptFor(remember, { batch: admittedBatch(tenant, { ...head, rows: raw.length }, now), counts }),
  );
  await feedBatch(d, batch.id);
  return { batch, counts };
}

/** The refusal of a batch with bad rows: the first ones named, the first one's field. */
function badRows(faults: DecidedRefusal[], total: number): DecidedRefusal {
  const first = faults[0]!;
  const more =
    faults.length >= BATCH_LIMITS.reported ? ` (the first ${faults.length} bad rows of ${total})` : '';
  return apiRefusal(
    faults.every((f) => f.code === 'INVALID_TEMPLATE_DATA') ? 'INVALID_TEMPLATE_DATA' : first.code,
    `${faults.length === 1 ? 'a row is' : `${faults.length} rows are`} not valid${more}, nothing was created: ${faults.map((f) => f.message).join('; ')}`,
    first.field ? { field: first.field } : {},
  );
}

const freshCounts = (rows: number, envelopes: boolean): BatchCounts => ({
  queued: rows,
  envelopes: envelopes ? { queued: rows, processing: 0, completed: 0, failed: 0, cancelled: 0 } : null,
  processing: 0,
  completed: 0,
  failed: 0,
  cancelled: 0,
  pages: 0,
  creditsMilli: 0,
  expiresAt: null,
});

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
  apiRefusal('BATCH_NOT_FOUND', `no batch ${shownId(id)} for this account and key mode`);

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
): Promise<Page<{ letter: Job; envelope: Job | undefined }>> {
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

/**
 * A CSV as the dashboard maps it before a batch: its columns, how many rows, what the template can
 * take (`text`, or the data paths of its sample: `name`, `address.city`, `items[0]`) and, for each
 * column, the target its name already says (`null`: none, it is left out until mapped).
 */
export async function inspectCsv(
  d: JobDeps,
  tenant: Tenant,
  templateId: string,
  csv: string,
  sample: JobInput,
  envelope?: { templateId: string; sample: JobInput },
): Promise<{ columns: string[]; rows: number; targets: string[]; suggested: (string | null)[] }> {
  const template = await ownTemplate(d, tenant, templateId);
  const [header = [], ...body] = await csvRecords(csv);
  const targetsOf = (s: JobInput) => ('text' in s ? ['text'] : 'data' in s ? dataPaths(s.data) : []);
  const legacy = (field: string) =>
    apiRefusal(
      'INVALID_REQUEST',
      'a legacy Document v1 template takes content blocks, which CSV cannot carry',
      { field },
    );
  if (csvTarget(template.model).takes === 'content') throw legacy('templateId');
  const targets = targetsOf(sample);
  if (envelope) {
    // The envelope's fields beside the letter's, as CSV columns name them: envelope.FIELD.
    if (csvTarget((await envelopeTemplate(d, tenant, envelope.templateId)).model).takes === 'content')
      throw legacy('envelopeTemplateId');
    targets.push(...targetsOf(envelope.sample).map((t) => `envelope.${t}`));
  }
  const suggested = header.map((raw) => {
    const name = raw.trim();
    if (targets.includes(name) || name === 'seed' || (name.startsWith('metadata.') && name.length > 9))
      return name;
    const loose = targets.find((t) => t.toLowerCase() === name.toLowerCase());
    return loose ?? null;
  });
  return { columns: header, rows: body.length, targets, suggested };
}

/** Every leaf path of a sample's data, as CSV columns name them. */
function dataPaths(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => dataPaths(v, `${at}[${i}]`));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([k, v]) => dataPaths(v, at ? `${at}.${k}` : k));
  return [at];
}

/**
 * The rows of a CSV whose columns are mapped (`columns[i]`: the target of column i, as a CSV column
 * names it, or null to leave it out), as a batch's JSON `rows` take them.
 */
export async function mappedCsvRows(
  d: JobDeps,
  tenant: Tenant,
  templateId: string,
  csv: string,
  columns: (string | null)[],
  envelopeTemplateId?: string,
): Promise<{ rows: unknown[]; model: TemplateModel }> {
  const template = await ownTemplate(d, tenant, templateId);
  const envelope = envelopeTemplateId ? await envelopeTemplate(d, tenant, envelopeTemplateId) : null;
  const [header = [], ...body] = await csvRecords(csv);
  if (columns.length !== header.length)
    throw invalid(
      'columns',
      `one target (or null) for each of the CSV's ${header.length} columns`,
      columns.length,
    );
  for (const [i, c] of columns.entries()) {
    if (c === null) continue;
    const reserved = reservedSegment(c);
    if (reserved) throw reservedKey(`columns/${i}`, reserved);
    const first = columns.indexOf(c);
    if (first < i)
      throw apiRefusal(
        'INVALID_REQUEST',
        `columns ${first + 1} and ${i + 1} both go to ${JSON.stringify(c)}; a field takes one column`,
        { field: `columns/${i}` },
      );
  }
  const kept = columns.flatMap((c, i) => (c === null ? [] : [i]));
  if (kept.length === 0) throw invalid('columns', 'at least one column mapped to a field', 'none');
  const records = [kept.map((i) => columns[i]!), ...body.map((r) => kept.map((i) => r[i] ?? ''))];
  return {
    rows: rowsOfCsv(records, csvTarget(template.model), envelope ? csvTarget(envelope.model) : null),
    model: template.model,
  };
}

/**
 * A ZIP entry's name: the row's index padded to `width`, then the metadata value given (letters,
 * digits, `.`, `-` and `_` only), then `-envelope` for a row's envelope.
 */
export function entryName(
  index: number,
  width: number,
  label: string | undefined,
  part: BatchPart = 'letter',
): string {
  const n = String(index).padStart(width, '0');
  const safe = label
    ?.normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${safe ? `${n}-${safe}` : n}${part === 'envelope' ? '-envelope' : ''}.pdf`;
}

/** `name`: a metadata key to name ZIP entries by; refused when it cannot be one. */
export function checkNameField(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[^\s]{1,40}$/.test(value)) throw invalid('name', 'a metadata key of 1-40 characters', value);
  return value;
}
