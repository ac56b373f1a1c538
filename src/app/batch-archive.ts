// GET /batches/{id}/download and /merged (extensions, docs/batches.md): one ZIP of every completed row's
// PDF, in row order, streamed: each PDF is read from the blob store only when its turn comes and
// passes through as it is read (stored, not compressed: a PDF is compressed already), so the
// archive is never held whole. Its length is known before the first byte (every entry's size
// is), and the same batch gives the same bytes every time (each entry dated at the batch's end).
import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { BlobStore, BlobStream } from '../blobs/types.ts';
import { apiRefusal } from '../domain/errors.ts';
import type { Tenant } from '../domain/tenant.ts';
import { type BatchPart, batchPath } from '../domain/batch.ts';
import { mergePdfs } from '../render/index.ts';
import type { BatchOutput, Store } from '../store/index.ts';
import { batchOf, entryName } from './batches.ts';
import { openOutput } from './outputs.ts';

const PAGE = 1000;

/** The batch's completed rows' outputs in row order; refused while it runs and once they expired. */
async function completedOutputs(
  d: { store: Store; now: () => Date; config: { retentionDays: number } },
  { batch, counts }: Awaited<ReturnType<typeof batchOf>>,
) {
  if (batch.status === 'queued')
    throw apiRefusal(
      'GENERATION_NOT_READY',
      `the batch is still running (${counts.queued + counts.processing} of ${batch.rowCount} rows left): poll it until it is completed`,
    );
  const now = d.now();
  const outputs: BatchOutput[] = [];
  for (let from = 0; ; ) {
    const page = await d.store.batches.outputs(batch.id, now, from, PAGE);
    outputs.push(...page);
    if (page.length < PAGE) break;
    from = page[page.length - 1]!.index + 1;
  }
  if (outputs.length === 0)
    throw counts.completed > 0
      ? apiRefusal(
          'GENERATION_EXPIRED',
          `the rows' outputs expired; results are kept ${d.config.retentionDays} days`,
        )
      : apiRefusal(
          'GENERATION_NOT_READY',
          `no row of the batch completed (${counts.failed} failed, ${counts.cancelled} cancelled)`,
        );
  return { batch, outputs };
}

export async function batchArchive(
  d: { store: Store; blobs: BlobStore; now: () => Date; config: { retentionDays: number } },
  log: Logger,
  tenant: Tenant,
  id: string,
  /** A metadata key whose value follows the row's index in each entry's name. */
  nameKey: string | undefined,
): Promise<{ filename: string; body: BlobStream }> {
  const { batch, outputs } = await completedOutputs(d, await batchOf(d, tenant, id));
  // The ZIP writer loads with the first archive, not with the process.
  const { default: yazl } = await import('yazl');
  const zip = new yazl.ZipFile();
  const mtime = new Date(batch.completedAt ?? batch.updatedAt);
  const width = String(batch.rowCount - 1).length;
  const open = new Set<BlobStream>();
  for (const out of outputs) {
    const name = entryName(out.index, width, nameKey ? out.metadata[nameKey] : undefined, out.part);
    zip.addReadStreamLazy(
      name,
      { size: out.blobDigest?.bytes ?? 0, compress: false, mtime },
      (cb: (err: unknown, stream: NodeJS.ReadableStream) => void) => {
        openOutput(d, log, out).then(
          (body) => {
            open.add(body);
            const stream = Readable.from(body.chunks, { objectMode: false });
            stream.on('close', () => open.delete(body));
            cb(null, stream);
          },
          (err: unknown) => cb(err, Readable.from([])),
        );
      },
    );
  }
  const size = await new Promise<number>((resolve) => {
    zip.end(undefined, ((total: number) => resolve(total)) as unknown as () => void);
  });
  const stream = zip.outputStream as Readable;
  return {
    filename: `${batch.id}.zip`,
    body: {
      size,
      chunks: stream,
      close: () => {
        for (const b of open) b.close();
        stream.destroy();
      },
    },
  };
}

/**
 * GET /batches/{id}/merged (an extension, docs/batches.md): the completed rows' PDFs (their letters,
 * or their envelopes) as one PDF in row order, merged as it is sent: each row's PDF is read when
 * its turn comes, so neither the merged document nor the rows are ever held whole. Its length is
 * known only at its end: it goes out chunked. The same batch gives the same bytes every time.
 */
export async function batchMerged(
  d: { store: Store; blobs: BlobStore; now: () => Date; config: { retentionDays: number } },
  log: Logger,
  tenant: Tenant,
  id: string,
  part: BatchPart,
): Promise<{ filename: string; body: { chunks: AsyncIterable<Uint8Array>; close(): void } }> {
  const found = await batchOf(d, tenant, id);
  const { batch } = found;
  if (!batch.merge)
    throw apiRefusal(
      'GENERATION_NOT_READY',
      `the batch was sent without merge: true, so it has no merged PDF; its rows' PDFs are in ${batchPath(batch.id)}/download`,
    );
  if (part === 'envelope' && !batch.envelopeTemplateId)
    throw apiRefusal('INVALID_REQUEST', 'part=envelope: the batch was sent without envelope, got envelope', {
      field: 'part',
    });
  const outputs = (await completedOutputs(d, found)).outputs.filter((o) => o.part === part);
  let open: BlobStream | null = null;
  const sources = async function* () {
    for (const out of outputs) {
      open = await openOutput(d, log, out);
      const parts: Uint8Array[] = [];
      for await (const chunk of open.chunks) parts.push(chunk);
      open = null;
      yield Buffer.concat(parts);
    }
  };
  const chunks = mergePdfs(sources(), {
    title: `${part === 'envelope' ? 'Envelopes' : 'Letters'} of batch ${batch.id}`,
    createdAt: batch.completedAt ?? batch.updatedAt,
  });
  return {
    filename: `${batch.id}${part === 'envelope' ? '-envelopes' : ''}.pdf`,
    body: {
      chunks,
      close: () => {
        (open as BlobStream | null)?.close();
        void chunks.return(undefined);
      },
    },
  };
}
