// The integrator's client as it ships (`scriptorium/client`, the built package entry) against a
// real server: every public endpoint, typed errors, generate() to a file and to bytes, a wait
// that meets a 429 and goes on at the RateLimit reset, a POST whose answer is lost retried under
// its Idempotency-Key into one job, cancellation, abort and timeout.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type Progress, Scriptorium, ScriptoriumError } from 'scriptorium/client';
import { execFileSync } from 'node:child_process';
import t from 'tap';
import { png } from '../helpers/images.ts';
import { startTestServer } from '../helpers/server.ts';

const server = await startTestServer(t);
const dir = mkdtempSync(join(tmpdir(), 'scriptorium-client-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const LETTER =
  'Dear Margaret, thank you for the lovely afternoon tea last Sunday. The garden looked wonderful.';
const LONG = 'The quick brown fox jumps over the lazy dog, again and again, all afternoon long. '.repeat(600);

async function caught(promise: Promise<unknown>): Promise<ScriptoriumError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ScriptoriumError) return err;
    throw err;
  }
  throw new Error('expected a ScriptoriumError');
}

t.test('every public endpoint, typed', async (t) => {
  const a = await server.tenant();
  const client = new Scriptorium({ apiKey: a.test, baseUrl: server.base });
  const templates = await client.templates.list({ limit: 2 });
  t.equal(templates.data.length, 2);
  t.equal(templates.hasMore, true);
  const all = [];
  for await (const tpl of client.templates.all()) all.push(tpl.id);
  t.equal(all.length, 3, 'all() walks every page');
  const tpl = await client.templates.get(a.templates.test.simple);
  t.equal(tpl.mode, 'simple');
  const fonts = await client.fonts.list();
  t.ok(fonts.data.length >= 8, 'fonts');
  const usage = await client.usage.get({ from: '2026-01-01' });
  t.equal(usage.period.from, '2026-01-01');
  const asset = await client.assets.upload(png(40, 30));
  t.match(asset, { id: /^asset_/, type: 'image/png', width: 40, height: 30 });

  const job = await client.generations.create({
    templateId: a.templates.test.simple,
    text: LETTER,
    metadata: { order: 'A-1' },
  });
  t.equal(job.status, 'queued');
  t.same(job.metadata, { order: 'A-1' });
  const done = await client.generations.waitForCompletion(job.id, { intervalMs: 100 });
  t.equal(done.status, 'completed');
  const listed = await client.generations.list({ status: 'completed', kind: 'pdf' });
  t.same(
    listed.data.map((j) => j.id),
    [job.id],
  );
  const dl = await client.generations.download(done);
  t.equal(dl.contentType, 'application/pdf');
  const pdf = Buffer.from(await new Response(dl.body).arrayBuffer());
  t.equal(pdf.length, dl.size, 'the whole PDF');
  t.equal(pdf.subarray(0, 5).toString(), '%PDF-');

  const preview = await client.previews.create({ templateId: a.templates.test.simple, text: LETTER });
  await client.generations.waitForCompletion(preview.id, { intervalMs: 100 });
  const images = await client.previews.get(preview.id);
  t.equal(images.pages[0]?.contentType, 'image/png');

  const svg = await client.renders.create({
    templateId: a.templates.test.simple,
    text: 'Hello',
    format: 'svg',
  });
  t.match(svg, /^<svg/);
  const plot: string = await client.renders.create({
    templateId: a.templates.test.simple,
    text: 'Hello',
    format: 'strokes',
  });
  t.match(
    plot,
    /<g fill="none" stroke="[^"]+" stroke-width="[\d.]+" stroke-linecap="round"/,
    'strokes, as text',
  );
  const image = await client.renders.create({
    templateId: a.templates.test.simple,
    text: 'Hello',
    format: 'png',
  });
  t.same([...image.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'PNG bytes');

  const queued = await client.generations.create({ templateId: a.templates.test.simple, text: LONG });
  const cancelled = await client.generations.cancel(queued.id);
  t.equal(cancelled.status, 'cancelled');
  t.ok(client.rateLimit && client.rateLimit.remaining > 0, 'the RateLimit header is read');
});

t.test('errors are one class with code, status, message, field and request id', async (t) => {
  const a = await server.tenant();
  const client = new Scriptorium({ apiKey: a.test, baseUrl: `${server.base}/api/v1` });
  const bad = await caught(client.generations.create({ templateId: a.templates.test.simple, text: '' }));
  t.match(bad, {
    code: 'INVALID_REQUEST',
    status: 400,
    field: 'text',
    requestId: /^req_[0-9A-Za-z]{22}$/,
    message: /text must be 1-100,000 characters, got 0/,
  });
  const missing = await caught(client.generations.get('gen_0000000000000000000000'));
  t.match(missing, { code: 'GENERATION_NOT_FOUND', status: 404 });
  const key = await caught(new Scriptorium({ apiKey: 'hw_test_nope', baseUrl: server.base }).fonts.list());
  t.match(key, { code: 'INVALID_API_KEY', status: 401 });
  const gone = await caught(
    new Scriptorium({ apiKey: a.test, baseUrl: 'http://127.0.0.1:9', maxRetries: 0 }).fonts.list(),
  );
  t.match(gone, { code: 'CONNECTION_FAILED', status: 0 });
  t.throws(() => new Scriptorium({ apiKey: '', baseUrl: server.base }), /an API key is needed/);
});

t.test('generate(): submits, waits and writes the PDF to a file whole, with progress', async (t) => {
  const a = await server.tenant();
  const client = new Scriptorium({ apiKey: a.test, baseUrl: server.base });
  const seen: Progress['phase'][] = [];
  const out = join(dir, 'letter.pdf');
  const { job, bytes } = await client.generate(
    { templateId: a.templates.test.simple, text: LETTER },
    { to: out, intervalMs: 100, onProgress: (p) => seen.push(p.phase) },
  );
  t.equal(job.status, 'completed');
  const file = readFileSync(out);
  t.equal(file.length, bytes, 'the file holds every byte');
  t.equal(file.subarray(0, 5).toString(), '%PDF-');
  t.notOk(existsSync(`${out}.part`), 'no part file left');
  t.ok(seen.includes('downloading') && seen.at(-1) === 'done', `progress: ${[...new Set(seen)].join(' → ')}`);
  const inMemory = await client.generate(
    { templateId: a.templates.test.simple, text: LETTER },
    { intervalMs: 100 },
  );
  t.equal(inMemory.pdf.subarray(0, 5).toString(), '%PDF-', 'or returns the bytes');
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      done();
    },
  });
  const streamed = await client.generate(
    { templateId: a.templates.test.simple, text: LETTER },
    { to: sink, intervalMs: 100 },
  );
  t.equal(Buffer.concat(chunks).length, streamed.bytes, 'or streams it into a Writable');
  t.equal(Buffer.concat(chunks).subarray(0, 5).toString(), '%PDF-');
});

t.test(
  'a 429 in the middle of a wait: it waits for the RateLimit reset, not 60 s, and goes on',
  async (t) => {
    const s = await startTestServer(t, { rateLimitPerMinute: 4, rateLimitWindowSeconds: 3 });
    const a = await s.tenant();
    const client = new Scriptorium({ apiKey: a.test, baseUrl: s.base, maxRetries: 0 });
    const other = new Scriptorium({ apiKey: a.test, baseUrl: s.base, maxRetries: 0 });
    const job = await client.generations.create({ templateId: a.templates.test.simple, text: LONG });
    // Someone else spends the key's window while the job runs.
    const burned = await Promise.allSettled(Array.from({ length: 6 }, () => other.fonts.list()));
    t.ok(
      burned.some((r) => r.status === 'rejected' && (r.reason as ScriptoriumError).status === 429),
      'the window is spent',
    );
    const events: Progress[] = [];
    const done = await client.waitForCompletion(job.id, {
      intervalMs: 200,
      onProgress: (p) => events.push(p),
    });
    t.equal(done.status, 'completed', 'the wait ends with the job');
    const waits = events.filter((e) => e.phase === 'waiting');
    t.ok(waits.length >= 1, `${waits.length} waits after a 429`);
    t.ok(
      waits.every((e) => e.phase === 'waiting' && e.reason === 'rate-limit' && e.waitMs <= 3000),
      `each for the window's reset (${waits.map((e) => (e as { waitMs: number }).waitMs).join(', ')} ms), not Retry-After's 60 s`,
    );

    const retried: number[] = [];
    const retrying = new Scriptorium({
      apiKey: a.test,
      baseUrl: s.base,
      onRetry: (e) => retried.push(e.status),
    });
    // The window is spent again just before the call; on a slow machine it can reset between the
    // two, and the call is then answered at once: spend it again and call again (at most 3 times).
    let fonts = await (async () => {
      await Promise.allSettled(Array.from({ length: 6 }, () => other.fonts.list()));
      return retrying.fonts.list();
    })();
    for (let tries = 1; tries < 3 && !retried.includes(429); tries++) {
      await Promise.allSettled(Array.from({ length: 6 }, () => other.fonts.list()));
      fonts = await retrying.fonts.list();
    }
    t.ok(fonts.data.length > 0, 'a plain call after a 429 is retried at the reset and answered');
    t.ok(retried.includes(429), 'told of the retry');
  },
);

t.test('a POST whose answer is lost is retried under the same Idempotency-Key: one job', async (t) => {
  const a = await server.tenant();
  const keys: string[] = [];
  let lost = 0;
  const client = new Scriptorium({
    apiKey: a.test,
    baseUrl: server.base,
    onRetry: () => {},
    // The request reaches the server and is answered; the answer is lost on the way back once.
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      if (init?.method === 'POST') keys.push(new Headers(init.headers).get('idempotency-key') ?? '');
      if (init?.method === 'POST' && lost++ === 0) {
        await res.arrayBuffer();
        throw new TypeError('fetch failed', { cause: new Error('socket hang up') });
      }
      return res;
    },
  });
  const job = await client.generations.create({ templateId: a.templates.test.simple, text: LETTER });
  t.equal(keys.length, 2, 'sent twice');
  t.ok(keys[0] && keys[0] === keys[1], `with one key (${keys[0]})`);
  const jobs = await new Scriptorium({ apiKey: a.test, baseUrl: server.base }).generations.list();
  t.same(
    jobs.data.map((j) => j.id),
    [job.id],
    'exactly one job, the one answered',
  );
});

t.test('generate(): a cancelled job, an abort and a timeout are errors that say so', async (t) => {
  const a = await server.tenant();
  const client = new Scriptorium({ apiKey: a.test, baseUrl: server.base });
  const cancelling = client.generate(
    { templateId: a.templates.test.simple, text: LONG },
    {
      intervalMs: 50,
      onProgress: (p) => {
        if (p.phase === 'queued' || p.phase === 'processing')
          void client.generations.cancel(p.job.id).catch(() => {});
      },
    },
  );
  const err = await caught(cancelling);
  t.equal(err.code, 'GENERATION_CANCELLED');
  t.equal(err.job?.status, 'cancelled', 'with the job');

  const job = await client.generations.create({ templateId: a.templates.test.simple, text: LONG });
  const timeout = await caught(client.waitForCompletion(job.id, { timeoutMs: 50, intervalMs: 100 }));
  t.match(timeout, { code: 'TIMEOUT', message: /still (queued|processing).* it goes on/ });
  const abort = new AbortController();
  setTimeout(() => abort.abort(), 50);
  const aborted = await caught(client.waitForCompletion(job.id, { signal: abort.signal, intervalMs: 20 }));
  t.equal(aborted.code, 'ABORTED');
  await client.generations.cancel(job.id);
});

t.test(
  'batches: create from CSV, wait with progress, list the rows, download the ZIP and the merged PDF to files',
  async (t) => {
    const a = await server.tenant();
    const client = new Scriptorium({ apiKey: a.test, baseUrl: server.base });
    const csv =
      'text,metadata.name\nDear Ada: thank you.,ada\nDear Tom: thank you.,tom\nDear Grace: thank you.,grace\n';
    const batch = await client.batches.create({ templateId: a.templates.test.simple, csv, merge: true });
    t.match(batch, { id: /^bat_/, status: 'queued', rows: { total: 3 } });
    const seen: number[] = [];
    const done = await client.batches.wait(batch.id, {
      intervalMs: 50,
      onProgress: (b) => seen.push(b.rows.completed),
    });
    t.equal(done.status, 'completed');
    t.equal(done.rows.completed, 3);
    t.ok(seen.length > 0, `progress was told (${seen.join(', ')} completed)`);
    const rows = [];
    for await (const row of client.batches.rows(batch.id)) rows.push(row);
    t.same(
      rows.map((r) => [r.row, r.metadata.name]),
      [
        [0, 'ada'],
        [1, 'tom'],
        [2, 'grace'],
      ],
    );
    t.equal((await client.batches.list()).data[0]?.id, batch.id);
    const file = join(dir, 'letters.zip');
    const saved = await client.batches.download(batch.id, { to: file, name: 'name' });
    t.equal(saved.bytes, readFileSync(file).length, 'the ZIP written whole');
    t.equal(readFileSync(file).subarray(0, 2).toString(), 'PK');
    t.notOk(existsSync(`${file}.part`), 'no part file left');
    const bytes = await client.batches.download(batch.id, { name: 'name' });
    t.ok(Buffer.from(bytes.zip!).equals(readFileSync(file)), 'or as bytes, the same');
    const pdf = join(dir, 'letters.pdf');
    const totals: number[] = [];
    const merged = await client.batches.merged(batch.id, {
      to: pdf,
      onProgress: (_, total) => totals.push(total),
    });
    t.equal(merged.bytes, readFileSync(pdf).length, 'the merged PDF written whole');
    t.match(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }), /Pages:\s+3\n/, 'one page a row');
    t.ok(totals.length > 0 && totals.every((n) => Number.isNaN(n)), 'its size unknown until its end');
    const envelopes = await caught(client.batches.merged(batch.id, { part: 'envelope' }));
    t.match(envelopes, { code: 'INVALID_REQUEST', status: 400, field: 'part' }, 'the batch has no envelopes');
    const err = await caught(client.batches.cancel(batch.id));
    t.equal(err.code, 'INVALID_REQUEST', 'a completed batch cannot be cancelled');
  },
);
