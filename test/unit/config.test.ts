import { readFileSync } from 'node:fs';
import t from 'tap';
import {
  ConfigError,
  databaseTarget,
  descriptors,
  framingCheckOn,
  isFarm,
  loadConfig,
} from '../../src/config/index.ts';
import { withConfigTable } from '../../scripts/config-table.ts';

t.test('defaults are the limits of the spec', async (t) => {
  const c = loadConfig({});
  t.match(c, {
    port: 8080,
    dataDir: './data',
    rateLimitPerMinute: 10,
    bodyLimitBytes: 512 * 1024,
    maxUnfinishedJobs: 2,
    queueMax: 32,
    poolThreads: 2,
    textMaxChars: 100_000,
    textMaxCharsFree: 4_000,
    maxPages: 200,
    pdfMaxBytes: 55_000_000,
    renderTimeoutMs: 60_000,
    retentionDays: 7,
    templatesMax: 100,
    keysMax: 10,
    previewsPerMinute: 3,
    previewPages: 4,
    renderTextMax: 3_000,
    renderLinesMax: 20,
    renderMaxSide: 2048,
    renderMaxPixels: 4_000_000,
    renderOutputMaxBytes: 8_000_000,
    renderSyncTimeoutMs: 15_000,
    rendersPerMinute: 5,
    rendersPerDay: 100,
    usageMaxDays: 366,
    assetMaxBytes: 5 * 1024 * 1024,
    assetMaxSide: 4096,
    assetMaxPixels: 8_000_000,
    assetsMaxCount: 200,
    assetsMaxTotalBytes: 100 * 1024 * 1024,
    renderMode: 'subscription',
  });
  t.equal(c.redisUrl, undefined);
  t.same(databaseTarget(c), { dialect: 'sqlite', file: './data/scriptorium.db' });
  t.equal(isFarm(c), false);
});

t.test('the environment overrides defaults', async (t) => {
  const c = loadConfig({
    PORT: '9090',
    RATE_LIMIT_PER_MINUTE: '100000',
    DATABASE_URL: 'postgres://u@h/db',
    RENDER_MODE: 'credits',
  });
  t.equal(c.port, 9090);
  t.equal(c.rateLimitPerMinute, 100_000);
  t.equal(c.renderMode, 'credits');
  t.same(databaseTarget(c), { dialect: 'postgres', url: 'postgres://u@h/db' });
  t.equal(isFarm(c), true);
  t.same(databaseTarget(loadConfig({ DATABASE_URL: '/var/lib/x.db' })), {
    dialect: 'sqlite',
    file: '/var/lib/x.db',
  });
  t.same(databaseTarget(loadConfig({ DATA_DIR: '/srv/data/' })), {
    dialect: 'sqlite',
    file: '/srv/data/scriptorium.db',
  });
});

t.test('every bad variable is reported at once', async (t) => {
  try {
    loadConfig({
      PORT: '80a',
      POOL_THREADS: '0',
      RENDER_MODE: 'sometimes',
      REDIS_URL: 'http://x',
      ADMIN_TOKEN: 'short',
      PLAN_CATALOG: '{"pro":{"pagesPerDay":0}}',
      DEMO: 'maybe',
      RENDER_YOUNG_MB: '4',
    });
    t.fail('should throw');
  } catch (err) {
    t.type(err, ConfigError);
    const problems = (err as ConfigError).problems;
    t.same(
      problems,
      [
        'ADMIN_TOKEN must be empty or at least 24 characters, got 5 characters (not shown: it is a secret)',
        'RENDER_MODE must be one of subscription, credits, disabled, got "sometimes"',
        'DEMO must be true or false, got "maybe"',
        'PORT must be a whole number, got "80a"',
        'POOL_THREADS must be 1-64, got 0',
        'REDIS_URL must use redis or rediss, got 8 characters (not shown: it is a secret)',
        'PLAN_CATALOG pro.pagesPerDay must be a whole number 1-1000000 pages, got 0',
        'RENDER_YOUNG_MB must be 8-1024 MiB, got 4',
      ].sort((a, b) => order(a) - order(b)),
    );
  }
});

function order(line: string): number {
  const env = line.split(' ')[0];
  return Object.values(descriptors).findIndex((d) => d.env === env);
}

t.test("a render worker's young generation: 8 MiB unless set", async (t) => {
  t.equal(loadConfig({}).renderYoungMb, 16);
  t.equal(loadConfig({ RENDER_YOUNG_MB: '192' }).renderYoungMb, 192);
});

t.test('free text limit may not exceed the subscription limit', async (t) => {
  t.throws(
    () => loadConfig({ TEXT_MAX_CHARS: '1000', TEXT_MAX_CHARS_FREE: '2000' }),
    /TEXT_MAX_CHARS_FREE must not exceed/,
  );
});

t.test("the README's table of variables is generated from the descriptors", async (t) => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  t.equal(readme, withConfigTable(readme), 'README is in sync: run npm run docs:config');
  for (const d of Object.values(descriptors))
    t.ok(readme.includes(`| \`${d.env}\` |`), `${d.env} documented`);
});

t.test(
  'the server listens on loopback by default; the framing check stands where others connect',
  async (t) => {
    const defaults = loadConfig({});
    t.equal(defaults.host, '127.0.0.1', 'HOST: loopback');
    t.equal(defaults.framingCheck, 'auto');
    t.equal(framingCheckOn(defaults), false, 'on loopback the transport serves alone');
    for (const host of ['127.0.0.1', '127.0.0.53', '::1', 'localhost'])
      t.equal(framingCheckOn(loadConfig({ HOST: host })), false, `${host}: off`);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.20', 'api.example.com'])
      t.equal(framingCheckOn(loadConfig({ HOST: host })), true, `${host}: on`);
    t.equal(framingCheckOn(loadConfig({ FRAMING_CHECK: 'true' })), true, 'asked for on loopback: on');
    t.equal(
      framingCheckOn(loadConfig({ HOST: '0.0.0.0', FRAMING_CHECK: 'false' })),
      false,
      'turned off: off',
    );
    t.throws(
      () => loadConfig({ FRAMING_CHECK: 'sometimes' }),
      /FRAMING_CHECK must be auto, true or false, got "sometimes"/,
    );
  },
);
