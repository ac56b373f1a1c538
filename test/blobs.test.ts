// The blob store contract against both adapters: a local directory and S3 (s3rver over HTTP).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { FsBlobStore } from '../src/blobs/fs-blob-store.ts';
import { S3BlobStore } from '../src/blobs/s3-blob-store.ts';
import { blobStoreContract } from './contract/blobs.ts';
import { startS3 } from './helpers/s3.ts';

const dir = mkdtempSync(join(tmpdir(), 'scriptorium-blobs-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
blobStoreContract(t, 'directory', async () => new FsBlobStore(join(dir, String(n++))));

const s3 = await startS3(t);
blobStoreContract(t, 's3', async () => {
  const store = new S3BlobStore({ ...s3, bucket: `contract-${n++}` });
  await store.prepare({ outputDays: 7, warn: () => {} });
  return store;
});

t.test('s3: the bucket is created when missing; a server without lifecycle rules is a warning', async (t) => {
  const warnings: string[] = [];
  const store = new S3BlobStore({ ...s3, bucket: 'fresh-bucket' });
  await store.prepare({ outputDays: 7, warn: (m) => warnings.push(m) });
  await store.prepare({ outputDays: 7, warn: (m) => warnings.push(m) });
  t.pass('prepared twice: an existing bucket is fine');
  t.match(warnings[0], /lifecycle rule not set .*the sweeper alone deletes expired outputs/, 'the lifecycle refusal is reported');
  await store.put('outputs/a/b', new Uint8Array([1]), 'application/pdf');
  t.equal(await store.exists('outputs/a/b'), true);
});

t.test('s3: an endpoint that does not answer fails with a clear message', async (t) => {
  const store = new S3BlobStore({ ...s3, endpoint: 'http://127.0.0.1:9', bucket: 'x' });
  await t.rejects(store.prepare({ outputDays: 7, warn: () => {} }), /S3 at http:\/\/127\.0\.0\.1:9 does not answer/);
});
