// A completed job's stored output (the PDF, or a preview's pages), opened for a download and
// checked against the length and SHA-256 its completion recorded. A missing or shortened file,
// or a small one whose bytes changed, is refused before anything is sent (500 OUTPUT_DAMAGED). A
// large file's damage shows only once streamed, so its last chunk is held back until the digest
// matches: a damaged copy is cut off before its end and never arrives as a whole 200. Each
// damage is logged for the operator.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { BlobStore, BlobStream } from '../blobs/types.ts';
import { apiRefusal } from '../domain/errors.ts';
import type { Job } from '../domain/generation.ts';

/** What opening an output needs of its job. */
export type StoredOutput = Pick<Job, 'id' | 'blobKey' | 'blobDigest'>;

const damaged = (job: StoredOutput) =>
  apiRefusal(
    'OUTPUT_DAMAGED',
    `the stored output of ${job.id} is missing or damaged and is not served; the operator has been told`,
  );

/** The output of a completed job as a verified stream; storage faults pass on as they are (503). */
export async function openOutput(
  d: { blobs: BlobStore },
  log: Logger,
  job: StoredOutput,
): Promise<BlobStream> {
  const body = job.blobKey ? await d.blobs.open(job.blobKey) : null;
  const expected = job.blobDigest;
  if (!body) {
    log.error({ job: job.id, blobKey: job.blobKey }, 'stored output is missing');
    throw damaged(job);
  }
  if (!expected) return body; // completed before digests were recorded
  if (body.size !== expected.bytes) {
    body.close();
    log.error(
      { job: job.id, blobKey: job.blobKey, bytes: body.size, expected: expected.bytes },
      'stored output has the wrong length',
    );
    throw damaged(job);
  }
  const chunks = verified(body, expected, job, log);
  if (body.size > CHECK_WHOLE_BYTES) return { size: body.size, chunks, close: () => body.close() };
  // Small enough to check whole before answering: damage is a clean 500, not a cut connection.
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return {
    size: body.size,
    chunks: (async function* () {
      yield* parts;
    })(),
    close: () => body.close(),
  };
}

/** Outputs up to this size are read and checked before the answer starts. */
const CHECK_WHOLE_BYTES = 1024 * 1024;

async function* verified(
  body: BlobStream,
  expected: { sha256: string; bytes: number },
  job: StoredOutput,
  log: Logger,
): AsyncIterable<Uint8Array> {
  const hash = createHash('sha256');
  let seen = 0;
  let held: Uint8Array | null = null;
  const fail = (what: string, detail: Record<string, unknown>) => {
    log.error({ job: job.id, blobKey: job.blobKey, ...detail }, what);
    throw damaged(job);
  };
  for await (const chunk of body.chunks) {
    hash.update(chunk);
    seen += chunk.byteLength;
    if (seen > expected.bytes)
      fail('stored output grew while read', { bytes: seen, expected: expected.bytes });
    if (held) yield held;
    held = chunk;
  }
  if (seen !== expected.bytes)
    fail('stored output was cut short while read', { bytes: seen, expected: expected.bytes });
  const digest = hash.digest('hex');
  if (digest !== expected.sha256)
    fail('stored output does not match its SHA-256', { sha256: digest, expected: expected.sha256 });
  if (held) yield held;
}
