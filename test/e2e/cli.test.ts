// The operator command line of DESIGN §8, run as real processes against a real store.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { EXAMPLE_IMAGES, type ExampleName, readExample } from '../../src/app/demo.ts';
import { parseApiKey } from '../../src/domain/api-keys.ts';
import { DEFAULT_PLANS } from '../../src/domain/plans.ts';
import { Store } from '../../src/store/index.ts';
import { png } from '../helpers/images.ts';
import { startS3 } from '../helpers/s3.ts';
import { cli, cliJson } from '../helpers/cli.ts';
import { ROOT, runCommand, startServe } from '../helpers/spawn.ts';
import { unavailable } from '../helpers/services.ts';
import { postgresFactory } from '../helpers/stores.ts';

const FONT_FILE = join(ROOT, 'node_modules/@expo-google-fonts/kalam/300Light/Kalam_300Light.ttf');

const dir = mkdtempSync(join(tmpdir(), 'scriptorium-cli-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const env = { DATA_DIR: join(dir, 'data') };
const json = cliJson(env);

t.test('every admin command, end to end', async (t) => {
  const first = await json(['migrate']);
  t.match(first, { dialect: 'sqlite' });
  t.ok(
    first.applied.length >= 10 && first.applied[0] === '0001-initial',
    `says what it applied (${first.applied.length})`,
  );
  t.same(await json(['migrate']), { dialect: 'sqlite', applied: [] }, 'and, again, that nothing was left');
  const said = await cli(['migrate'], env);
  t.equal(said.stdout, 'schema up to date (sqlite): nothing to apply\n');
  const acc = await json([
    'admin',
    'account',
    'create',
    '--name',
    'Acme',
    '--plan',
    'basic',
    '--period',
    '7',
  ]);
  t.match(acc, { id: /^acc_/, name: 'Acme', plan: 'basic', periodDays: 7 });

  const key = await json(['admin', 'key', 'create', '--account', acc.id, '--mode', 'test', '--name', 'ci']);
  t.match(key, { id: /^key_/, mode: 'test', name: 'ci', key: /^hw_test_/ });
  t.ok(parseApiKey(key.key).ok, 'a well-formed key');

  const shown = await json(['admin', 'account', 'show', acc.id]);
  t.equal(shown.account.id, acc.id);
  t.equal(shown.keys.length, 1);
  t.notOk(JSON.stringify(shown).includes(key.key.slice(16)), 'the key is never shown again');
  t.equal(shown.balances.live.subscription.sheetsPerPeriod, 75);
  t.equal(shown.balances.test.extraSheets, 0);

  const top = await json(['admin', 'topup', '--account', acc.id, '--sheets', '200', '--mode', 'test']);
  t.equal(top.balance.extraSheets, 200);
  t.equal(top.balance.mode, 'test');
  const plan = await json([
    'admin',
    'plan',
    'set',
    '--account',
    acc.id,
    '--plan',
    'premium',
    '--period',
    '30',
  ]);
  t.match(plan, { plan: 'premium', periodDays: 30 });

  for (const name of ['letter', 'notes', 'document']) {
    const tpl = await json([
      'admin',
      'template',
      'import',
      '--account',
      acc.id,
      '--file',
      `src/app/demo/${name}.template.json`,
    ]);
    t.match(tpl, { id: /^tpl_/, revision: 1, mode: 'live' }, `${name} imported`);
  }

  const font = await json([
    'admin',
    'font',
    'add',
    '--file',
    FONT_FILE,
    '--name',
    'Kalam Light',
    '--account',
    acc.id,
    '--premium',
  ]);
  t.match(font, {
    id: /^font_/,
    family: 'Kalam',
    premium: true,
    accountId: acc.id,
    scripts: ['Latin', 'Devanagari'],
  });
  const shared = await json(['admin', 'font', 'add', '--file', FONT_FILE, '--name', 'Kalam Light (shared)']);
  t.equal(shared.accountId, null);
  t.ok(existsSync(join(env.DATA_DIR, 'blobs', `fonts/${font.id}.ttf`)), 'the font file is stored');
  const fonts = await json(['admin', 'font', 'list', '--account', acc.id]);
  t.ok(
    fonts.data.some((f: { id: string }) => f.id === font.id),
    'personal font listed for its account',
  );
  t.notOk(JSON.stringify(fonts).includes('location'), 'no file locations listed');

  const revoked = await json(['admin', 'key', 'revoke', key.id]);
  t.match(revoked, { id: key.id, revokedAt: /^\d{4}-/ });

  const human = await cli(['admin', 'key', 'create', '--account', acc.id], env);
  t.equal(human.code, 0);
  t.match(
    human.stdout,
    /^hw_live_[0-9A-Za-z]{38}\nkey key_\S+ \(live\) created: the key above is shown this once/,
  );
});

t.test('--version; account and job lists; a job cancelled from the command line', async (t) => {
  const version = await cli(['--version'], env);
  t.match(version.stdout, /^scriptorium \d+\.\d+\.\d+\n$/);
  const fresh = { DATA_DIR: join(dir, 'lists') };
  const run = cliJson(fresh);
  // Room for several unfinished jobs: the one to cancel waits behind the others.
  const serve = await startServe({ ...fresh, RATE_LIMIT_PER_MINUTE: '100000', MAX_UNFINISHED_JOBS: '8' });
  t.teardown(() => serve.stop('SIGKILL'));
  const account = /account\s+(acc_\S+)/.exec(serve.stdout())![1]!;
  const key = /API key\s+(hw_test_\S+)/.exec(serve.stdout())![1]!;
  const template = /template\s+(tpl_\S+)\s+simple/.exec(serve.stdout())![1]!;
  const accounts = await run(['admin', 'account', 'list']);
  t.match(accounts.data, [
    { account: { id: account, plan: 'pro' }, balances: { test: { availableSheets: Number } } },
  ]);
  const human = await cli(['admin', 'account', 'list'], fresh);
  t.match(human.stdout, new RegExp(`^${account}  pro .* test \\d+ sheets  Demo`));
  // Long jobs of one account: the last waits behind the others (one job of an account runs at a
  // time). On a fast machine all may be drawn before the command starts: then a new set.
  const post = async () => {
    const r = await fetch(`http://127.0.0.1:${serve.port}/api/v1/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ templateId: template, text: 'A long letter, to be cancelled. '.repeat(3125) }),
    });
    return ((await r.json()) as { id: string }).id;
  };
  let job = '';
  let cancel: Awaited<ReturnType<typeof cli>> | undefined;
  for (let pair = 1; pair <= 5 && !cancel; pair++) {
    const ahead = [await post(), await post(), await post()];
    job = await post();
    const tried = await cli(['admin', 'job', 'cancel', job, '--json'], fresh);
    if (tried.code === 0) cancel = tried;
    else {
      t.match(
        tried.stderr,
        /is completed and can no longer be cancelled/,
        `pair ${pair}: drawn before the command`,
      );
      for (const id of ahead) await run(['admin', 'job', 'cancel', id]).catch(() => {});
    }
  }
  const cancelled = JSON.parse(cancel!.stdout.trim());
  t.match(cancelled, { id: job, status: 'cancelled' });
  const listed = await run(['admin', 'job', 'list', '--account', account, '--kind', 'pdf']);
  t.equal(listed.data[0].id, job, 'the job, listed newest first');
  const list = await cli(['admin', 'job', 'list', '--status', 'cancelled'], fresh);
  t.match(list.stdout, new RegExp(`^${job}  cancelled +pdf +${account}  test  `));
  const again = await cli(['admin', 'job', 'cancel', job], fresh);
  t.match(again.stdout, /is cancelled/, 'cancelling again says the same');
  t.equal(await serve.stop('SIGTERM'), 0);
});

t.test('farm admin commands say nothing of S3 unless asked; no secret is echoed in an error', async (t) => {
  const s3 = await startS3(t);
  const farm = {
    DATA_DIR: join(dir, 's3'),
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY: s3.accessKey,
    S3_SECRET_KEY: s3.secretKey,
    S3_BUCKET: 'quiet',
  };
  const quiet = await cli(['admin', 'account', 'create', '--name', 'Quiet', '--json'], farm);
  t.equal(quiet.code, 0, quiet.stderr);
  t.equal(quiet.stderr, '', 'nothing on stderr');
  const told = await cli(['--verbose', 'admin', 'account', 'create', '--name', 'Told'], farm);
  t.match(told.stderr, /S3 lifecycle rule not set/, '--verbose prints the note');
  const secrets = {
    ADMIN_TOKEN: 'a-real-token-mistyped',
    S3_SECRET_KEY: 'x',
    REDIS_URL: 'http://user:hunter2-password@redis.internal:6379',
  };
  const refused = await cli(['migrate'], { ...farm, ...secrets });
  t.not(refused.code, 0);
  t.match(
    refused.stderr,
    /ADMIN_TOKEN must be empty or at least 24 characters, got 21 characters \(not shown/,
  );
  t.match(refused.stderr, /REDIS_URL must use redis or rediss, got \d+ characters/);
  for (const secret of ['a-real-token-mistyped', 'hunter2-password'])
    t.notOk(refused.stderr.includes(secret), `${secret.slice(0, 6)}… is not echoed`);
});

t.test('the start command creates the demo once on an empty embedded store and serves it', async (t) => {
  const demoEnv = { DATA_DIR: join(dir, 'demo'), RATE_LIMIT_PER_MINUTE: '1000' };
  const first = await startServe(demoEnv);
  const out = first.stdout();
  const key = /API key\s+(hw_test_\S+)/.exec(out)?.[1];
  t.ok(key && parseApiKey(key).ok, 'prints a test key');
  t.match(out, /template\s+tpl_\S+\s+simple/);
  t.match(out, /template\s+tpl_\S+\s+structured/);
  t.match(out, /template\s+tpl_\S+\s+legacy/);
  t.match(
    out,
    new RegExp(
      `curl -s -X POST http://127\\.0\\.0\\.1:${first.port}/api/v1/generations[\\s\\S]*Bearer ${key}`,
    ),
    'a ready curl line',
  );
  const res = await fetch(`http://127.0.0.1:${first.port}/api/v1/templates`, {
    headers: { authorization: `Bearer ${key}` },
  });
  t.equal(res.status, 200, 'the demo key works against the running server');
  t.equal(((await res.json()) as { data: unknown[] }).data.length, 6, 'six test-mode templates');
  // Each example template renders its example input on the running server.
  const meadow = /image\s+(asset_\S+)\s+meadow\.png/.exec(out)?.[1];
  t.ok(meadow, 'the example image was uploaded');
  let charged = 0;
  for (const [, id, name] of out.matchAll(
    /template\s+(tpl_\S+)\s+\S+\s+.*\(input: src\/app\/demo\/(\w+)\.example\.json\)/g,
  )) {
    const { input } = readExample(name as ExampleName, { 'meadow.png': meadow! });
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`http://127.0.0.1:${first.port}/api/v1${path}`, {
        ...init,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      }).then((r) => r.json() as Promise<{ id: string; status: string; pages?: number; error?: unknown }>);
    const job = await api('/generations', {
      method: 'POST',
      body: JSON.stringify({ templateId: id, ...input }),
    });
    let state = job;
    for (let i = 0; i < 300 && (state.status === 'queued' || state.status === 'processing'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      state = await api(`/generations/${job.id}`);
    }
    t.equal(
      state.status,
      'completed',
      `the ${name} example renders (${JSON.stringify(state.error ?? state.pages)})`,
    );
    charged += (state as { creditsSpent?: number }).creditsSpent ?? 0;
  }
  t.equal(await first.stop('SIGINT'), 0, 'SIGINT stops it with exit code 0');

  const store = await Store.open(
    { dialect: 'sqlite', file: join(demoEnv.DATA_DIR, 'scriptorium.db') },
    DEFAULT_PLANS,
  );
  const found = await store.accounts.findKey(key!);
  t.equal(found?.mode, 'test');
  const tenant = { accountId: found!.accountId, mode: 'test' as const };
  t.equal(
    (await store.billing.report(tenant, new Date())).extraSheets,
    1000 - charged,
    'a test balance of 1,000 sheets, less the examples',
  );
  t.ok(
    (await store.billing.usageBetween(tenant, '2000-01-01', '2999-01-01')).requests > 1,
    'the requests were counted before exit',
  );
  await store.close();

  const second = await startServe(demoEnv);
  t.notMatch(second.stdout(), /API key/, 'no second demo');
  t.equal(await second.stop(), 0);

  const skipped = await startServe({ DATA_DIR: join(dir, 'nodemo') }, ['--no-demo']);
  t.notMatch(skipped.stdout(), /API key/, '--no-demo skips the demo');
  t.equal(await skipped.stop(), 0);
  const s2 = await Store.open(
    { dialect: 'sqlite', file: join(dir, 'nodemo', 'scriptorium.db') },
    DEFAULT_PLANS,
  );
  t.equal(await s2.accounts.count(), 0);
  await s2.close();
});

t.test('SIGTERM: stops accepting, finishes the request in flight, flushes counters, exits 0', async (t) => {
  const env = { DATA_DIR: join(dir, 'graceful') };
  const serve = await startServe(env);
  const key = /API key\s+(hw_test_\S+)/.exec(serve.stdout())![1]!;
  for (let i = 0; i < 7; i++)
    await fetch(`http://127.0.0.1:${serve.port}/api/v1/templates`, {
      headers: { authorization: `Bearer ${key}` },
    });
  const image = png(300, 200);
  const { connect } = await import('node:net');
  const socket = connect(serve.port, '127.0.0.1');
  await new Promise((r) => socket.on('connect', r));
  let answer = '';
  socket.on('data', (d) => {
    answer += d;
  });
  socket.write(
    `POST /api/v1/assets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: image/png\r\nContent-Length: ${image.length}\r\n\r\n`,
  );
  socket.write(image.subarray(0, 100));
  await new Promise((r) => setTimeout(r, 200));
  const exit = serve.stop('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  const refused = await new Promise<string>((resolve) => {
    const probe = connect(serve.port, '127.0.0.1');
    probe.on('connect', () => {
      probe.destroy();
      resolve('connected');
    });
    probe.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });
  t.equal(refused, 'ECONNREFUSED', 'new connections are refused while it drains');
  socket.write(image.subarray(100));
  t.equal(await exit, 0, 'exit code 0');
  t.match(answer, /^HTTP\/1.1 201 /, 'the upload in flight was finished');
  t.match(answer, /connection: close/i, 'and its connection closed');
  socket.destroy();
  const store = await Store.open(
    { dialect: 'sqlite', file: join(env.DATA_DIR, 'scriptorium.db') },
    DEFAULT_PLANS,
  );
  const found = (await store.accounts.findKey(key))!;
  const used = await store.billing.usageBetween(
    { accountId: found.accountId, mode: 'test' },
    '2000-01-01',
    '2999-01-01',
  );
  t.equal(used.requests, 8, 'every request counted, none lost at shutdown');
  t.equal(
    (await store.assets.usage(found.accountId)).count,
    EXAMPLE_IMAGES.length + 1,
    "the upload was stored (beside the demo's example image)",
  );
  await store.close();
});

t.test('serve refuses to start on the fallback HTTP implementation', async (t) => {
  const r = await runCommand(['serve', '--no-demo'], {
    DATA_DIR: join(dir, 'fallback'),
    UWS_USE_FALLBACK: '1',
    PORT: '0',
  });
  t.not(r.code, 0);
  t.match(r.stderr, /did not load its native binary/);
});

t.test('farm mode skips the demo', { skip: await unavailable('postgres') }, async (t) => {
  const pgStore = await postgresFactory();
  t.teardown(() => pgStore.cleanup());
  const url = pgStore.target.dialect === 'postgres' ? pgStore.target.url : '';
  const serve = await startServe({ DATA_DIR: join(dir, 'farm'), DATABASE_URL: url });
  t.notMatch(serve.stdout(), /API key/);
  t.match(serve.stdout(), /farm mode/);
  t.equal(await serve.stop(), 0);
  const store = await pgStore.open();
  t.equal(await store.accounts.count(), 0, 'no account created in the farm store');
});
