// Stored bytes that go wrong (issue: hardening). On the real server: an output altered, cut short
// or deleted on disk is never served as a clean 200 (500 OUTPUT_DAMAGED before any byte, or a
// cut connection for a large file whose damage shows while streaming); an image whose stored
// bytes changed is never drawn from (the job fails, uncharged); with S3 stopped, downloads and
// uploads answer 503 with Retry-After and a job waits for S3 to come back, then completes.
import { readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pino } from 'pino';
import t, { type Test } from 'tap';
import { sha256Hex } from '../../src/lib/ids.ts';
import { png } from '../helpers/images.ts';
import { startS3 } from '../helpers/s3.ts';
import { call, jobFinished, startTestServer, type TestServer } from '../helpers/server.ts';

const ADMIN = 'blob-faults-admin-token-0123456789';

// Twice in CI under load, and never run alone, this file's process ended with the request for a
// deleted output unanswered and its test unfinished. What the process still held as it ended, for
// the next time.
process.on('exit', (code) => {
  if (code !== 0)
    console.error(`# blob-faults ended ${code}; active: ${process.getActiveResourcesInfo().join(', ')}`);
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function letter(t: Test, server: TestServer, key: string, templateId: string): Promise<string> {
  const post = await call(t, server, 'POST', '/generations', {
    key,
    body: { templateId, text: 'Dear friend, these bytes are the ones I wrote.' },
  });
  t.equal(post.status, 202);
  const job = await jobFinished(t, server, key, post.body.id);
  t.equal(job.status, 'completed');
  return post.body.id;
}

t.test('an output altered, cut short or deleted on disk is refused, and the fault logged', async (t) => {
  const logged: { msg: string; job?: string }[] = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => logged.push(JSON.parse(line)) });
  const server = await startTestServer(t, {}, { log });
  const tenant = await server.tenant();
  const key = tenant.test;
  const id = await letter(t, server, key, tenant.templates.test.simple);
  const job = (await server.ctx.store.generations.find(id))!;
  const path = join(server.dir, 'blobs', job.blobKey!);
  const original = readFileSync(path);
  t.same(job.blobDigest, { sha256: sha256Hex(original), bytes: original.length }, 'the digest is stored');
  const ok = await call(t, server, 'GET', `/generations/${id}/download`, { key });
  t.equal(ok.status, 200);
  t.ok(ok.bytes.equals(original), 'the intact PDF is served');

  const altered = Buffer.from(original);
  altered[altered.length >> 1]! ^= 0x20;
  writeFileSync(path, altered);
  const changed = await call(t, server, 'GET', `/generations/${id}/download`, { key });
  t.equal(changed.status, 500, 'one byte changed: 500');
  t.equal(changed.body.error.code, 'OUTPUT_DAMAGED');

  truncateSync(path, original.length - 100);
  const cut = await call(t, server, 'GET', `/generations/${id}/download`, { key });
  t.equal(cut.status, 500, 'cut short: 500');
  t.equal(cut.body.error.code, 'OUTPUT_DAMAGED');

  rmSync(path);
  const gone = await call(t, server, 'GET', `/generations/${id}/download`, { key });
  t.equal(gone.status, 500, 'deleted: 500');
  t.equal(gone.body.error.code, 'OUTPUT_DAMAGED');
  t.match(gone.body.error.message, new RegExp(`${id} is missing or damaged`));

  // A large output (3 MiB) is checked while it streams: altered near its end, the transfer is cut
  // before its last bytes.
  const large = randomBytes(3 * 1024 * 1024);
  writeFileSync(path, large);
  await server.ctx.store.db.kysely
    .updateTable('generations')
    .set({ blob_sha256: sha256Hex(large), blob_bytes: large.length })
    .where('id', '=', id)
    .execute();
  const whole = await fetch(`${server.base}/api/v1/generations/${id}/download`, {
    headers: { authorization: `Bearer ${key}` },
  });
  t.ok(Buffer.from(await whole.arrayBuffer()).equals(large), 'an intact large output streams whole');
  large[large.length - 10]! ^= 1;
  writeFileSync(path, large);
  const res = await fetch(`${server.base}/api/v1/generations/${id}/download`, {
    headers: { authorization: `Bearer ${key}` },
  });
  t.equal(res.status, 200, 'the answer had started');
  t.equal(Number(res.headers.get('content-length')), large.length);
  let received = 0;
  const read = (async () => {
    for await (const chunk of res.body!) received += chunk.length;
  })();
  await t.rejects(read, 'the body never completes');
  t.ok(received < large.length, `the transfer was cut after ${received} of ${large.length} bytes`);
  t.same(
    logged.filter((l) => l.job === id).map((l) => l.msg),
    [
      'stored output does not match its SHA-256',
      'stored output has the wrong length',
      'stored output is missing',
      'stored output does not match its SHA-256',
    ],
    'each fault is logged for the operator, with the job',
  );
});

t.test('an image whose stored bytes changed is never drawn: the job fails, uncharged', async (t) => {
  const server = await startTestServer(t);
  const tenant = await server.tenant();
  const key = tenant.test;
  const up = await call(t, server, 'POST', '/assets', {
    key,
    raw: png(120, 80),
    headers: { 'content-type': 'image/png' },
  });
  t.equal(up.status, 201);
  const record = (await server.ctx.store.assets.get(
    { accountId: tenant.accountId, mode: 'test' },
    up.body.id,
  ))!;
  const path = join(server.dir, 'blobs', record.blobKey);
  const bytes = readFileSync(path);
  bytes[bytes.length - 20]! ^= 0x01; // still a PNG to a reader that skips the CRC
  writeFileSync(path, bytes);
  const before = (await call(t, server, 'GET', '/usage', { key })).body.balance.availableSheets;
  const post = await call(t, server, 'POST', '/generations', {
    key,
    body: { templateId: tenant.templates.test.legacy, content: [{ type: 'image', assetId: up.body.id }] },
  });
  t.equal(post.status, 202);
  const job = await jobFinished(t, server, key, post.body.id);
  t.equal(job.status, 'failed');
  t.equal(job.error.code, 'GENERATION_FAILED');
  t.match(job.error.message, new RegExp(`image ${up.body.id} is damaged`));
  const after = (await call(t, server, 'GET', '/usage', { key })).body.balance.availableSheets;
  t.equal(after, before, 'nothing charged');
});

t.test('S3 stopped: downloads and uploads answer 503, a job waits for it and then completes', async (t) => {
  const s3 = await startS3(t);
  const server = await startTestServer(t, {
    s3Endpoint: s3.endpoint,
    s3AccessKey: s3.accessKey,
    s3SecretKey: s3.secretKey,
    s3Region: s3.region,
    s3Bucket: `faults-${process.pid}`,
    jobRetryBaseMs: 100,
    jobRetryMaxMs: 400,
    adminToken: ADMIN,
  });
  const tenant = await server.tenant();
  const key = tenant.test;
  const image = png(120, 80);
  const up = await call(t, server, 'POST', '/assets', {
    key,
    raw: image,
    headers: { 'content-type': 'image/png' },
  });
  t.equal(up.status, 201);
  const done = await letter(t, server, key, tenant.templates.test.simple);

  await s3.stop();
  const download = await call(t, server, 'GET', `/generations/${done}/download`, { key });
  t.equal(download.status, 503, 'a download with S3 away: 503');
  t.equal(download.body.error.code, 'SERVICE_UNAVAILABLE');
  t.equal(download.headers.get('retry-after'), '30');
  const upload = await call(t, server, 'POST', '/assets', {
    key,
    raw: image,
    headers: { 'content-type': 'image/png' },
  });
  t.equal(upload.status, 503, 'an upload with S3 away: 503');
  t.equal(upload.body.error.code, 'SERVICE_UNAVAILABLE');
  const post = await call(t, server, 'POST', '/generations', {
    key,
    body: { templateId: tenant.templates.test.legacy, content: [{ type: 'image', assetId: up.body.id }] },
  });
  t.equal(post.status, 202, 'a job is admitted (it needs S3 only to run)');
  let attempts = 0;
  for (let i = 0; i < 100 && attempts < 3; i++) {
    await sleep(100);
    attempts = (await server.ctx.store.generations.find(post.body.id))!.attempt;
  }
  t.ok(attempts >= 3, `it is tried again while S3 is away (${attempts} attempts)`);
  t.equal((await call(t, server, 'GET', `/generations/${post.body.id}`, { key })).body.status, 'processing');
  // The operator sees why: the job waits out a retry's back-off, until when and for which retry.
  let wait: { reason: string; until?: string; faults: number } | undefined;
  for (let i = 0; i < 50 && wait?.reason !== 'retry'; i++) {
    const listed = await call(t, server, 'GET', '//admin/v1/jobs?status=processing', {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    wait = listed.body.data.find((j: { id: string }) => j.id === post.body.id)?.wait;
    if (wait?.reason !== 'retry') await sleep(20);
  }
  t.equal(wait?.reason, 'retry', 'the admin API says the job waits for a retry');
  t.ok(wait && wait.faults >= 1, `after its faults (${wait?.faults})`);
  t.ok(
    wait?.until && Math.abs(Date.parse(wait.until) - Date.now()) < 2000,
    `due within its back-off (${wait?.until})`,
  );

  await s3.restart();
  const job = await jobFinished(t, server, key, post.body.id);
  t.equal(job.status, 'completed', 'S3 back: the job completes');
  t.equal((await call(t, server, 'GET', `/generations/${post.body.id}/download`, { key })).status, 200);
  t.equal((await call(t, server, 'GET', `/generations/${done}/download`, { key })).status, 200);
});
