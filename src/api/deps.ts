// What the HTTP layer needs from the rest of the service; the composition root fills it.
import type { RequestCounter } from '../app/request-counter.ts';
import type { BlobStore } from '../blobs/types.ts';
import type { Config } from '../config/index.ts';
import type { RateLimiter } from '../limits/rate-limit.ts';
import type { Store } from '../store/index.ts';

export interface ApiDeps {
  store: Store;
  blobs: BlobStore;
  config: Config;
  now: () => Date;
  limiter: RateLimiter;
  counter: RequestCounter;
}
