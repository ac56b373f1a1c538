// The blob store contract over each of its backends (a local directory, S3 over HTTP), and what
// only S3 has: a bucket made on first use, a lifecycle rule, a clear message when it is away.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { FsBlobStore } from '../../src/blobs/fs-blob-store.ts';
import { S3BlobStore } from '../../src/blobs/s3-blob-store.ts';
import { startS3 } from '../helpers/s3.ts';
import { backends, eachBackend } from './backends.ts';
import { blobStoreContract } from './blobs.ts';

await eachBackend(t, backends.blobs, blobStoreContract);

t.test('directory: a file deleted once opened still streams whole, or closes unread quietly', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-blobs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = new FsBlobStore(dir);
  const bytes = new Uint8Array(300_000).map((_, i) => i % 253);
  await store.put('outputs/acc/gen_1/1.pdf', bytes);
  // Removed at once, before anything else runs (the sweeper, or an operator's hand).
  const read = await store.open('outputs/acc/gen_1/1.pdf');
  rmSync(join(dir, 'outputs/acc/gen_1/1.pdf'));
  const parts: Uint8Array[] = [];
  for await (const chunk of read!.chunks) parts.push(chunk);
  t.same(Buffer.concat(parts), Buffer.from(bytes), 'the opened file is the one read, whole');

  await store.put('outputs/acc/gen_1/1.pdf', bytes);
  const unread = await store.open('outputs/acc/gen_1/1.pdf');
  rmSync(join(dir, 'outputs/acc/gen_1/1.pdf'));
  unread!.close();
  // Anything the closed stream had left to fail would fail now, and take the process with it.
  await new Promise((r) => setTimeout(r, 50));
  t.equal(
    await store.open('outputs/acc/gen_1/1.pdf'),
    null,
    'closed unread: nothing failed, and the file is gone',
  );
});

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
