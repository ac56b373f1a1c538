// The composition root: the one place that reads the environment and picks adapters.
import { join } from 'node:path';
import type { AdminDeps } from './app/admin.ts';
import { FsBlobStore } from './blobs/fs-blob-store.ts';
import { S3BlobStore } from './blobs/s3-blob-store.ts';
import type { BlobStore } from './blobs/types.ts';
import { type Config, databaseTarget, isFarm } from './config/index.ts';

export { configFromEnv } from './config/index.ts';
import { planCatalog } from './domain/plans.ts';
import { Store } from './store/index.ts';

export interface Context extends AdminDeps {
  farm: boolean;
  close(): Promise<void>;
}

export function blobStore(config: Config): BlobStore {
  if (config.s3Endpoint) {
    return new S3BlobStore({ endpoint: config.s3Endpoint, bucket: config.s3Bucket, accessKey: config.s3AccessKey, secretKey: config.s3SecretKey, region: config.s3Region });
  }
  return new FsBlobStore(join(config.dataDir, 'blobs'));
}

export async function openContext(config: Config): Promise<Context> {
  const plans = planCatalog(config.planCatalog);
  const blobs = blobStore(config);
  await blobs.prepare({ outputDays: config.retentionDays, warn: (m) => process.stderr.write(`scriptorium: ${m}\n`) });
  const store = await Store.open(databaseTarget(config), plans);
  return { config, store, blobs, now: () => new Date(), farm: isFarm(config), close: () => store.close() };
}
