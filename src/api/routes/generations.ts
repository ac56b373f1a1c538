// Generations and previews (spec §4; DESIGN §4): submit, list, read, cancel, download the PDF,
// read the preview images. Downloads stream from the blob store with backpressure.
import { jobOf, jobsPage } from '../../app/reads.ts';
import type { Logger } from 'pino';
import { cancelJob, submitJob } from '../../app/generations.ts';
import { openOutput } from '../../app/outputs.ts';
import { ApiError, invalid } from '../../domain/errors.ts';
import { type Job, type JobKind, type JobStatus, jobPath, jobView } from '../../domain/generation.ts';
import { isId, shownId } from '../../domain/ids.ts';
import { instantRange } from '../../domain/usage-range.ts';
import type { Tenant } from '../../domain/tenant.ts';
import type { ApiDeps } from '../deps.ts';
import { remember } from '../idempotency.ts';
import { listParams } from '../query.ts';
import type { Reply, Route, RouteRequest } from '../types.ts';

const STATUSES: readonly JobStatus[] = ['queued', 'processing', 'completed', 'failed', 'cancelled'];

/**
 * A tenant's job and its outputs, as the public API answers them: the dashboard reads them
 * through the same functions.
 */
export function jobOutputs(d: ApiDeps, log: Logger) {
  const find = async (tenant: Tenant, id: string): Promise<Job> => {
    const job = isId('gen', id) ? await jobOf(d, tenant, id) : null;
    if (!job)
      throw new ApiError(
        'GENERATION_NOT_FOUND',
        `no generation ${shownId(id)} for this account and key mode`,
      );
    return job;
  };

  /** The stored output of a completed, unexpired job, streamed. */
  const output = async (job: Job, contentType: string, filename: string): Promise<Reply> => {
    if (job.status !== 'completed')
      throw new ApiError(
        'GENERATION_NOT_READY',
        `the job is ${job.status}${job.status === 'failed' || job.status === 'cancelled' ? ' and has no output' : ': poll it until it is completed'}`,
      );
    // Decided from the stored expiry, whatever the blob store still holds (DESIGN §9).
    if (!job.expiresAt || Date.parse(job.expiresAt) <= d.now().getTime()) {
      throw new ApiError(
        'GENERATION_EXPIRED',
        `the output expired at ${job.expiresAt}; results are kept ${d.config.retentionDays} days`,
      );
    }
    const body = await openOutput(d, log, job);
    return {
      status: 200,
      headers: { 'Content-Disposition': `attachment; filename="${filename}"` },
      stream: { contentType, ...body },
    };
  };

  return {
    find,
    /** The PDF of a completed generation. */
    async download(tenant: Tenant, id: string): Promise<Reply> {
      const job = await find(tenant, id);
      if (job.kind === 'preview')
        throw new ApiError(
          'PREVIEW_ONLY',
          `${job.id} is a preview: it has images (GET /generations/${job.id}/preview), no PDF`,
        );
      return output(job, 'application/pdf', `${job.id}.pdf`);
    },
    /** The page images of a completed preview, as JSON. */
    async preview(tenant: Tenant, id: string): Promise<Reply> {
      const job = await find(tenant, id);
      if (job.kind !== 'preview') {
        throw new ApiError(
          'INVALID_REQUEST',
          `${job.id} is a PDF generation: download it with GET /generations/${job.id}/download`,
        );
      }
      return output(job, 'application/json; charset=utf-8', `${job.id}.json`);
    },
  };
}

export function generationRoutes(d: ApiDeps, log: Logger): Route[] {
  const outputs = jobOutputs(d, log);
  const find = (req: RouteRequest) => outputs.find(req.caller.tenant, req.params.id!);

  /** 202 with the job and where to poll it. */
  const accepted = (job: Job): Reply => ({
    status: 202,
    headers: { Location: jobPath(job.id) },
    json: jobView(job),
  });
  const submit = async (req: RouteRequest, kind: JobKind): Promise<Reply> => {
    const { job, existing } = await submitJob(d, req.caller, req.json, kind, remember(req, accepted), req.id);
    if (existing) return { status: 200, json: jobView(job) };
    log.info(
      { job: job.id, requestId: req.id, account: job.accountId, kind, template: job.templateId },
      'job queued',
    );
    return accepted(job);
  };

  return [
    {
      method: 'POST',
      path: '/generations',
      body: 'json',
      idempotency: 'kept',
      handler: (req) => submit(req, 'pdf'),
    },
    {
      method: 'GET',
      path: '/generations',
      body: 'none',
      handler: async (req) => {
        const { limit, cursor, rest } = listParams(req, ['status', 'kind', 'createdFrom', 'createdTo']);
        const status = rest.status as JobStatus | undefined;
        if (status !== undefined && !STATUSES.includes(status))
          throw invalid('status', `one of ${STATUSES.join(', ')}`, status);
        const kind = rest.kind as JobKind | undefined;
        if (kind !== undefined && kind !== 'pdf' && kind !== 'preview')
          throw invalid('kind', 'pdf or preview', kind);
        const created = instantRange({ from: 'createdFrom', to: 'createdTo' }, rest);
        const page = await jobsPage(d, req.caller.tenant, {
          limit,
          cursor,
          status,
          kind,
          created,
        });
        return { status: 200, json: { ...page, data: page.data.map(jobView) } };
      },
    },
    {
      method: 'GET',
      path: '/generations/{id}',
      body: 'none',
      handler: async (req) => ({ status: 200, json: jobView(await find(req)) }),
    },
    {
      method: 'POST',
      path: '/generations/{id}/cancel',
      body: 'none',
      idempotency: 'natural',
      handler: async (req) => {
        const id = req.params.id!;
        if (!isId('gen', id))
          throw new ApiError(
            'GENERATION_NOT_FOUND',
            `no generation ${shownId(id)} for this account and key mode`,
          );
        return { status: 200, json: jobView(await cancelJob(d, req.caller, id)) };
      },
    },
    {
      method: 'GET',
      path: '/generations/{id}/download',
      body: 'none',
      handler: (req) => outputs.download(req.caller.tenant, req.params.id!),
    },
    {
      method: 'POST',
      path: '/previews',
      body: 'json',
      idempotency: 'kept',
      handler: (req) => submit(req, 'preview'),
    },
    {
      method: 'GET',
      path: '/generations/{id}/preview',
      body: 'none',
      handler: (req) => outputs.preview(req.caller.tenant, req.params.id!),
    },
  ];
}
