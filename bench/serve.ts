// What the live-server benchmarks share: the machine line of a table, the operator CLI, and a
// `scriptorium serve` child process started on an ephemeral port.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** "2 x <cpu model>, 24 GiB, Node 20.x": the machine line every table starts with. */
export function machine(): string {
  return `${cpus().length} x ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`;
}

/** Runs `scriptorium <argv> --json` with the given environment and parses its answer. */
export function cli(env: NodeJS.ProcessEnv, ...argv: string[]): Record<string, string> {
  const out = execFileSync(process.execPath, ['bin/scriptorium.js', ...argv, '--json'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

/**
 * One account on a plan with a key and a template imported from `templateFile`. Test keys do not
 * charge plan sheets (test balances start empty); jobs that charge need `mode: 'live'`.
 */
export function seedAccount(
  env: NodeJS.ProcessEnv,
  name: string,
  templateFile: string,
  { plan = 'pro', mode = 'test' }: { plan?: string; mode?: 'test' | 'live' } = {},
): { account: string; key: string; template: string } {
  const account = cli(env, 'admin', 'account', 'create', '--name', name, '--plan', plan);
  const key = cli(env, 'admin', 'key', 'create', '--account', account.id!, '--mode', mode);
  const tpl = cli(
    env,
    'admin',
    'template',
    'import',
    '--account',
    account.id!,
    '--mode',
    mode,
    '--file',
    templateFile,
  );
  return { account: account.id!, key: key.key!, template: tpl.id! };
}

/**
 * A dashboard user signed up on a live server and put on the Pro plan (personal fonts and hands
 * need it): its account, and the session's cookie and CSRF token as headers.
 */
export async function dashboardUser(
  env: NodeJS.ProcessEnv,
  port: number,
): Promise<{ base: string; account: string; headers: { cookie: string; 'x-csrf-token': string } }> {
  const base = `http://127.0.0.1:${port}/dashboard/v1`;
  const up = await fetch(`${base}/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench',
      accountName: 'Bench',
      email: 'bench@example.com',
      password: 'a bench passphrase',
    }),
  });
  const view = (await up.json()) as { csrfToken: string; accounts: { accountId: string }[] };
  const account = view.accounts[0]!.accountId;
  cli(env, 'admin', 'plan', 'set', '--account', account, '--plan', 'pro');
  return {
    base,
    account,
    headers: { cookie: up.headers.get('set-cookie')!.split(';')[0]!, 'x-csrf-token': view.csrfToken },
  };
}

export interface Served {
  readonly port: number;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `scriptorium serve --no-demo` (PORT=0) and resolves once it listens (a worker role: once ready, port 0). */
export function serve(
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
  serveArgs: string[] = [],
  /** `ignore`: the server's logs are dropped (a run that logs every request). */
  stderr: 'inherit' | 'ignore' = 'inherit',
): Promise<Served> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, 'bin/scriptorium.js', 'serve', '--no-demo', ...serveArgs],
    {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', stderr],
    },
  );
  // A benchmark that fails must not leave its server running.
  const orphan = () => child.kill('SIGKILL');
  process.once('exit', orphan);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m =
        /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out) ?? (/worker ready/.test(out) ? ['', '0'] : null);
      if (m) {
        const stop = async () => {
          if (child.exitCode !== null) return;
          child.kill('SIGTERM');
          await new Promise((r) => child.once('exit', r));
          process.off('exit', orphan);
        };
        resolve({ port: Number(m[1]), child, stop });
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

export interface FarmServices {
  /** What every process of the farm takes. */
  env: NodeJS.ProcessEnv;
  /** Accounts with a key and a template imported from `templateFile`, written straight into the store. */
  seed(n: number, templateFile: string, mode?: 'test' | 'live'): Promise<{ key: string; template: string }[]>;
  /** Drops the database, the Redis keys and the bucket. */
  close(): Promise<void>;
}

/**
 * A farm's services on this machine for a benchmark: a PostgreSQL database, a Redis prefix and an
 * s3rver bucket of its own. s3rver runs in this process, so accounts are written in process rather
 * than through the CLI (a blocking child would leave it unable to answer).
 */
export async function farmServices(dir: string, extra: NodeJS.ProcessEnv = {}): Promise<FarmServices> {
  const [{ Redis }, { default: pg }, { default: S3rver }, admin, { openContext }, { loadConfig }] =
    await Promise.all([
      import('ioredis'),
      import('pg'),
      import('s3rver'),
      import('../src/app/admin.ts'),
      import('../src/composition.ts'),
      import('../src/config/index.ts'),
    ]);
  const pgAdmin = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const dbName = `scriptorium_bench_${process.pid}_${Date.now() % 100_000}`;
  const client = new pg.Client({ connectionString: pgAdmin });
  await client.connect();
  await client.query(`create database ${dbName}`);
  const dbUrl = new URL(pgAdmin);
  dbUrl.pathname = `/${dbName}`;
  const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: `${dir}/s3` });
  const { port: s3Port } = await s3.run();
  const prefix = `bench-farm-${process.pid}-${Date.now() % 100_000}:`;
  const env = {
    ...extra,
    DATA_DIR: `${dir}/farm`,
    PROBE_PORT: '0', // two workers on one machine: each takes a free port
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_ACCESS_KEY: 'S3RVER',
    S3_SECRET_KEY: 'S3RVER',
  };
  return {
    env,
    async seed(n, templateFile, mode = 'live') {
      const ctx = await openContext(loadConfig({ ...process.env, ...env }, { logLevel: 'silent' }));
      const users = [];
      const json = readFileSync(templateFile, 'utf8');
      for (let i = 0; i < n; i++) {
        const account = await admin.createAccount(ctx, { name: `bench ${i}`, plan: 'pro', period: 30 });
        const { key } = await admin.createKey(ctx, { account: account.id, mode });
        const tpl = await admin.importTemplate(ctx, { account: account.id, mode, json, source: 'bench' });
        users.push({ key, template: tpl.id });
      }
      await ctx.close();
      return users;
    },
    async close() {
      await s3.close();
      await client.query(`drop database if exists ${dbName} with (force)`);
      await client.end();
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    },
  };
}
