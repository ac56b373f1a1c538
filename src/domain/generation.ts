// Generations and previews (spec §2, §3, §4; DESIGN §4): the request rules, the state machine
// and the job as clients see it. Pure: the store and the use-cases apply these.
import { apiRefusal, grouped, invalid, show } from './errors.ts';
import { namesA } from './ids.ts';
import { badCharacter, isReservedKey, reservedKey } from './validation.ts';
import { type DocBlock, jobBlocks, textOf } from './document.ts';
import type { TemplateModel } from './template.ts';
import type { Tenant } from './tenant.ts';
import type { RenderSpec } from '../render/index.ts';

export type JobKind = 'pdf' | 'preview';
export type JobStatus = 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled';
export const UNFINISHED: readonly JobStatus[] = ['queued', 'processing'];

/** Spec §3: queued → processing → completed; failed and cancelled are the other ends. Never back. */
const NEXT: Record<JobStatus, readonly JobStatus[]> = {
  queued: ['processing', 'cancelled', 'failed'],
  processing: ['completed', 'failed', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
};

export function canMove(from: JobStatus, to: JobStatus): boolean {
  return NEXT[from].includes(to);
}

/** What a job renders: exactly one of the three, matching the template (spec §4, §9). */
export type JobInput = { text: string } | { data: Record<string, unknown> } | { content: unknown[] };

const FIELDS = {
  pdf: ['templateId', 'text', 'data', 'content', 'overrides', 'metadata'],
  preview: ['templateId', 'text', 'data', 'content', 'metadata'],
} as const;

/** The integrator's own labels on a job (an extension, like Stripe's): strings to strings. */
export type Metadata = Record<string, string>;

export const METADATA_LIMITS = { keys: 20, keyChars: 40, valueChars: 500 } as const;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * `metadata`: an object of at most 20 string values of at most 500 characters, under keys of
 * 1-40 characters; no control characters (C0, DEL or C1: U+0000-U+001F, U+007F-U+009F) in either. Echoed on the job and in its events.
 */
export function parseMetadata(value: unknown): Metadata {
  const L = METADATA_LIMITS;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid('metadata', 'an object of string values', value);
  const entries = Object.entries(value);
  if (entries.length > L.keys)
    throw invalid('metadata', `an object of at most ${L.keys} keys`, `${entries.length} keys`);
  const out: Metadata = {};
  for (const [k, v] of entries) {
    if (k.length < 1 || k.length > L.keyChars || CONTROL.test(k))
      throw invalid('metadata', `keys of 1-${L.keyChars} characters without control characters`, k);
    if (isReservedKey(k)) throw reservedKey(`metadata/${k}`, k);
    if (typeof v !== 'string') throw invalid(`metadata/${k}`, 'a string', v);
    if (v.length > L.valueChars || CONTROL.test(v))
      throw invalid(
        `metadata/${k}`,
        `a string of at most ${L.valueChars} characters without control characters`,
        v.length > L.valueChars ? `${v.length} characters` : v,
      );
    out[k] = v;
  }
  return out;
}

/** The body's shape, before the template is known: an object, a template id, one input field. */
export function parseJobBody(
  body: unknown,
  kind: JobKind,
): { templateId: string; input: JobInput; overrides?: unknown; metadata: Metadata } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw apiRefusal('INVALID_REQUEST', `the body must be a JSON object, got ${show(body)}`);
  }
  const b = body as Record<string, unknown>;
  const allowed: readonly string[] = FIELDS[kind];
  const unknown = Object.keys(b).filter((k) => !allowed.includes(k));
  if (unknown.length) {
    throw apiRefusal(
      'INVALID_REQUEST',
      `unknown field ${unknown[0]}; a ${kind === 'pdf' ? 'generation' : 'preview'} takes ${allowed.join(', ')}`,
      {
        field: unknown[0],
      },
    );
  }
  if (b.templateId === undefined) throw invalid('templateId', 'a template id (tpl_…)', undefined);
  if (!namesA('tpl', b.templateId)) throw invalid('templateId', 'a template id (tpl_…)', b.templateId);
  const given = (['text', 'data', 'content'] as const).filter((k) => b[k] !== undefined);
  const choices = 'text, data or content';
  if (given.length !== 1) {
    throw apiRefusal(
      'INVALID_REQUEST',
      `send exactly one of ${choices}, got ${given.length ? given.join(' and ') : 'none'}`,
      {
        field: given[1] ?? 'text',
      },
    );
  }
  const field = given[0]!;
  const value = b[field];
  let input: JobInput;
  if (field === 'text') {
    if (typeof value !== 'string') throw invalid('text', 'a string', value);
    input = { text: value };
  } else if (field === 'data') {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw invalid('data', 'an object of block keys', value);
    input = { data: value as Record<string, unknown> };
  } else {
    if (!Array.isArray(value)) throw invalid('content', 'an array of blocks', value);
    input = { content: value };
  }
  return {
    templateId: b.templateId,
    input,
    ...(b.overrides !== undefined ? { overrides: b.overrides } : {}),
    metadata: b.metadata === undefined ? {} : parseMetadata(b.metadata),
  };
}

/** Text must be text (see badCharacter): refused naming the first offender and where it is. */
export function checkTextCharacters(text: string, field = 'text'): void {
  const bad = badCharacter(text);
  if (bad)
    throw apiRefusal('INVALID_REQUEST', `${field} must be plain text: it holds ${bad.what}`, { field });
}

/** Characters as people count them: code points (an emoji is one). */
export function characters(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * The input against its template: the field the template's mode and version take, every value
 * valid, the text within its limit. Returns the blocks of structured input (null for text).
 */
export function checkInputForTemplate(
  template: TemplateModel,
  parsed: { input: JobInput; overrides?: unknown },
  opts: { textLimit: number; subscribed: boolean },
): DocBlock[] | null {
  const { input } = parsed;
  if (template.version === 2 && parsed.overrides !== undefined) {
    throw apiRefusal(
      'INVALID_REQUEST',
      'overrides cannot be sent for a version 2 template: change its formatting in the builder',
      {
        field: 'overrides',
      },
    );
  }
  const wanted = template.version === 1 ? 'content' : template.mode === 'structured' ? 'data' : 'text';
  const got = Object.keys(input)[0] as 'text' | 'data' | 'content';
  if (got !== wanted) {
    const which = template.version === 1 ? 'a legacy Document v1 template' : `a ${template.mode} template`;
    throw apiRefusal('INVALID_REQUEST', `${which} takes ${wanted}, got ${got}`, { field: got });
  }
  const limit = opts.textLimit;
  const why = opts.subscribed ? '' : ' without a subscription';
  if ('text' in input) {
    checkTextCharacters(input.text);
    const n = characters(input.text);
    if (n < 1 || n > limit) {
      throw apiRefusal(
        'INVALID_REQUEST',
        `text must be 1-${grouped(limit)} characters${why}, got ${grouped(n)} characters`,
        {
          field: 'text',
        },
      );
    }
    // A blank page is not a document: nothing to write would still be billed as a sheet.
    if (input.text.trim() === '')
      throw apiRefusal(
        'INVALID_REQUEST',
        `text must hold something to write, got only ${n} whitespace characters`,
        {
          field: 'text',
        },
      );
    return null;
  }
  const blocks = jobBlocks(template, input)!;
  // Overall text limits apply to structured input as to simple text (spec §8).
  const n = textOf(blocks).reduce((sum, t) => sum + characters(t), 0);
  if (n > limit) {
    throw apiRefusal(
      'INVALID_REQUEST',
      `the text of ${got} must be at most ${grouped(limit)} characters${why}, got ${grouped(n)} characters`,
      {
        field: got,
      },
    );
  }
  return blocks;
}

export interface JobError {
  code: 'GENERATION_FAILED' | 'INSUFFICIENT_BALANCE';
  message: string;
}

/** A job as the store keeps it. */
export interface Job {
  id: string;
  accountId: string;
  mode: 'live' | 'test';
  kind: JobKind;
  status: JobStatus;
  templateId: string;
  templateRevision: number;
  template: TemplateModel;
  input: JobInput;
  inputHash: string;
  pages: number | null;
  creditsMilli: number | null;
  blobKey: string | null;
  /** What the stored output must be: its SHA-256 (hex) and length; null for jobs completed before digests. */
  blobDigest: { sha256: string; bytes: number } | null;
  attempt: number;
  error: JobError | null;
  metadata: Metadata;
  /** The request that created the job (`req_…`), for the logs; null for older jobs. */
  requestId: string | null;
  /** The batch the job is a row of, and its index there (from 0); null for a job of its own. */
  batchId: string | null;
  rowIndex: number | null;
  /** A batch row's seed of the hand; null for other jobs (their template's seed). */
  seed: number | null;
  /** Which of its row's documents a batch job is; null for other jobs. */
  part: 'letter' | 'envelope' | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  completedAt: string | null;
  cancelledAt: string | null;
  expiresAt: string | null;
}

/** A job as submitted, before admission: what the use-case made of the request. */
export interface NewJob {
  id: string;
  kind: JobKind;
  templateId: string;
  templateRevision: number;
  template: TemplateModel;
  input: JobInput;
  inputHash: string;
  spec: RenderSpec;
  /** The integrator's labels; none when absent. */
  metadata?: Metadata;
  /** The request that created it (`req_…`), for the logs. */
  requestId?: string;
  /** A batch's row: the batch, the row's index and the seed it is written with. */
  row?: { batchId: string; index: number; seed: number; part: 'letter' | 'envelope' };
}

/**
 * The job as it stands once admitted at `now`: queued, nothing spent. The store records exactly
 * this, and the use-case answers with it (an idempotent request's answer is made from it before
 * the commit that keeps it).
 */
export function admittedJob(tenant: Tenant, job: NewJob, now: Date): Job {
  const at = now.toISOString();
  return {
    id: job.id,
    accountId: tenant.accountId,
    mode: tenant.mode,
    kind: job.kind,
    status: 'queued',
    templateId: job.templateId,
    templateRevision: job.templateRevision,
    template: job.template,
    input: job.input,
    inputHash: job.inputHash,
    pages: null,
    creditsMilli: null,
    blobKey: null,
    blobDigest: null,
    attempt: 0,
    error: null,
    metadata: job.metadata ?? {},
    requestId: job.requestId ?? null,
    batchId: job.row?.batchId ?? null,
    rowIndex: job.row?.index ?? null,
    seed: job.row?.seed ?? null,
    part: job.row?.part ?? null,
    createdAt: at,
    updatedAt: at,
    startedAt: null,
    completedAt: null,
    cancelledAt: null,
    expiresAt: null,
  };
}

export const jobPath = (id: string) => `/api/v1/generations/${id}`;
export const downloadPath = (id: string) => `/api/v1/generations/${id}/download`;
export const previewPath = (id: string) => `/api/v1/generations/${id}/preview`;

/** The job object of the API (DESIGN §4): absent fields are left out, never null. */
export function jobView(j: Job) {
  const done = j.status === 'completed';
  return {
    id: j.id,
    kind: j.kind,
    status: j.status,
    templateId: j.templateId,
    createdAt: j.createdAt,
    ...(j.startedAt ? { startedAt: j.startedAt } : {}),
    ...(j.completedAt ? { completedAt: j.completedAt } : {}),
    ...(j.cancelledAt ? { cancelledAt: j.cancelledAt } : {}),
    ...(done && j.expiresAt ? { expiresAt: j.expiresAt } : {}),
    ...(done && j.pages !== null ? { pages: j.pages } : {}),
    ...(done && j.creditsMilli !== null ? { creditsSpent: j.creditsMilli / 1000 } : {}),
    ...(done
      ? j.kind === 'pdf'
        ? { downloadUrl: downloadPath(j.id) }
        : { previewUrl: previewPath(j.id) }
      : {}),
    ...(j.status === 'failed' && j.error ? { error: j.error } : {}),
    ...(j.batchId !== null ? { batchId: j.batchId, row: j.rowIndex ?? 0, part: j.part ?? 'letter' } : {}),
    metadata: j.metadata,
  };
}
