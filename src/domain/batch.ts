// Batches (an extension beyond the spec, docs/batches.md): many rows of one template in one
// request. Each row becomes a generation of its own (its own record, seed and charge); the batch
// counts as one unfinished job of its account. Pure: the request rules, the CSV column naming,
// the seeds, and the batch as clients see it.
import { createHash } from 'node:crypto';
import { apiRefusal, type DecidedRefusal, grouped, invalid, isDecided, show } from './errors.ts';
import { namesA } from './ids.ts';
import {
  type Job,
  type JobInput,
  jobView,
  type Metadata,
  parseJobBody,
  parseMetadata,
} from './generation.ts';
import { requiredFields } from './document.ts';
import type { TemplateModel } from './template.ts';
import type { Tenant } from './tenant.ts';
import { isReservedKey, reservedKey } from './validation.ts';

export const BATCH_LIMITS = {
  /** Rows in one batch. */
  rows: 10_000,
  /** Rows named in a refusal of bad rows. */
  reported: 10,
} as const;

/** Where its rows stand: `completed` once every row ended, even where some failed. */
export type BatchStatus = 'queued' | 'processing' | 'completed' | 'cancelled';
export const BATCH_STATUSES: readonly BatchStatus[] = ['queued', 'processing', 'completed', 'cancelled'];
/** The statuses of a batch whose rows have all ended. */
export const BATCH_ENDED: readonly BatchStatus[] = ['completed', 'cancelled'];

/** One row as sent: what a single generation would take, its labels and its seed. */
export interface BatchRow {
  input: JobInput;
  metadata: Metadata;
  /** The hand's seed for this row; by default derived from the batch and the row (rowSeed). */
  seed?: number;
  /** Its envelope's input, when the batch names an envelope template. */
  envelope?: JobInput;
}

/** A batch row's documents: its letter, and its envelope when the batch has one. */
export type BatchPart = 'letter' | 'envelope';

export interface ParsedBatch {
  templateId: string;
  /** JSON rows as sent (checked against the template by the use-case), or CSV text. */
  rows: { json: unknown[] } | { csv: string };
  metadata: Metadata;
  rowEvents: boolean;
  /** Whether `GET /batches/{id}/merged` gives the completed rows as one PDF. */
  merge: boolean;
  /** The template every row's envelope is written in; each row then carries `envelope`. */
  envelope: { templateId: string } | null;
}

const FIELDS = ['templateId', 'rows', 'csv', 'metadata', 'rowEvents', 'merge', 'envelope'] as const;
const ROW_FIELDS = ['text', 'data', 'content', 'metadata', 'seed', 'envelope'] as const;
export const SEED_MAX = 2 ** 31 - 1;

/** The body's shape, before the template is known. */
export function parseBatchBody(body: unknown): ParsedBatch {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw apiRefusal('INVALID_REQUEST', `the body must be a JSON object, got ${show(body)}`);
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).find((k) => !(FIELDS as readonly string[]).includes(k));
  if (unknown)
    throw apiRefusal('INVALID_REQUEST', `unknown field ${unknown}; a batch takes ${FIELDS.join(', ')}`, {
      field: unknown,
    });
  if (!namesA('tpl', b.templateId)) throw invalid('templateId', 'a template id (tpl_…)', b.templateId);
  if ((b.rows === undefined) === (b.csv === undefined))
    throw apiRefusal(
      'INVALID_REQUEST',
      `send exactly one of rows or csv, got ${b.rows === undefined ? 'none' : 'rows and csv'}`,
      { field: b.rows === undefined ? 'rows' : 'csv' },
    );
  const what = `1-${grouped(BATCH_LIMITS.rows)} rows`;
  let rows: ParsedBatch['rows'];
  if (b.rows !== undefined) {
    if (!Array.isArray(b.rows) || b.rows.length < 1 || b.rows.length > BATCH_LIMITS.rows)
      throw invalid('rows', `an array of ${what}`, b.rows);
    rows = { json: b.rows };
  } else {
    if (typeof b.csv !== 'string' || b.csv.trim() === '')
      throw invalid('csv', `CSV text with a header row and ${what}`, b.csv);
    rows = { csv: b.csv };
  }
  if (b.rowEvents !== undefined && typeof b.rowEvents !== 'boolean')
    throw invalid('rowEvents', 'true or false', b.rowEvents);
  if (b.merge !== undefined && typeof b.merge !== 'boolean') throw invalid('merge', 'true or false', b.merge);
  let envelope: ParsedBatch['envelope'] = null;
  if (b.envelope !== undefined) {
    const e = b.envelope as Record<string, unknown> | null;
    const what = "an object { templateId } naming the template of every row's envelope";
    if (typeof e !== 'object' || e === null || Array.isArray(e)) throw invalid('envelope', what, b.envelope);
    const extra = Object.keys(e).find((k) => k !== 'templateId');
    if (extra)
      throw apiRefusal('INVALID_REQUEST', `unknown field envelope/${extra}; envelope takes templateId`, {
        field: `envelope/${extra}`,
      });
    if (!namesA('tpl', e.templateId))
      throw invalid('envelope/templateId', 'a template id (tpl_…)', e.templateId);
    envelope = { templateId: e.templateId };
  }
  return {
    envelope,
    templateId: b.templateId,
    rows,
    metadata: b.metadata === undefined ? {} : parseMetadata(b.metadata),
    rowEvents: b.rowEvents === true,
    merge: b.merge === true,
  };
}

/** Says a refusal of one row's value with the row's place in front: `rows/3/text`. */
export function atRow(index: number, err: unknown): DecidedRefusal {
  if (!isDecided(err)) throw err;
  const field = `rows/${index}${err.field ? `/${err.field}` : ''}`;
  return apiRefusal(err.code, `rows/${index}: ${err.message}`, { field });
}

/**
 * One JSON row's own fields: the input a generation takes, its metadata and seed, and with an
 * envelope template (`envelopeTemplateId`) its envelope's input, which it must then carry.
 */
export function parseBatchRow(
  templateId: string,
  value: unknown,
  index: number,
  envelopeTemplateId: string | null = null,
): BatchRow {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid(`rows/${index}`, 'an object with text, data or content', value);
  const row = value as Record<string, unknown>;
  const unknown = Object.keys(row).find((k) => !(ROW_FIELDS as readonly string[]).includes(k));
  if (unknown)
    throw apiRefusal(
      'INVALID_REQUEST',
      `rows/${index}: unknown field ${unknown}; a row takes ${ROW_FIELDS.join(', ')}`,
      { field: `rows/${index}/${unknown}` },
    );
  const { seed, envelope, ...job } = row;
  let parsed: ReturnType<typeof parseJobBody>;
  let envelopeInput: JobInput | undefined;
  try {
    parsed = parseJobBody({ ...job, templateId }, 'pdf');
    if (envelopeTemplateId === null && envelope !== undefined)
      throw apiRefusal(
        'INVALID_REQUEST',
        'envelope is for a batch that names an envelope template (envelope.templateId)',
        {
          field: 'envelope',
        },
      );
    if (envelopeTemplateId !== null) {
      if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope))
        throw invalid('envelope', "an object with the envelope's text or data", envelope);
      try {
        envelopeInput = parseJobBody({ ...envelope, templateId: envelopeTemplateId }, 'pdf').input;
      } catch (err) {
        if (!isDecided(err)) throw err;
        throw apiRefusal(err.code, `envelope: ${err.message}`, {
          field: `envelope${err.field ? `/${err.field}` : ''}`,
        });
      }
    }
  } catch (err) {
    throw atRow(index, err);
  }
  if (
    seed !== undefined &&
    (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > SEED_MAX)
  )
    throw invalid(`rows/${index}/seed`, `a whole number 0-${SEED_MAX}`, seed);
  return {
    input: parsed.input,
    metadata: parsed.metadata,
    ...(seed !== undefined ? { seed } : {}),
    ...(envelopeInput ? { envelope: envelopeInput } : {}),
  };
}

/** The hand's seed of row `index` of batch `batchId` (its envelope's another): the same batch and row always draw the same. */
export function rowSeed(batchId: string, index: number, part: BatchPart = 'letter'): number {
  const at = part === 'letter' ? `${batchId}/${index}` : `${batchId}/${index}/${part}`;
  return createHash('sha256').update(at).digest().readUInt32BE(0) & SEED_MAX;
}

/** A column of a CSV: one path into a row (docs/batches.md, "CSV columns"). */
type Step = { key: string } | { index: number };
type Column =
  | { to: 'text'; envelope?: true }
  | { to: 'seed' }
  | { to: 'metadata'; key: string }
  | { to: 'data'; path: Step[]; envelope?: true };

const SEGMENT = /^([A-Za-z0-9_-]+)((?:\[\d{1,4}\])*)$/;

/**
 * A header cell's meaning: `text`; `seed`; `metadata.KEY`; otherwise a path into `data`, dots
 * between object keys and `[n]` after a list or table (from 0): `name`, `address.city`,
 * `items[0]`, `lines[2].price`, `logo.assetId`. Null when it is none of these.
 */
export function csvColumn(name: string): Column | null {
  if (name.startsWith('envelope.')) {
    const inner = csvColumn(name.slice(9));
    return inner && (inner.to === 'text' || inner.to === 'data') ? { ...inner, envelope: true } : null;
  }
  if (name === 'text') return { to: 'text' };
  if (name === 'seed') return { to: 'seed' };
  if (name.startsWith('metadata.') && name.length > 9) return { to: 'metadata', key: name.slice(9) };
  const path: Step[] = [];
  for (const segment of name.split('.')) {
    const m = SEGMENT.exec(segment);
    if (!m) return null;
    path.push({ key: m[1]! });
    for (const i of m[2]!.matchAll(/\[(\d+)\]/g)) path.push({ index: Number(i[1]) });
  }
  return { to: 'data', path };
}

/**
 * The first name in a CSV column's header that reaches a prototype (`__proto__` of
 * `__proto__.city`, of `items[0].__proto__`, of `metadata.constructor`), or null.
 */
export function reservedSegment(name: string): string | null {
  return name.split(/[.[\]]/).find(isReservedKey) ?? null;
}

/** Sets `value` at `path` in `root`, making the objects (without a prototype) and lists on the way. */
function place(root: Record<string, unknown>, path: Step[], value: string): void {
  let at: Record<string, unknown> | unknown[] = root;
  for (const [i, step] of path.entries()) {
    const last = i === path.length - 1;
    const next = path[i + 1];
    const key = 'key' in step ? step.key : step.index;
    const holder = at as Record<string | number, unknown>;
    if (last) holder[key] = value;
    else {
      holder[key] ??= next && 'index' in next ? [] : Object.create(null);
      at = holder[key] as Record<string, unknown> | unknown[];
    }
  }
}

/** Lists without the places no cell filled (`items[0]` empty, `items[1]` set: one item). */
function compact(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(compact);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compact(v)]));
  return value;
}

/** What a template takes from a CSV's columns: text, data or content (none), and the fields it cannot do without. */
export interface CsvTarget {
  takes: 'text' | 'data' | 'content';
  required: readonly string[];
}

export function csvTarget(model: TemplateModel): CsvTarget {
  if (model.version === 1) return { takes: 'content', required: [] };
  if (model.mode === 'structured') return { takes: 'data', required: requiredFields(model) };
  return { takes: 'text', required: ['text'] };
}

/** The field of `data` (or `text`) a column fills: its first name. */
const fieldOf = (c: Column): string | null =>
  c.to === 'text' ? 'text' : c.to === 'data' ? (c.path[0] as { key: string }).key : null;

/** Where a column puts its cells, step by step: `envelope`, `.items`, `[0]`, `.price`; `seed`, `metadata.KEY`. */
const placeOf = (c: Column): string[] => [
  'envelope' in c ? 'envelope' : '',
  ...(c.to === 'data'
    ? c.path.map((s) => ('key' in s ? `.${s.key}` : `[${s.index}]`))
    : [c.to === 'metadata' ? `metadata.${c.key}` : c.to]),
];

/**
 * Whether two columns would fill one place: the same, one inside the other (`title` and
 * `title.city`), or one field held both as a list and as an object (`items[0]` and `items.x`).
 */
function clash(a: readonly string[], b: readonly string[]): boolean {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  if (k === a.length || k === b.length) return true;
  return a[k]!.startsWith('[') !== b[k]!.startsWith('[');
}

/**
 * Rows of a CSV's records (the header first) for a template (`letter`) and, when the batch has
 * one, its envelope template (columns `envelope.…`): each record's non-empty cells placed by their
 * column (csvColumn). Refused naming the column: one that names a reserved key, one the template's
 * input cannot take, one given twice or two that name the same field both as a value and as
 * holding others; refused once, naming it, a field the template requires that no column fills.
 */
export function rowsOfCsv(
  records: string[][],
  letter: CsvTarget,
  envelope: CsvTarget | null = null,
): unknown[] {
  const [header, ...body] = records;
  if (!header?.length) throw invalid('csv', 'CSV text whose first line names the columns', 'no header');
  if (letter.takes === 'content')
    throw apiRefusal(
      'INVALID_REQUEST',
      'a legacy Document v1 template takes content blocks, which CSV cannot carry: send rows instead',
      { field: 'csv' },
    );
  if (envelope?.takes === 'content')
    throw apiRefusal(
      'INVALID_REQUEST',
      'the envelope template is a legacy Document v1 template, which takes content blocks CSV cannot carry: send rows instead',
      { field: 'csv' },
    );
  const names = header.map((name) => name.trim());
  const columns = names.map((name, i) => {
    const reserved = reservedSegment(name);
    if (reserved) throw reservedKey(`csv/${name}`, reserved);
    const c = csvColumn(name);
    const taking = c && 'envelope' in c ? envelope?.takes : letter.takes;
    const wrong = !c || (c.to === 'text' && taking !== 'text') || (c.to === 'data' && taking !== 'data');
    if (wrong)
      throw apiRefusal(
        'INVALID_REQUEST',
        `csv column ${i + 1} ${JSON.stringify(header[i])} is not one this template takes: ${letter.takes === 'text' ? 'text' : 'data fields such as name, address.city, items[0] or lines[0].price'}, seed or metadata.KEY`,
        { field: `csv/${name}` },
      );
    return c!;
  });
  // Two columns may not fill one place: the same name twice, or one field both as a value and as
  // holding others (`title` and `title.city`, `items[0]` and `items.x`).
  const places = columns.map(placeOf);
  for (const [j, place] of places.entries())
    for (let i = 0; i < j; i++) {
      if (!clash(places[i]!, place)) continue;
      throw apiRefusal(
        'INVALID_REQUEST',
        names[i] === names[j]
          ? `csv columns ${i + 1} and ${j + 1} are both ${JSON.stringify(names[j])}; a column may be given once`
          : `csv columns ${i + 1} ${JSON.stringify(names[i])} and ${j + 1} ${JSON.stringify(names[j])} name the same field in two ways`,
        { field: `csv/${names[j]}` },
      );
    }
  for (const [target, prefix] of [
    [letter, ''],
    [envelope, 'envelope.'],
  ] as const) {
    if (!target) continue;
    const given = new Set(columns.filter((c) => 'envelope' in c === (prefix !== '')).map(fieldOf));
    const missing = target.required.filter((f) => !given.has(f));
    if (missing.length)
      throw apiRefusal(
        'INVALID_REQUEST',
        `csv has no column for ${missing.map((f) => `${prefix}${f}`).join(', ')}, which the ${prefix ? 'envelope ' : ''}template requires of every row`,
        { field: `csv/${prefix}${missing[0]}` },
      );
  }
  if (body.length < 1 || body.length > BATCH_LIMITS.rows)
    throw invalid('csv', `a header and 1-${grouped(BATCH_LIMITS.rows)} rows`, `${body.length} rows`);
  return body.map((record) => {
    const row: Record<string, unknown> = {};
    const data: Record<string, unknown> = Object.create(null);
    const envelopeRow: Record<string, unknown> = {};
    const envelopeData: Record<string, unknown> = Object.create(null);
    const metadata: Record<string, string> = {};
    for (const [i, cell] of record.entries()) {
      const c = columns[i];
      if (!c || cell === '') continue;
      if (c.to === 'text') (c.envelope ? envelopeRow : row).text = cell;
      else if (c.to === 'seed') row.seed = /^\d{1,10}$/.test(cell.trim()) ? Number(cell.trim()) : cell;
      else if (c.to === 'metadata') metadata[c.key] = cell;
      else place(c.envelope ? envelopeData : data, c.path, cell);
    }
    if (letter.takes === 'data') row.data = compact(data);
    if (envelope?.takes === 'data') envelopeRow.data = compact(envelopeData);
    if (envelope) row.envelope = envelopeRow;
    if (Object.keys(metadata).length) row.metadata = metadata;
    return row;
  });
}

/** A batch as the store keeps it. */
export interface Batch {
  id: string;
  accountId: string;
  mode: Tenant['mode'];
  templateId: string;
  templateRevision: number;
  /** `queued` until its last row ends (the view tells `processing` from the counts); then `completed` or `cancelled`. */
  status: 'queued' | 'completed' | 'cancelled';
  rowCount: number;
  rowEvents: boolean;
  merge: boolean;
  /** The template of every row's envelope, or null when the rows have none. */
  envelopeTemplateId: string | null;
  metadata: Metadata;
  requestId: string | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  cancelledAt: string | null;
}

/** Documents of one part by status. */
export interface PartCounts {
  queued: number;
  processing: number;
  completed: number;
  failed: number;
  cancelled: number;
}

/** Its rows (their letters) by status, its envelopes too, with what the completed ones made. */
export interface BatchCounts extends PartCounts {
  envelopes: PartCounts | null;
  /** Pages and sheets of every completed document, letters and envelopes. */
  pages: number;
  creditsMilli: number;
  /** The first retention end among its completed documents' outputs; null when none completed. */
  expiresAt: string | null;
}

/** What the use-case made of a batch's request, before admission (its rows aside). */
export interface BatchHead {
  id: string;
  templateId: string;
  templateRevision: number;
  metadata: Metadata;
  rowEvents: boolean;
  merge: boolean;
  envelopeTemplateId: string | null;
  requestId?: string;
}

/** The batch as admitted at `now`: queued, every row waiting. The store records exactly this. */
export function admittedBatch(tenant: Tenant, b: BatchHead & { rows: number }, now: Date): Batch {
  const at = now.toISOString();
  return {
    id: b.id,
    accountId: tenant.accountId,
    mode: tenant.mode,
    templateId: b.templateId,
    templateRevision: b.templateRevision,
    status: 'queued',
    rowCount: b.rows,
    rowEvents: b.rowEvents,
    merge: b.merge,
    envelopeTemplateId: b.envelopeTemplateId,
    metadata: b.metadata,
    requestId: b.requestId ?? null,
    createdAt: at,
    updatedAt: at,
    completedAt: null,
    cancelledAt: null,
  };
}

export const batchPath = (id: string) => `/api/v1/batches/${id}`;

/** The status clients see: `processing` once some row started or ended while others wait. */
export function batchStatus(b: Batch, c: BatchCounts): BatchStatus {
  if (b.status !== 'queued') return b.status;
  return c.queued === b.rowCount ? 'queued' : 'processing';
}

/** The batch object of the API: absent fields are left out, never null. */
export function batchView(b: Batch, c: BatchCounts) {
  const status = batchStatus(b, c);
  const ended = BATCH_ENDED.includes(status);
  return {
    id: b.id,
    status,
    templateId: b.templateId,
    createdAt: b.createdAt,
    updatedAt: b.updatedAt,
    ...(b.completedAt ? { completedAt: b.completedAt } : {}),
    ...(b.cancelledAt ? { cancelledAt: b.cancelledAt } : {}),
    ...(ended && c.expiresAt ? { expiresAt: c.expiresAt } : {}),
    rows: {
      total: b.rowCount,
      queued: c.queued,
      processing: c.processing,
      completed: c.completed,
      failed: c.failed,
      cancelled: c.cancelled,
    },
    ...(b.envelopeTemplateId && c.envelopes
      ? { envelopeTemplateId: b.envelopeTemplateId, envelopes: { total: b.rowCount, ...c.envelopes } }
      : {}),
    pages: c.pages,
    creditsSpent: c.creditsMilli / 1000,
    rowsUrl: `${batchPath(b.id)}/rows`,
    ...(ended && c.completed > 0 ? { downloadUrl: `${batchPath(b.id)}/download` } : {}),
    ...(b.merge ? { merge: true } : {}),
    ...(b.merge && ended && c.completed > 0 ? { mergedUrl: `${batchPath(b.id)}/merged` } : {}),
    metadata: b.metadata,
  };
}

/** One row of a batch as `GET /batches/{id}/rows` lists it: its letter's job (with `row`, its index) and seed, and its envelope's. */
export function batchRowView(job: Job, envelope?: Job) {
  return {
    ...jobView(job),
    seed: job.seed ?? 0,
    ...(envelope ? { envelope: { ...jobView(envelope), seed: envelope.seed ?? 0 } } : {}),
  };
}
