// Malformed operator commands, run in-process through the command's own entry (src/cli/run.ts):
// each exits non-zero with one line on stderr and writes nothing (the store is compared before
// and after). test/e2e/cli.test.ts runs a refusal as a real process.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { captured } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run.ts';
import { DEFAULT_PLANS } from '../../src/domain/plans.ts';
import { Store } from '../../src/store/index.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const CAVEAT = 'font_76FIvrxbMWVVj6WyJCWgxI';
const FONT_FILE = join(ROOT, 'node_modules/@expo-google-fonts/kalam/300Light/Kalam_300Light.ttf');
const dir = mkdtempSync(join(tmpdir(), 'scriptorium-cli-refusals-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const env = { DATA_DIR: join(dir, 'data') };

/** The command line `args` under the variables `vars` (as the process's own, for this run only). */
async function cli(args: string[], vars: Record<string, string>) {
  const saved = { ...process.env };
  Object.assign(process.env, { DATABASE_URL: '' }, vars);
  process.exitCode = undefined;
  try {
    const written = await captured(() => runCli(['node', 'scriptorium', ...args]));
    return { code: Number(process.exitCode ?? 0), ...written };
  } finally {
    process.exitCode = undefined;
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

async function json(args: string[]) {
  const r = await cli([...args, '--json'], env);
  if (r.code !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

t.test('malformed commands exit non-zero with one line and write nothing', async (t) => {
  const acc = await json(['admin', 'account', 'create', '--name', 'Quiet']);
  const state = async () => {
    const store = await Store.open(
      { dialect: 'sqlite', file: join(env.DATA_DIR, 'scriptorium.db') },
      DEFAULT_PLANS,
    );
    try {
      const counts: Record<string, number> = {};
      for (const table of ['accounts', 'api_keys', 'templates', 'fonts', 'ledger', 'balances'] as const) {
        counts[table] = (await store.db.kysely.selectFrom(table).selectAll().execute()).length;
      }
      return {
        counts,
        balances: await store.db.kysely
          .selectFrom('balances')
          .selectAll()
          .orderBy('account_id')
          .orderBy('mode')
          .execute(),
      };
    } finally {
      await store.close();
    }
  };
  const before = await state();
  const notFont = join(dir, 'not-a-font.ttf');
  writeFileSync(notFont, 'hello, I am text');
  const badTemplate = join(dir, 'bad.json');
  writeFileSync(
    badTemplate,
    JSON.stringify({ version: 2, name: 'x', mode: 'simple', style: { fontId: CAVEAT, fontSize: 120 } }),
  );
  const brokenJson = join(dir, 'broken.json');
  writeFileSync(brokenJson, '{"version": 2,');
  const missingFont = join(dir, 'missing-font.json');
  writeFileSync(
    missingFont,
    JSON.stringify({
      version: 2,
      name: 'x',
      mode: 'simple',
      style: { fontId: 'font_0000000000000000000000' },
    }),
  );
  const otherAccount = 'acc_0000000000000000000000';

  const cases: [string[], RegExp][] = [
    [['admin', 'account', 'create'], /required option '--name <name>' not specified/],
    [['edge'], /the edge needs at least one API process: --api host:port/],
    [
      ['edge', '--api', '127.0.0.1'],
      /'--api <host:port\.\.\.>' argument '127\.0\.0\.1' is invalid\. must be host:port/,
    ],
    [['edge', '--api', '127.0.0.1:8081', '--check-ms', '0'], /must be 100-60000, got 0/],
    [
      ['admin', 'account', 'create', '--name', 'X', '--plan', 'gold'],
      /--plan <plan>' argument 'gold' is invalid/,
    ],
    [
      ['admin', 'account', 'create', '--name', 'X', '--plan', 'week', '--period', '30'],
      /period of plan week must be 7 days, got 30/,
    ],
    [
      ['admin', 'account', 'create', '--name', 'X', '--period', '9'],
      /--period <days>' argument '9' is invalid. must be 7 or 30 days/,
    ],
    [['admin', 'account', 'show'], /missing required argument 'account'/],
    [['admin', 'account', 'show', 'acme'], /must be an account id/],
    [['admin', 'account', 'show', otherAccount], /account "acc_0000000000000000000000" does not exist/],
    [['admin', 'key', 'create'], /required option '--account <account>' not specified/],
    [
      ['admin', 'key', 'create', '--account', acc.id, '--mode', 'staging'],
      /--mode <mode>' argument 'staging' is invalid/,
    ],
    [['admin', 'key', 'create', '--account', otherAccount], /does not exist/],
    [['admin', 'key', 'revoke'], /missing required argument 'key'/],
    [
      ['admin', 'key', 'revoke', 'key_0000000000000000000000'],
      /key "key_0000000000000000000000" does not exist/,
    ],
    [['admin', 'template', 'import', '--account', acc.id], /required option '--file <file>' not specified/],
    [
      ['admin', 'template', 'import', '--account', acc.id, '--file', join(dir, 'nope.json')],
      /must be a readable file/,
    ],
    [
      ['admin', 'template', 'import', '--account', acc.id, '--file', badTemplate],
      /style.fontSize must be 6-96 pt, got 120/,
    ],
    [['admin', 'template', 'import', '--account', acc.id, '--file', brokenJson], /is not valid JSON/],
    [
      [
        'admin',
        'template',
        'import',
        '--account',
        acc.id,
        '--file',
        badTemplate,
        '--url',
        'http://127.0.0.1:9',
      ],
      /importing over HTTP needs the admin token: --token TOKEN or ADMIN_TOKEN/,
    ],
    [
      [
        'admin',
        'template',
        'import',
        '--account',
        acc.id,
        '--file',
        badTemplate,
        '--url',
        'ftp://x',
        '--token',
        't',
      ],
      /--url must be an http:\/\/ or https:\/\/ address, got "ftp:\/\/x"/,
    ],
    [
      [
        'admin',
        'template',
        'import',
        '--account',
        acc.id,
        '--file',
        brokenJson,
        '--url',
        'http://127.0.0.1:9',
        '--token',
        't',
      ],
      /broken.json is not valid JSON/,
    ],
    [['tui'], /the console needs the admin token: --token TOKEN or ADMIN_TOKEN/],
    [
      ['tui', '--token', 't', '--url', 'localhost'],
      /--url must be an http:\/\/ or https:\/\/ address, got "localhost"/,
    ],
    [
      ['admin', 'template', 'import', '--account', acc.id, '--file', missingFont],
      /font font_0000000000000000000000 does not exist/,
    ],
    [
      ['admin', 'font', 'add', '--file', notFont, '--name', 'X'],
      /not-a-font.ttf is not a usable font: no TrueType or OpenType signature/,
    ],
    [['admin', 'font', 'add', '--file', FONT_FILE], /required option '--name <name>' not specified/],
    [
      ['admin', 'font', 'add', '--file', FONT_FILE, '--name', 'X', '--account', otherAccount],
      /does not exist/,
    ],
    [
      ['admin', 'topup', '--account', acc.id, '--sheets', '49'],
      /sheets must be a whole number 50-1000, got 49/,
    ],
    [
      ['admin', 'topup', '--account', acc.id, '--sheets', '1001'],
      /sheets must be a whole number 50-1000, got 1001/,
    ],
    [['admin', 'topup', '--account', acc.id, '--sheets', 'ten'], /--sheets <n>' argument 'ten' is invalid/],
    [['admin', 'topup', '--account', acc.id], /required option '--sheets <n>' not specified/],
    [['admin', 'plan', 'set', '--account', acc.id], /required option '--plan <plan>' not specified/],
    [
      ['admin', 'plan', 'set', '--account', acc.id, '--plan', 'none', '--period', '7'],
      /period must be omitted for plan none, got 7/,
    ],
    [['admin', 'frobnicate'], /unknown command 'frobnicate'/],
    [['admin', 'account', 'create', '--name', 'X', '--colour', 'red'], /unknown option '--colour'/],
  ];
  for (const [args, message] of cases) {
    const r = await cli(args, env);
    const label = args.join(' ');
    t.not(r.code, 0, `${label}: exits non-zero`);
    t.match(r.stderr, message, `${label}: says why`);
    t.equal(r.stderr.trimEnd().split('\n').length, 1, `${label}: one line (${r.stderr.trim()})`);
    t.equal(r.stdout, '', `${label}: prints nothing on stdout`);
  }
  t.same(await state(), before, 'nothing was written');

  const fresh = join(dir, 'never');
  const r = await cli(['admin', 'topup', '--account', 'nope', '--sheets', '50'], { DATA_DIR: fresh });
  t.not(r.code, 0);
  t.notOk(existsSync(fresh), 'a malformed command does not even create the data directory');
  const badEnv = await cli(['migrate'], { DATA_DIR: fresh, PORT: 'x', POOL_THREADS: '0' });
  t.not(badEnv.code, 0);
  t.match(
    badEnv.stderr,
    /PORT must be a whole number, got "x"\n.*POOL_THREADS must be 1-64, got 0/s,
    'every bad variable reported',
  );
});

t.test('at most 10 active keys per account', async (t) => {
  const acc = await json(['admin', 'account', 'create', '--name', 'Keys']);
  for (let i = 0; i < 10; i++) await json(['admin', 'key', 'create', '--account', acc.id]);
  const r = await cli(['admin', 'key', 'create', '--account', acc.id], env);
  t.not(r.code, 0);
  t.match(r.stderr, /has 10 active API keys, the most allowed is 10/);
  t.equal((await json(['admin', 'account', 'show', acc.id])).keys.length, 10);
});
