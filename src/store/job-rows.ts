// A job as the generations table holds it, and back: one mapping for every repository that reads
// or writes the table (generations, and the rows of batches).
import type { Selectable } from 'kysely';
import type { Job, JobError, JobInput, JobKind, JobStatus, Metadata } from '../domain/generation.ts';
import type { TemplateModel } from '../domain/template.ts';
import type { RenderSpec } from '../render/index.ts';
import { num } from './database.ts';
import type { GenerationsTable } from './schema.ts';

export type Row = Selectable<GenerationsTable>;

export function toJob(r: Row): Job {
  return {
    id: r.id,
    accountId: r.account_id,
    mode: r.mode as Job['mode'],
    kind: r.kind as JobKind,
    status: r.status as JobStatus,
    templateId: r.template_id,
    templateRevision: num(r.template_revision),
    template: JSON.parse(r.template_snapshot) as TemplateModel,
    input: JSON.parse(r.input) as JobInput,
    inputHash: r.input_hash,
    pages: r.pages === null ? null : num(r.pages),
    creditsMilli: r.credits_milli === null ? null : num(r.credits_milli),
    blobKey: r.blob_key,
    blobDigest:
      r.blob_sha256 && r.blob_bytes !== null ? { sha256: r.blob_sha256, bytes: num(r.blob_bytes) } : null,
    attempt: num(r.attempt),
    error: r.error_code ? { code: r.error_code as JobError['code'], message: r.error_message ?? '' } : null,
    metadata: r.metadata ? (JSON.parse(r.metadata) as Metadata) : {},
    requestId: r.request_id,
    batchId: r.batch_id,
    rowIndex: r.row_index === null ? null : num(r.row_index),
    seed: r.seed === null ? null : num(r.seed),
    part: r.part as Job['part'],
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    startedAt: r.started_at,
    completedAt: r.completed_at,
    cancelledAt: r.cancelled_at,
    expiresAt: r.expires_at,
  };
}

/** The row of a job as admitted (its render specification and the instance that admitted it beside it). */
export function rowOf(j: Job, spec: RenderSpec, instance: string | undefined): Row {
  return {
    id: j.id,
    account_id: j.accountId,
    mode: j.mode,
    kind: j.kind,
    status: j.status,
    template_id: j.templateId,
    template_revision: j.templateRevision,
    template_snapshot: JSON.stringify(j.template),
    input: JSON.stringify(j.input),
    input_hash: j.inputHash,
    pages: null,
    credits_milli: null,
    blob_key: null,
    blob_sha256: null,
    blob_bytes: null,
    attempt: j.attempt,
    error_code: null,
    error_message: null,
    created_at: j.createdAt,
    updated_at: j.updatedAt,
    started_at: null,
    completed_at: null,
    cancelled_at: null,
    expires_at: null,
    admitted_by: instance ?? null,
    render_spec: JSON.stringify(spec),
    metadata: Object.keys(j.metadata).length ? JSON.stringify(j.metadata) : null,
    request_id: j.requestId,
    batch_id: j.batchId,
    row_index: j.rowIndex,
    seed: j.seed,
    part: j.part,
  };
}
