// The farm blob store: an S3 bucket (MinIO or any S3) through the `minio` client. Objects are
// written whole (a reader sees the old object or the new one), downloads stream from S3 with
// backpressure, the sweeper lists by prefix. The bucket is created when missing; a lifecycle
// rule expiring outputs is set as a backstop where the server supports it.
import type { Readable } from 'node:stream';
import { Client } from 'minio';
import { type BlobStore, type BlobStream, checkKey, guarded } from './types.ts';

export interface S3Options {
  endpoint: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  region: string;
}

/** S3 error codes that mean "no such object". */
const ABSENT = new Set(['NoSuchKey', 'NotFound', 'NoSuchObject']);
const absent = (err: unknown) => ABSENT.has((err as { code?: string }).code ?? '');

export class S3BlobStore implements BlobStore {
  private readonly client: Client;
  readonly bucket: string;

  constructor(private readonly opts: S3Options) {
    const url = new URL(opts.endpoint);
    this.client = new Client({
      endPoint: url.hostname,
      port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80,
      useSSL: url.protocol === 'https:',
      accessKey: opts.accessKey,
      secretKey: opts.secretKey,
      region: opts.region,
      pathStyle: true,
    });
    this.bucket = opts.bucket;
  }

  /**
   * Checks the server answers and the bucket exists (creating it if not), then asks for the
   * outputs' lifecycle rule. Throws a clear error when S3 cannot be reached; a server without
   * lifecycle support is reported through `warn`, not fatal.
   */
  async prepare(opts: { outputDays: number; warn: (message: string) => void }): Promise<void> {
    let exists: boolean;
    try {
      exists = await this.client.bucketExists(this.bucket);
    } catch (err) {
      throw new Error(`S3 at ${this.opts.endpoint} does not answer: ${(err as Error).message}`);
    }
    if (!exists) {
      await this.client.makeBucket(this.bucket, this.opts.region).catch((err: { code?: string }) => {
        if (err.code !== 'BucketAlreadyOwnedByYou' && err.code !== 'BucketAlreadyExists') throw err;
      });
    }
    // The sweeper deletes expired outputs; this rule is the backstop should it stop. A day of
    // slack past the retention: the stored expiry, not the bucket, decides 410.
    const rule = (id: string, prefix: string) => ({
      ID: id,
      Status: 'Enabled',
      Filter: { Prefix: prefix },
      Expiration: { Days: opts.outputDays + 1 },
    });
    await this.client
      .setBucketLifecycle(this.bucket, {
        Rule: [rule('expire-outputs', 'outputs/'), rule('expire-previews', 'previews/')],
      })
      .catch((err: Error & { code?: string }) =>
        opts.warn(
          `S3 lifecycle rule not set (${err.code ?? err.message}); the sweeper alone deletes expired outputs`,
        ),
      );
  }

  async ping(): Promise<void> {
    if (!(await this.client.bucketExists(this.bucket)))
      throw new Error(`bucket ${this.bucket} does not exist at ${this.opts.endpoint}`);
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    await guarded(`S3 at ${this.opts.endpoint} cannot write now`, () =>
      this.client.putObject(this.bucket, checkKey(key), body, body.length, {
        'Content-Type': contentType,
      }),
    );
  }

  /** A read of S3 that an absent object answers with null; an unreachable server is a fault. */
  private read<T>(op: () => Promise<T>): Promise<T | null> {
    return guarded(`S3 at ${this.opts.endpoint} cannot be read now`, () =>
      op().catch((err: unknown) => {
        if (absent(err)) return null;
        throw err;
      }),
    );
  }

  async get(key: string): Promise<Uint8Array | null> {
    return this.read(async () => {
      const stream = await this.client.getObject(this.bucket, checkKey(key));
      const parts: Buffer[] = [];
      for await (const chunk of stream) parts.push(chunk as Buffer);
      return new Uint8Array(Buffer.concat(parts));
    });
  }

  async delete(key: string): Promise<void> {
    await this.read(() => this.client.removeObject(this.bucket, checkKey(key)));
  }

  async exists(key: string): Promise<boolean> {
    return (await this.read(() => this.client.statObject(this.bucket, checkKey(key)))) !== null;
  }

  async open(key: string): Promise<BlobStream | null> {
    const stat = await this.read(() => this.client.statObject(this.bucket, checkKey(key)));
    if (!stat) return null;
    // Deleted between the two calls: absent too.
    const stream: Readable | null = await this.read(() => this.client.getObject(this.bucket, key));
    if (!stream) return null;
    return { size: stat.size, chunks: stream, close: () => stream.destroy() };
  }

  async *list(prefix: string): AsyncIterable<string> {
    for await (const item of this.client.listObjectsV2(
      this.bucket,
      `${checkKey(prefix.replace(/\/+$/, ''))}/`,
      true,
    )) {
      const name = (item as { name?: string }).name;
      if (name) yield name;
    }
  }
}
