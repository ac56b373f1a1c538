// The embedded blob store: files under a directory, written to a temporary name and renamed.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { type BlobStore, type BlobStream, checkKey, guarded } from './types.ts';

export class FsBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  /** The directory is made; the sweeper alone deletes expired outputs. */
  async prepare(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }

  async ping(): Promise<void> {
    const s = await stat(this.root);
    if (!s.isDirectory()) throw new Error(`${this.root} is not a directory`);
  }

  private path(key: string): string {
    return join(this.root, checkKey(key));
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const path = this.path(key);
    const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    await guarded('the blob store cannot write now', async () => {
      try {
        await mkdir(dirname(path), { recursive: true });
        await writeFile(tmp, bytes);
        await rename(tmp, path);
      } catch (err) {
        // A write cut short by a full disk leaves no half file holding the space.
        await rm(tmp, { force: true }).catch(() => {});
        throw err;
      }
    });
  }

  /** A read of the directory that a missing file answers with null; a failing disk is a fault. */
  private read<T>(op: () => Promise<T>): Promise<T | null> {
    return guarded('the blob store cannot read now', () =>
      op().catch((err: unknown) => {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }),
    );
  }

  async get(key: string): Promise<Uint8Array | null> {
    const path = this.path(key);
    return this.read(async () => new Uint8Array(await readFile(path)));
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.path(key))).isFile();
    } catch {
      return false;
    }
  }

  /**
   * The file is opened here, its size read from the open file: one deleted or replaced after
   * this answered is still the one streamed, and a stream closed unread has nothing left to fail
   * (a stream that opened its file itself, later, failed on a file deleted in between, with no
   * one listening: the process stopped).
   */
  async open(key: string): Promise<BlobStream | null> {
    const path = this.path(key);
    const file = await this.read(() => open(path, 'r'));
    if (!file) return null;
    const { size } = await guarded('the blob store cannot read now', () => file.stat()).catch(
      async (err: unknown) => {
        await file.close();
        throw err;
      },
    );
    const stream = file.createReadStream({ highWaterMark: 256 * 1024 });
    return { size, chunks: stream, close: () => stream.destroy() };
  }

  async *list(prefix: string): AsyncIterable<string> {
    const base = join(this.root, checkKey(prefix.replace(/\/+$/, '')));
    let entries: string[];
    try {
      entries = await readdir(base, { recursive: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const entry of entries.sort()) {
      const full = join(base, entry);
      // Half-written .tmp files are listed too (the sweeper decides); one deleted since the
      // directory was read (by the sweeper, or a delete) is gone, not an error.
      const found = await this.read(() => stat(full));
      if (!found?.isFile()) continue;
      yield relative(this.root, full).split(sep).join('/');
    }
  }
}
