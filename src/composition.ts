// The composition root: the one place that reads the environment and picks adapters.
import { join } from 'node:path';
import type { AdminDeps } from './app/admin.ts';
import { FsBlobStore } from './blobs/fs-blob-store.ts';
import type { BlobStore } from './blobs/types.ts';
import { type Config, databaseTarget, isFarm, loadConfig } from './config/index.ts';
import { planCatalog } from './domain/plans.ts';
import { Store } from './store/index.ts';

export interface Context extends AdminDeps {
  farm: boolean;
  close(): Promise<void>;
}

export function configFromEnv(overrides: Partial<Config> = {}): Config {
  return loadConfig(process.env, overrides);
}

export function blobStore(config: Config): BlobStore {
  if (config.s3Endpoint) throw new Error('S3 blob storage (S3_ENDPOINT) is not available in this version');
  return new FsBlobStore(join(config.dataDir, 'blobs'));
}

export async function openContext(config: Config): Promise<Context> {
  const plans = planCatalog(config.planCatalog);
  const blobs = blobStore(config);
  const store = await Store.open(databaseTarget(config), plans);
  return { config, store, blobs, now: () => new Date(), farm: isFarm(config), close: () => store.close() };
}
