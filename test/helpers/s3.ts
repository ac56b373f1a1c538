// A real S3 server for tests: s3rver over HTTP on an ephemeral port, its files in a directory of
// its own that is removed afterwards. It does not check signatures and has no lifecycle API.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { Test } from 'tap';

export interface TestS3 {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  region: string;
  /** Stops the server before the test ends (S3 gone); the files stay until then. */
  stop(): Promise<void>;
  /** Starts it again after a stop, on the same port over the same files. */
  restart(): Promise<void>;
}

export async function startS3(t: Test): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'scriptorium-s3-'));
  let server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = (await server.run()) as { port: number };
  let stopped: Promise<void> | null = null;
  const stop = () => (stopped ??= server.close().then(() => {}));
  const restart = async () => {
    await stop();
    server = new S3rver({ port, address: '127.0.0.1', silent: true, directory });
    await server.run();
    stopped = null;
  };
  t.teardown(async () => {
    await stop();
    rmSync(directory, { recursive: true, force: true });
  });
  return {
    stop,
    restart,
    endpoint: `http://127.0.0.1:${port}`,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    region: 'us-east-1',
  };
}
