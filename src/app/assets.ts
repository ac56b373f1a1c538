// POST /assets: a private PNG or JPEG for structured templates and Document v1 content.
// Order: limits from the header (no decoding) → structure → pixel stream inflated with a hard
// cap (a zlib bomb stops at the size the header promised) → a full decode on a thread of the
// render pool, under its time and heap limits (the last gate) → blob → quota row under the
// account lock. A refused quota deletes the blob it just wrote.
import { createInflate } from 'node:zlib';
import type { BlobStore } from '../blobs/types.ts';
import type { Config } from '../config/index.ts';
import { Refusal, apiRefusal, type DecidedRefusal } from '../domain/errors.ts';
import { assetIds, jobBlocks } from '../domain/document.ts';
import { shownId } from '../domain/ids.ts';
import { templateAssetIds } from '../domain/template.ts';
import { type CheckedImage, checkImage } from '../domain/images.ts';
import type { Tenant } from '../domain/tenant.ts';
import { newId, sha256Hex } from '../lib/ids.ts';
import type { AssetRecord, Store, TemplateRecord } from '../store/index.ts';
import { keptFor, type Remembered } from './idempotency.ts';
import type { Job } from '../domain/generation.ts';
import { type Renderer, RenderTaskError } from './ports/renderer.ts';

export interface AssetDeps {
  store: Store;
  blobs: BlobStore;
  config: Config;
  now: () => Date;
  /** Decodes the image before it is stored; absent only for the service's own demo images. */
  renderer?: Renderer;
}

/** Inflates the PNG pixel stream off the main thread, keeping nothing; it must match exactly. */
function inflateExactly(pixels: NonNullable<CheckedImage['pixels']>): Promise<void> {
  const corrupt = (detail: string) =>
    apiRefusal('INVALID_REQUEST', `the PNG image data is corrupt or truncated (${detail})`, {
      field: 'body',
    });
  return new Promise((resolve, reject) => {
    const inflate = createInflate({ chunkSize: 64 * 1024 });
    let produced = 0;
    let settled = false;
    const settle = (err?: DecidedRefusal) => {
      if (settled) return;
      settled = true;
      inflate.destroy();
      if (err) reject(err);
      else resolve();
    };
    inflate.on('data', (chunk: Buffer) => {
      produced += chunk.length;
      if (produced > pixels.inflatedBytes)
        settle(corrupt(`the pixels inflate past the ${pixels.inflatedBytes} bytes the header declares`));
    });
    inflate.on('error', (err) => settle(corrupt(err.message)));
    inflate.on('end', () =>
      settle(
        produced === pixels.inflatedBytes
          ? undefined
          : corrupt(`the pixels inflate to ${produced} of ${pixels.inflatedBytes} bytes`),
      ),
    );
    inflate.end(pixels.deflated);
  });
}

/**
 * An uploaded image checked against the asset limits by its header and structure, its PNG pixels
 * inflated to their exact size (decoding nothing): DecidedRefusal naming what is wrong.
 */
export async function checkedUpload(
  c: Pick<Config, 'assetMaxBytes' | 'assetMaxSide' | 'assetMaxPixels'>,
  bytes: Uint8Array,
  contentType: string | undefined,
): Promise<CheckedImage> {
  const image = checkImage(bytes, contentType, {
    maxBytes: c.assetMaxBytes,
    maxSide: c.assetMaxSide,
    maxPixels: c.assetMaxPixels,
  });
  if (image.pixels) await inflateExactly(image.pixels);
  return image;
}

/** The last gate: the image decodes, in full, to exactly what its header says. */
async function decodes(
  renderer: Renderer,
  image: CheckedImage,
  bytes: Buffer,
  timeoutMs: number,
): Promise<void> {
  let result: Awaited<ReturnType<Renderer['checkImage']>>;
  try {
    result = await renderer.checkImage(
      { type: image.type, bytes, width: image.width, height: image.height },
      { timeoutMs },
    );
  } catch (err) {
    if (!(err instanceof RenderTaskError) || (err.reason !== 'timeout' && err.reason !== 'memory')) throw err;
    throw apiRefusal(
      'INVALID_REQUEST',
      `the image could not be decoded within the limits (${err.reason === 'timeout' ? `${timeoutMs} ms` : 'memory'}): ${err.message}`,
      { field: 'body' },
    );
  }
  if (!result.ok) throw apiRefusal('INVALID_REQUEST', result.message, { field: 'body' });
}

export async function uploadAsset(
  d: AssetDeps,
  tenant: Tenant,
  bytes: Buffer,
  contentType: string | undefined,
  /** Keeps the answer of a request sent with an idempotency key in the asset's own commit. */
  remember?: Remembered<AssetRecord>,
): Promise<AssetRecord> {
  const c = d.config;
  const image = await checkedUpload(c, bytes, contentType);
  if (d.renderer) await decodes(d.renderer, image, bytes, c.assetDecodeTimeoutMs);
  const id = newId('asset');
  const blobKey = `assets/${tenant.accountId}/${id}`;
  await d.blobs.put(blobKey, bytes, image.type);
  const record: AssetRecord = {
    id,
    accountId: tenant.accountId,
    mode: tenant.mode,
    type: image.type,
    width: image.width,
    height: image.height,
    bytes: bytes.byteLength,
    sha256: sha256Hex(bytes),
    blobKey,
    createdAt: d.now().toISOString(),
  };
  try {
    await d.store.assets.create(
      tenant,
      record,
      { maxCount: c.assetsMaxCount, maxTotalBytes: c.assetsMaxTotalBytes },
      keptFor(remember, record),
    );
    return record;
  } catch (err) {
    await d.blobs.delete(blobKey).catch(() => {});
    throw err;
  }
}

/**
 * Deletes an image of the tenant, unless a template or an unfinished job of the tenant places
 * it (the refusal names which): its record first, then its bytes.
 */
export async function deleteAsset(
  d: Pick<AssetDeps, 'store' | 'blobs'>,
  tenant: Tenant,
  id: string,
): Promise<AssetRecord> {
  const asset = await d.store.assets.get(tenant, id);
  if (!asset) throw new Refusal('missing', `image ${shownId(id)} does not exist for this account and mode`);
  const template = await findTemplate(d.store, tenant, (t) => templateAssetIds(t.model).includes(id));
  if (template)
    throw new Refusal(
      'conflict',
      `${id} is placed by template ${template.id} (“${template.name}”); change the template first`,
    );
  const job = await findUnfinishedJob(d.store, tenant, (j) =>
    assetIds(jobBlocks(j.template, j.input) ?? []).includes(id),
  );
  if (job)
    throw new Refusal(
      'conflict',
      `${id} is placed by job ${job.id}, which has not finished; wait for it or cancel it`,
    );
  const removed = await d.store.assets.remove(tenant, id);
  if (!removed) throw new Refusal('missing', `image ${shownId(id)} does not exist for this account and mode`);
  await d.blobs.delete(removed.blobKey);
  return removed;
}

/** The first template of the tenant that passes `test`, every page looked at. */
export async function findTemplate(
  store: Store,
  tenant: Tenant,
  test: (t: TemplateRecord) => boolean,
): Promise<TemplateRecord | null> {
  for (let cursor: string | undefined, more = true; more; ) {
    const page = await store.templates.list(tenant, { limit: 100, cursor });
    const found = page.data.find(test);
    if (found) return found;
    more = page.hasMore;
    cursor = page.nextCursor ?? undefined;
  }
  return null;
}

/** The first queued or running job of the tenant that passes `test` (a tenant has few: spec §8). */
export async function findUnfinishedJob(
  store: Store,
  tenant: Tenant,
  test: (j: Job) => boolean,
): Promise<Job | null> {
  for (const status of ['queued', 'processing'] as const) {
    const jobs = await store.generations.list(tenant, { limit: 100, status });
    const found = jobs.data.find(test);
    if (found) return found;
  }
  return null;
}
