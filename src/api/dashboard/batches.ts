// The dashboard's batches: a CSV looked at (its columns, its rows, the template's fields), its
// columns mapped to the template's fields, its first row drawn, the batch sent; then its progress,
// its ZIP and its merged PDF. The batch is the public API's (docs/batches.md), made through the
// same use-case: every row checked, each its own job, seed and charge.
import type { Logger } from 'pino';
import { batchArchive, batchMerged } from '../../app/batch-archive.ts';
import {
  batchesPage,
  batchOf,
  cancelBatch,
  inspectCsv,
  mappedCsvRows,
  submitBatch,
} from '../../app/batches.ts';
import { draftPreview, templateSample } from '../../app/drafts.ts';
import { batchView } from '../../domain/batch.ts';
import { invalid } from '../../domain/errors.ts';
import type { JobInput } from '../../domain/generation.ts';
import type { ApiDeps } from '../deps.ts';
import { allowOnly, MODES, oneOf } from '../input.ts';
import { listParams } from '../query.ts';
import { attachment, ok, type RouteRequest, type Routes } from '../types.ts';
import { callerOf, tenantOf } from './account.ts';

/**
 * The fields every call about a CSV sends: its mode, its template and the CSV text, and the
 * envelope template when every row gets an envelope.
 */
function csvBody(req: RouteRequest<'session'>, more: string[] = []) {
  allowOnly(req.json, ['mode', 'templateId', 'csv', 'envelopeTemplateId', ...more]);
  const mode = oneOf('mode', req.json.mode, MODES);
  const { templateId, csv, envelopeTemplateId } = req.json;
  if (typeof templateId !== 'string') throw invalid('templateId', 'a template id (tpl_…)', templateId);
  if (typeof csv !== 'string' || csv.trim() === '') throw invalid('csv', 'CSV text with a header row', csv);
  if (envelopeTemplateId !== undefined && typeof envelopeTemplateId !== 'string')
    throw invalid('envelopeTemplateId', 'a template id (tpl_…)', envelopeTemplateId);
  return { mode, templateId, csv, ...(envelopeTemplateId ? { envelopeTemplateId } : {}) };
}

/** The target of each column: a CSV column name, or null to leave the column out. */
function columnsOf(value: unknown): (string | null)[] {
  if (!Array.isArray(value) || !value.every((c) => c === null || (typeof c === 'string' && c !== '')))
    throw invalid('columns', 'an array with a target (or null) for each column', value);
  return value as (string | null)[];
}

export function batchDashboardRoutes(d: ApiDeps, log: Logger): Routes<'session'> {
  const base = '/accounts/{account}/batches';
  return [
    {
      method: 'POST',
      path: `${base}/inspect`,
      body: 'batch',
      handler: async (req) => {
        const { mode, templateId, csv, envelopeTemplateId } = csvBody(req);
        const tenant = tenantOf(req, mode);
        const sample = await templateSample(d, tenant, templateId);
        const envelope = envelopeTemplateId
          ? { templateId: envelopeTemplateId, sample: await templateSample(d, tenant, envelopeTemplateId) }
          : undefined;
        return ok(await inspectCsv(d, tenant, templateId, csv, sample, envelope));
      },
    },
    {
      method: 'POST',
      path: `${base}/preview`,
      body: 'batch',
      handler: async (req) => {
        const { mode, templateId, csv, envelopeTemplateId } = csvBody(req, ['columns']);
        const caller = await callerOf(d, req, mode);
        // What the batch would make of the first row's letter, drawn as the builder draws a draft.
        const { rows, model } = await mappedCsvRows(
          d,
          caller.tenant,
          templateId,
          csv,
          columnsOf(req.json.columns),
          envelopeTemplateId,
        );
        const row = rows[0] as (JobInput & { metadata?: Record<string, string>; seed?: number }) | undefined;
        if (!row) throw invalid('csv', 'a header row and at least one row', 'a header alone');
        const input: JobInput = 'text' in row ? { text: row.text } : 'data' in row ? { data: row.data } : row;
        const draft = await draftPreview(d, caller, { mode, template: model, sample: input });
        return ok({
          png: Buffer.from(draft.png).toString('base64'),
          row: { ...input, ...(row.metadata ? { metadata: row.metadata } : {}) },
          rows: rows.length,
        });
      },
    },
    {
      method: 'POST',
      path: base,
      body: 'batch',
      handler: async (req) => {
        const { mode, templateId, csv, envelopeTemplateId } = csvBody(req, ['columns', 'merge']);
        const caller = await callerOf(d, req, mode);
        const { rows } = await mappedCsvRows(
          d,
          caller.tenant,
          templateId,
          csv,
          columnsOf(req.json.columns),
          envelopeTemplateId,
        );
        const made = await submitBatch(
          d,
          caller,
          {
            templateId,
            rows,
            ...(req.json.merge !== undefined ? { merge: req.json.merge } : {}),
            ...(envelopeTemplateId ? { envelope: { templateId: envelopeTemplateId } } : {}),
          },
          undefined,
          req.id,
        );
        log.info(
          {
            batch: made.batch.id,
            requestId: req.id,
            account: made.batch.accountId,
            rows: made.batch.rowCount,
          },
          'batch queued from the dashboard',
        );
        return { status: 202, json: batchView(made.batch, made.counts) };
      },
    },
    {
      method: 'GET',
      path: base,
      body: 'none',
      handler: async (req) => {
        const { limit, cursor, rest } = listParams(req, ['mode']);
        const tenant = tenantOf(req, oneOf('mode', rest.mode, MODES));
        const page = await batchesPage(d, tenant, { limit, ...(cursor ? { cursor } : {}) });
        return ok({ ...page, data: page.data.map(({ batch, counts }) => batchView(batch, counts)) });
      },
    },
    {
      method: 'GET',
      path: `${base}/{batch}`,
      body: 'none',
      handler: async (req) => {
        const { batch, counts } = await batchOf(d, tenantOf(req), req.params.batch!);
        return ok(batchView(batch, counts));
      },
    },
    {
      method: 'POST',
      path: `${base}/{batch}/cancel`,
      body: 'json',
      handler: async (req) => {
        allowOnly(req.json, ['mode']);
        const tenant = tenantOf(req, oneOf('mode', req.json.mode, MODES));
        const { batch, counts } = await cancelBatch(d, tenant, req.params.batch!);
        return ok(batchView(batch, counts));
      },
    },
    {
      method: 'GET',
      path: `${base}/{batch}/download`,
      body: 'none',
      handler: async (req) => {
        const { filename, body } = await batchArchive(d, log, tenantOf(req), req.params.batch!, undefined);
        return attachment(filename, 'application/zip', body);
      },
    },
    {
      method: 'GET',
      path: `${base}/{batch}/merged`,
      body: 'none',
      handler: async (req) => {
        const { filename, body } = await batchMerged(d, log, tenantOf(req), req.params.batch!, 'letter');
        return attachment(filename, 'application/pdf', body);
      },
    },
  ];
}
