// What the HTTP layer needs from the rest of the service; the composition root fills it.
import type { Readiness } from '../app/probes.ts';
import type { RequestCounter } from '../app/request-counter.ts';
import type { BlobStore } from '../blobs/types.ts';
import type { Config } from '../config/index.ts';
import type { Metrics, Snapshot } from '../metrics/index.ts';
import type { Renderer } from '../app/ports/renderer.ts';
import type { RateLimiter, SignInLimits } from '../limits/rate-limit.ts';
import type { RenderQuota } from '../limits/render-quota.ts';
import type { JobQueue } from '../queue/types.ts';
import type { Store } from '../store/index.ts';

export interface ApiDeps {
  store: Store;
  blobs: BlobStore;
  config: Config;
  now: () => Date;
  limiter: RateLimiter;
  counter: RequestCounter;
  /** Where submitted jobs go to be run. */
  queue: JobQueue;
  /** New previews per account (spec §8). */
  previewLimiter: RateLimiter;
  /** The dashboard's doors (sign-in, sign-up, invitations). */
  signInLimits: SignInLimits;
  /** The dashboard builder's previews, per account. */
  draftLimiter: RateLimiter;
  /** Personal font uploads, per account. */
  fontUploadLimiter: RateLimiter;
  handPictureLimiter: RateLimiter;
  /** Synchronous renders run on the same pool as jobs, under their own quotas. */
  renderer: Renderer;
  quota: RenderQuota;
  /** This instance's name in a farm (jobs it admitted, its metrics); none when it runs alone. */
  instance?: string;
  /** This process's figures (renders, errors, 429s), for the admin API and GET /metrics. */
  metrics: Metrics;
  /** The service-wide figures now (every instance of a farm). */
  snapshot(): Promise<Snapshot>;
  /** Whether this process can serve now: the store, the blobs and (farm) Redis answer. */
  ready(): Promise<Readiness>;
}
