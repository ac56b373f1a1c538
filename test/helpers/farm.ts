// A farm's services for a test of real processes: a PostgreSQL database, a Redis key prefix and an
// S3 bucket of the test's own, the environment every process of it takes, and the store opened on
// them (to write accounts and keys straight in). All of it is removed when the test ends.
import { Redis } from 'ioredis';
import type { Test } from 'tap';
import { createAccount, createKey, importTemplate, topUp } from '../../src/app/admin.ts';
import { type Context, openContext } from '../../src/composition.ts';
import { loadConfig } from '../../src/config/index.ts';
import { startS3 } from './s3.ts';
import { type ServeProcess, startServe } from './spawn.ts';
import { REDIS_URL } from './services.ts';
import { postgresFactory } from './stores.ts';

export async function farmServices(
  t: Test,
  name: string,
  settings: Record<string, string>,
): Promise<{ env: Record<string, string>; ctx: Context }> {
  const pg = await postgresFactory();
  t.teardown(() => pg.cleanup());
  const s3 = await startS3(t);
  const prefix = `test-${name}-${process.pid}:`;
  const env: Record<string, string> = {
    DATABASE_URL: pg.target.dialect === 'postgres' ? pg.target.url : '',
    REDIS_URL,
    REDIS_PREFIX: prefix,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY: s3.accessKey,
    S3_SECRET_KEY: s3.secretKey,
    S3_BUCKET: name,
    ...settings,
  };
  const redis = new Redis(REDIS_URL);
  t.teardown(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });
  const ctx = await openContext(
    loadConfig({ ...process.env, ...env, DATA_DIR: '/nonexistent' }, { logLevel: 'silent' }),
  );
  t.teardown(() => ctx.close());
  return { env, ctx };
}

/** An account with a test key, 1,000 test sheets and an A5 letter template, written straight into the farm's store. */
export async function farmTenant(
  ctx: Context,
  name: string,
): Promise<{ id: string; key: string; template: string }> {
  const account = await createAccount(ctx, { name, plan: 'pro', period: 30 });
  const { key } = await createKey(ctx, { account: account.id, mode: 'test' });
  await topUp(ctx, { account: account.id, sheets: 1000, mode: 'test' });
  const json = JSON.stringify({
    version: 2,
    name: 'Farm letter',
    mode: 'simple',
    style: { fontId: 'font_76FIvrxbMWVVj6WyJCWgxI', pageSize: 'A5' },
  });
  const tpl = await importTemplate(ctx, { account: account.id, mode: 'test', json, source: 'farm' });
  return { id: account.id, key, template: tpl.id };
}

/** Starts `scriptorium serve` processes of a role on the farm's environment; every one left running is killed when the test ends. */
export function farmProcesses(t: Test, env: Record<string, string>) {
  const processes: ServeProcess[] = [];
  t.teardown(async () => {
    for (const p of processes) if (p.child.exitCode === null) await p.stop('SIGKILL');
  });
  const start = async (role: 'api' | 'worker') => {
    const p = await startServe(env, ['--role', role, '--no-demo']);
    processes.push(p);
    return p;
  };
  return { processes, start };
}
