// Batches (an extension beyond the spec, docs/batches.md): many rows of one template in one
// request; its life, its rows, one ZIP of its PDFs, one merged PDF, its cancel.
import type { Logger } from 'pino';
import { batchArchive, batchMerged } from '../../app/batch-archive.ts';
import {
  batchesPage,
  batchOf,
  batchRows,
  cancelBatch,
  checkNameField,
  type SubmittedBatch,
  submitBatch,
} from '../../app/batches.ts';
import { BATCH_ENDED, batchPath, batchRowView, batchView } from '../../domain/batch.ts';
import { heldRead } from '../../app/waits.ts';
import { invalid } from '../../domain/errors.ts';
import type { JobStatus } from '../../domain/generation.ts';
import type { ApiDeps } from '../deps.ts';
import { remember } from '../idempotency.ts';
import { STATUSES } from '../input.ts';
import { holdParams, listParams, queryParams } from '../query.ts';
import { attachment, ok, type Reply, type Routes } from '../types.ts';

export function batchRoutes(d: ApiDeps, log: Logger): Routes<'key'> {
  /** 202 with the batch and where to poll it. */
  const accepted = ({ batch, counts }: SubmittedBatch): Reply => ({
    status: 202,
    headers: { Location: batchPath(batch.id) },
    json: batchView(batch, counts),
  });

  return [
    {
      method: 'POST',
      path: '/batches',
      body: 'batch',
      idempotency: 'kept',
      handler: async (req) => {
        const made = await submitBatch(d, req.caller, req.json, remember(req, accepted), req.id);
        log.info(
          {
            batch: made.batch.id,
            requestId: req.id,
            account: made.batch.accountId,
            rows: made.batch.rowCount,
            template: made.batch.templateId,
          },
          'batch queued',
        );
        return accepted(made);
      },
    },
    {
      method: 'GET',
      path: '/batches',
      body: 'none',
      handler: async (req) => {
        const { limit, cursor } = listParams(req);
        const page = await batchesPage(d, req.caller.tenant, { limit, ...(cursor ? { cursor } : {}) });
        return ok({ ...page, data: page.data.map(({ batch, counts }) => batchView(batch, counts)) });
      },
    },
    {
      method: 'GET',
      path: '/batches/{id}',
      body: 'none',
      handler: async (req) => {
        const hold = holdParams(req);
        const read = async () => {
          const { batch, counts } = await batchOf(d, req.caller.tenant, req.params.id!);
          return batchView(batch, counts);
        };
        return ok(await heldRead(read, hold, (b) => BATCH_ENDED.includes(b.status), req.left));
      },
    },
    {
      method: 'GET',
      path: '/batches/{id}/rows',
      body: 'none',
      handler: async (req) => {
        const { limit, cursor, rest } = listParams(req, ['status']);
        const status = rest.status as JobStatus | undefined;
        if (status !== undefined && !STATUSES.includes(status))
          throw invalid('status', `one of ${STATUSES.join(', ')}`, status);
        const page = await batchRows(d, req.caller.tenant, req.params.id!, { limit, cursor, status });
        return ok({ ...page, data: page.data.map((r) => batchRowView(r.letter, r.envelope)) });
      },
    },
    {
      method: 'POST',
      path: '/batches/{id}/cancel',
      body: 'none',
      idempotency: 'natural',
      handler: async (req) => {
        const { batch, counts } = await cancelBatch(d, req.caller.tenant, req.params.id!);
        return ok(batchView(batch, counts));
      },
    },
    {
      method: 'GET',
      path: '/batches/{id}/download',
      body: 'none',
      handler: async (req) => {
        const name = checkNameField(queryParams(req, ['name']).name);
        const { filename, body } = await batchArchive(d, log, req.caller.tenant, req.params.id!, name);
        return attachment(filename, 'application/zip', body);
      },
    },
    {
      method: 'GET',
      path: '/batches/{id}/merged',
      body: 'none',
      handler: async (req) => {
        const { part = 'letter' } = queryParams(req, ['part']);
        if (part !== 'letter' && part !== 'envelope') throw invalid('part', 'letter or envelope', part);
        const { filename, body } = await batchMerged(d, log, req.caller.tenant, req.params.id!, part);
        return attachment(filename, 'application/pdf', body);
      },
    },
  ];
}
