// docs/operations.md's "A farm on one machine", followed as written: its command block runs in
// bash, with only its ports, database name, Redis prefix and file places moved to ones of the
// test's own; its last line (the console) runs in a tmux pane. Every process and the edge answer
// /ready, the letter comes back as a PDF through the edge, and the console, connected through the
// edge too, sees four processes.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import t from 'tap';
import { haproxyAvailable } from '../helpers/edge.ts';
import { freePort } from '../helpers/redis.ts';
import { REDIS_URL, unavailable } from '../helpers/services.ts';
import { childEnv, ROOT } from '../helpers/spawn.ts';

const run = promisify(execFile);
const away = (await unavailable('postgres')) || (await unavailable('redis'));
const hasTmux = await run('tmux', ['-V']).then(
  () => true,
  () => false,
);
const missing = away || (hasTmux ? '' : 'no tmux') || (haproxyAvailable ? '' : 'no haproxy');
if (missing) {
  if (process.env.CI)
    throw new Error(`the farm quickstart needs PostgreSQL, Redis, tmux and HAProxy: ${missing}`);
  t.comment(`farm quickstart: skipped, ${missing}`);
  process.exit(0);
}

const doc = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
const block = /<!-- farm-quickstart:start -->\n```sh\n([\s\S]*?)```\n<!-- farm-quickstart:end -->/.exec(
  doc,
)?.[1];

t.test('the farm quickstart of docs/operations.md, followed as written', async (t) => {
  t.ok(block, 'the block is in the document');
  if (!block) return;
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-quickstart-'));
  const db = `scriptorium_qs_${process.pid}`;
  const prefix = `qs-${process.pid}:`;
  const socket = `scriptorium-qs-${process.pid}`;
  const ports: Record<string, number> = {};
  for (const p of ['8080', '8081', '8082', '9464', '9465', '4569']) ports[p] = await freePort();
  let script = block
    .replaceAll('scriptorium_farm', db)
    .replaceAll('REDIS_PREFIX=farm:', `REDIS_PREFIX=${prefix}`)
    .replaceAll('./data/farm-s3', join(dir, 's3'))
    .replaceAll('./data/farm-logs', join(dir, 'logs'))
    .replaceAll('./data/farm-edge.cfg', join(dir, 'edge.cfg'))
    .replaceAll('farm-letter.', join(dir, 'farm-letter.'));
  // Through placeholders, so that a new port holding an old one's digits is never rewritten.
  for (const [i, from] of Object.keys(ports).entries()) script = script.replaceAll(from, `@@port${i}@@`);
  for (const [i, to] of Object.values(ports).entries())
    script = script.replaceAll(`@@port${i}@@`, String(to));
  const lines = script.trimEnd().split('\n');
  const console = lines.pop()!;
  t.match(console, /^npx scriptorium tui --url /, 'the last line opens the console');
  // The console needs a terminal: a tmux pane of 100 x 30, started from the same shell.
  lines.push(`tmux -L ${socket} new-session -d -s tui -x 100 -y 30 '${console}'`);

  let shell: ChildProcess | null = null;
  t.teardown(async () => {
    await run('tmux', ['-L', socket, 'kill-server']).catch(() => {});
    if (shell?.pid) {
      try {
        process.kill(-shell.pid, 'SIGTERM');
      } catch {}
      await new Promise((r) => setTimeout(r, 1500));
      try {
        process.kill(-shell.pid, 'SIGKILL');
      } catch {}
    }
    await run('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--if-exists', db]).catch(() => {});
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    rmSync(dir, { recursive: true, force: true });
  });

  let out = '';
  const code = await new Promise<number | null>((resolve) => {
    shell = spawn('bash', ['-e', '-c', lines.join('\n')], {
      cwd: ROOT,
      detached: true, // its own process group: the background servers are stopped with it
      env: childEnv({ CI: '' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    shell.stdout!.on('data', (d) => {
      out += d;
    });
    shell.stderr!.on('data', (d) => {
      out += d;
    });
    shell.on('exit', resolve);
  });
  t.equal(code, 0, `the commands ran to their end\n${out.slice(-2000)}`);
  for (const p of ['8081', '8082', '9464', '9465', '8080'])
    t.match(out, new RegExp(`"status":"ready".* http://127\\.0\\.0\\.1:${ports[p]}`), `${p}: ready`);
  const pdf = join(dir, 'farm-letter.pdf');
  t.ok(
    existsSync(pdf) && readFileSync(pdf).subarray(0, 5).toString() === '%PDF-',
    'the letter came back as a PDF',
  );
  t.match(out, /farm-letter\.pdf: 1 page, 1\.5 sheets/, 'and the command said so');
  t.notMatch(out, /"level":/, 'no log line of the servers reaches the terminal');
  for (const [name, said] of [
    [`api-${ports['8081']}`, /listening on .*role api/],
    [`api-${ports['8082']}`, /listening on .*role api/],
    [`worker-${ports['9464']}`, /worker ready/],
    [`worker-${ports['9465']}`, /worker ready/],
  ] as const)
    t.match(readFileSync(join(dir, 'logs', `${name}.log`), 'utf8'), said, `${name}.log: its own log`);

  let screen = '';
  for (let i = 0; i < 100 && !/4 instances/.test(screen); i++) {
    await new Promise((r) => setTimeout(r, 200));
    screen = (
      await run('tmux', ['-L', socket, 'capture-pane', '-p', '-t', 'tui']).catch(() => ({ stdout: '' }))
    ).stdout;
  }
  t.match(screen, /4 instances/, `the console sees the four processes:\n${screen}`);
});
