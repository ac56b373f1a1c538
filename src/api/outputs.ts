// A tenant's job and its outputs, as every surface answers them: found (or 404 by the public
// code), and the stored PDF or preview images of a completed, unexpired job streamed from the
// blob store with backpressure.
import type { Logger } from 'pino';
import { openOutput } from '../app/outputs.ts';
import { jobOf } from '../app/reads.ts';
import { apiRefusal } from '../domain/errors.ts';
import type { Job } from '../domain/generation.ts';
import { isId, shownId } from '../domain/ids.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { ApiDeps } from './deps.ts';
import { attachment, type Reply } from './types.ts';

export function jobOutputs(d: ApiDeps, log: Logger) {
  const find = async (tenant: Tenant, id: string): Promise<Job> => {
    const job = isId('gen', id) ? await jobOf(d, tenant, id) : null;
    if (!job)
      throw apiRefusal('GENERATION_NOT_FOUND', `no generation ${shownId(id)} for this account and key mode`);
    return job;
  };

  /** The stored output of a completed, unexpired job, streamed. */
  const output = async (job: Job, contentType: string, filename: string): Promise<Reply> => {
    if (job.status !== 'completed')
      throw apiRefusal(
        'GENERATION_NOT_READY',
        `the job is ${job.status}${job.status === 'failed' || job.status === 'cancelled' ? ' and has no output' : ': poll it until it is completed'}`,
      );
    // Decided from the stored expiry, whatever the blob store still holds (DESIGN §9).
    if (!job.expiresAt || Date.parse(job.expiresAt) <= d.now().getTime()) {
      throw apiRefusal(
        'GENERATION_EXPIRED',
        `the output expired at ${job.expiresAt}; results are kept ${d.config.retentionDays} days`,
      );
    }
    const body = await openOutput(d, log, job);
    return attachment(filename, contentType, body);
  };

  return {
    find,
    /** The PDF of a completed generation. */
    async download(tenant: Tenant, id: string): Promise<Reply> {
      const job = await find(tenant, id);
      if (job.kind === 'preview')
        throw apiRefusal(
          'PREVIEW_ONLY',
          `${job.id} is a preview: it has images (GET /generations/${job.id}/preview), no PDF`,
        );
      return output(job, 'application/pdf', `${job.id}.pdf`);
    },
    /** The page images of a completed preview, as JSON. */
    async preview(tenant: Tenant, id: string): Promise<Reply> {
      const job = await find(tenant, id);
      if (job.kind !== 'preview') {
        throw apiRefusal(
          'INVALID_REQUEST',
          `${job.id} is a PDF generation: download it with GET /generations/${job.id}/download`,
        );
      }
      return output(job, 'application/json; charset=utf-8', `${job.id}.json`);
    },
  };
}
