// A job renders the specification stored at its submission, as it is: the worker maps nothing
// again. A job admitted before specifications were stored is mapped from its snapshot and input.
// Real SQLite store, real directory of blobs, the engine in process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import t from 'tap';
import { jobRunner } from '../../src/app/generations.ts';
import { FsBlobStore } from '../../src/blobs/fs-blob-store.ts';
import { loadConfig } from '../../src/config/index.ts';
import { specOf } from '../../src/domain/render-spec.ts';
import { newId } from '../../src/lib/ids.ts';
import { InProcessRenderer } from '../../workers/in-process-renderer.ts';
import { sqliteFactory } from '../helpers/stores.ts';
import { styleOf } from '../helpers/specs.ts';

const factory = await sqliteFactory();
const store = await factory.open();
const dir = mkdtempSync(join(tmpdir(), 'scriptorium-blobs-'));
t.teardown(async () => {
  await factory.cleanup();
  rmSync(dir, { recursive: true, force: true });
});
const blobs = new FsBlobStore(dir);
const now = () => new Date('2026-11-23T10:00:00Z');
const run = jobRunner({
  store,
  blobs,
  config: loadConfig({}),
  now,
  renderer: new InProcessRenderer(),
  log: pino({ level: 'silent' }),
});

const account = await store.accounts.create({ name: 'Spec', plan: 'pro', period: 30, now: now() });
const tenant = { accountId: account.id, mode: 'live' as const };
const template = {
  version: 2 as const,
  name: 'Letter',
  mode: 'simple' as const,
  style: styleOf({ pageSize: 'A5', fontSize: 24 }),
};
const SHORT = 'Dear friend, one short line.';
const LONG = 'A longer letter that runs over the page. '.repeat(60);

async function submit(spec: ReturnType<typeof specOf>, stored: boolean) {
  const id = newId('gen');
  const job = {
    id,
    kind: 'pdf' as const,
    templateId: newId('tpl'),
    templateRevision: 1,
    template,
    input: { text: SHORT },
    inputHash: 'h',
    spec,
  };
  await store.generations.submit(tenant, job, { unfinished: 5, queued: 32 }, now());
  if (!stored)
    await store.db.kysely
      .updateTable('generations')
      .set({ render_spec: null })
      .where('id', '=', id)
      .execute();
  await run({ id, accountId: account.id }, new AbortController().signal);
  return (await store.generations.find(id))!;
}

t.test('the stored specification is rendered as it is', async (t) => {
  // Stored with a long text while the input holds a short one: the pages show which was rendered.
  const done = await submit(specOf(template, { text: LONG }), true);
  t.equal(done.status, 'completed');
  t.ok(done.pages! > 1, `the stored specification's ${done.pages} pages, not the input's one`);
});

t.test('a job without a stored specification is mapped from its snapshot and input', async (t) => {
  const done = await submit(specOf(template, { text: LONG }), false);
  t.equal(done.status, 'completed');
  t.equal(done.pages, 1, "the input's one page");
});
