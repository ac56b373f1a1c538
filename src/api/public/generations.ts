// Generations and previews (spec §4; DESIGN §4): submit, list, read, cancel, download the PDF,
// read the preview images.
import type { Logger } from 'pino';
import { cancelJob, submitJob } from '../../app/generations.ts';
import { jobsPage } from '../../app/reads.ts';
import { invalid, apiRefusal } from '../../domain/errors.ts';
import { type Job, type JobKind, type JobStatus, jobPath, UNFINISHED } from '../../domain/generation.ts';
import { heldRead } from '../../app/waits.ts';
import { isId, shownId } from '../../domain/ids.ts';
import { instantRange } from '../../domain/usage-range.ts';
import type { ApiDeps } from '../deps.ts';
import { remember } from '../idempotency.ts';
import { STATUSES } from '../input.ts';
import { jobOutputs } from '../outputs.ts';
import { holdParams, listParams } from '../query.ts';
import { ok, type Reply, type RouteRequest, type Routes } from '../types.ts';
import { jobView } from '../views.ts';

export function generationRoutes(d: ApiDeps, log: Logger): Routes<'key'> {
  const outputs = jobOutputs(d, log);
  const find = (req: RouteRequest<'key'>) => outputs.find(req.caller.tenant, req.params.id!);

  /** 202 with the job and where to poll it. */
  const accepted = (job: Job): Reply => ({
    status: 202,
    headers: { Location: jobPath(job.id) },
    json: jobView(job),
  });
  const submit = async (req: RouteRequest<'key'>, kind: JobKind): Promise<Reply> => {
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
        return ok({ ...page, data: page.data.map(jobView) });
      },
    },
    {
      method: 'GET',
      path: '/generations/{id}',
      body: 'none',
      handler: async (req) => {
        const hold = holdParams(req);
        const read = async () => jobView(await find(req));
        return ok(await heldRead(read, hold, (j) => !UNFINISHED.includes(j.status), req.left));
      },
    },
    {
      method: 'POST',
      path: '/generations/{id}/cancel',
      body: 'none',
      idempotency: 'natural',
      handler: async (req) => {
        const id = req.params.id!;
        if (!isId('gen', id))
          throw apiRefusal(
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
