// The blob store contract over each of its backends (a local directory, S3 over HTTP), and what
// only S3 has: a bucket made on first use, a lifecycle rule, a clear message when it is away.
import t from 'tap';
import { S3BlobStore } from '../../src/blobs/s3-blob-store.ts';
import { startS3 } from '../helpers/s3.ts';
import { backends, eachBackend } from './backends.ts';
import { blobStoreContract } from './blobs.ts';

await eachBackend(t, backends.blobs, blobStoreContract);

const s3 = await startS3(t);
t.test('s3: the bucket is created when missing; a server without lifecycle rules is a warning', async (t) => {
  const warnings: string[] = [];
  const store = new S3BlobStore({ ...s3, bucket: 'fresh-bucket' });
  await store.prepare({ outputDays: 7, warn: (m) => warnings.push(m) });
  await store.prepare({ outputDays: 7, warn: (m) => warnings.push(m) });
  t.pass('prepared twice: an existing bucket is fine');
  t.match(
    warnings[0],
    /lifecycle rule not set .*the sweeper alone deletes expired outputs/,
    'the lifecycle refusal is reported',
  );
  await store.put('outputs/a/b', new Uint8Array([1]), 'application/pdf');
  t.equal(await store.exists('outputs/a/b'), true);
});

t.test('s3: an endpoint that does not answer fails with a clear message', async (t) => {
  const store = new S3BlobStore({ ...s3, endpoint: 'http://127.0.0.1:9', bucket: 'x' });
  await t.rejects(
    store.prepare({ outputDays: 7, warn: () => {} }),
    /S3 at http:\/\/127\.0\.0\.1:9 does not answer/,
  );
});
