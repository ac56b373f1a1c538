// docs/operations.md's "A farm on one machine", followed as written: its command block is typed
// into an interactive bash in a tmux pane, with only its ports, database name, Redis prefix and
// file places moved to ones of the test's own, and its last line (the console) runs in the same
// terminal as the servers. Every process and the edge answer /ready, the letter comes back as a
// PDF through the edge, and the console, connected through the edge too, sees four processes. A
// worker killed with -9 and started again, and a program that puts the terminal back in line
// mode, leave the console taking keys.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
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
  t.match(console, /^scriptorium tui --url /, 'the last line opens the console');
  // Followed as a person does: in an interactive shell in a terminal (a tmux pane of 100 x 30),
  // the commands typed one after the other, so the servers are the shell's background jobs on
  // the terminal the console then takes. What the commands print goes to a file of the test's.
  const body = join(dir, 'quickstart.sh');
  const out = join(dir, 'out.txt');
  writeFileSync(body, `${lines.join('\n')}\n`);
  const tmux = (...args: string[]) => run('tmux', ['-L', socket, ...args]);
  const screen = async () =>
    (await tmux('capture-pane', '-p', '-t', 'qs').catch(() => ({ stdout: '' }))).stdout;
  const read = () => (existsSync(out) ? readFileSync(out, 'utf8') : '');
  const waitFor = async (what: () => Promise<boolean> | boolean, ms: number) => {
    for (const end = Date.now() + ms; Date.now() < end; await sleep(200)) if (await what()) return true;
    return what();
  };

  let restarted: ChildProcess | null = null;
  t.teardown(async () => {
    if (restarted?.pid)
      try {
        process.kill(-restarted.pid, 'SIGTERM');
      } catch {}
    // The shell's jobs (the servers) end with the pane's shell; any left are found by their files.
    await tmux('kill-server').catch(() => {});
    await sleep(1500);
    await run('pkill', ['-9', '-f', dir]).catch(() => {});
    await run('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--if-exists', db]).catch(() => {});
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    rmSync(dir, { recursive: true, force: true });
  });

  await new Promise<void>((resolve, reject) =>
    spawn(
      'tmux',
      [
        '-L',
        socket,
        'new-session',
        '-d',
        '-s',
        'qs',
        '-x',
        '100',
        '-y',
        '30',
        '-c',
        ROOT,
        'bash --norc --noprofile -i',
      ],
      {
        env: childEnv({ CI: '' }),
        stdio: 'ignore',
      },
    ).on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`tmux exited ${code}`)))),
  );
  await tmux(
    'send-keys',
    '-t',
    'qs',
    `set -e; source ${body} > ${out} 2>&1; set +e; echo QUICKSTART-DONE >> ${out}`,
    'Enter',
  );
  const finished = await waitFor(async () => /QUICKSTART-DONE/.test(read()) || !(await screen()), 240_000);
  const said = read();
  t.ok(finished && /QUICKSTART-DONE/.test(said), `the commands ran to their end\n${said.slice(-2000)}`);
  for (const p of ['8081', '8082', '9464', '9465', '8080'])
    t.match(said, new RegExp(`"status":"ready".* http://127\\.0\\.0\\.1:${ports[p]}`), `${p}: ready`);
  const pdf = join(dir, 'farm-letter.pdf');
  t.ok(
    existsSync(pdf) && readFileSync(pdf).subarray(0, 5).toString() === '%PDF-',
    'the letter came back as a PDF',
  );
  t.match(said, /farm-letter\.pdf: 1 page, 1\.5 sheets/, 'and the command said so');
  t.notMatch(said, /"level":/, 'no log line of the servers reaches the terminal');
  const logs = {
    api1: `api-${ports['8081']}`,
    api2: `api-${ports['8082']}`,
    worker1: `worker-${ports['9464']}`,
    worker2: `worker-${ports['9465']}`,
  };
  for (const [name, said] of [
    [logs.api1, /listening on .*role api/],
    [logs.api2, /listening on .*role api/],
    [logs.worker1, /worker ready/],
    [logs.worker2, /worker ready/],
  ] as const)
    t.match(readFileSync(join(dir, 'logs', `${name}.log`), 'utf8'), said, `${name}.log: its own log`);

  // The console, in the same terminal as the servers.
  await tmux('send-keys', '-t', 'qs', console, 'Enter');
  t.ok(
    await waitFor(async () => /4 instances/.test(await screen()), 30_000),
    `the console sees the four processes:\n${await screen()}`,
  );

  // A worker killed with -9: the console sees it go, and still takes keys.
  const pid = Number(/"pid":(\d+)/.exec(readFileSync(join(dir, 'logs', `${logs.worker1}.log`), 'utf8'))?.[1]);
  t.ok(pid > 0, `the worker's pid from its log (${pid})`);
  process.kill(pid, 'SIGKILL');
  t.ok(
    await waitFor(async () => /3 instances/.test(await screen()), 20_000),
    `the console sees three:\n${await screen()}`,
  );
  await tmux('send-keys', '-t', 'qs', '3');
  t.ok(
    await waitFor(async () => /Filter\s+all\s+queued/.test(await screen()), 5000),
    `after the kill, a key still moves the console (3: jobs):\n${await screen()}`,
  );
  // The worker started again, from elsewhere (another terminal) with the quickstart's own line.
  const again = [
    ...lines.filter((l) => l.startsWith('export ')),
    lines.find((l) => l.includes(`PROBE_PORT=${ports['9464']}`))!.replace(/&\s*$/, ''),
  ].join('\n');
  restarted = spawn('bash', ['-c', again], {
    cwd: ROOT,
    env: childEnv({ CI: '' }),
    stdio: 'ignore',
    detached: true,
  });
  restarted.unref();
  restarted.on('error', () => {});
  await tmux('send-keys', '-t', 'qs', '1');
  t.ok(
    await waitFor(async () => /4 instances/.test(await screen()), 60_000),
    `the restarted worker is back, the console on its dashboard (1):\n${await screen()}`,
  );
  // Any program that puts the terminal back in line mode (here stty, as a program restoring its
  // own saved settings does when it exits): within a second the console takes keys again.
  const tty = (await tmux('display', '-p', '-t', 'qs', '#{pane_tty}')).stdout.trim();
  // Set and read in one shell: the console may take the terminal back between two processes. It
  // may do so even inside stty, between its setting and its check of what it set (stty then says
  // it was "unable to perform all requested operations"): tried again until line mode is read.
  let cooked = '';
  for (let attempt = 0; attempt < 5 && !/(^|\s)icanon(\s|$)/.test(cooked); attempt++)
    cooked = (await run('bash', ['-c', `stty -F ${tty} sane 2>/dev/null; stty -F ${tty} -a`])).stdout;
  t.match(cooked, /(^|\s)icanon(\s|$)/, 'the terminal was put back in line mode');
  await sleep(1500);
  await tmux('send-keys', '-t', 'qs', '2');
  t.ok(
    await waitFor(async () => /Account\s+Plan\s+Plan used/.test(await screen()), 5000),
    `the console took its keyboard back (2: accounts):\n${await screen()}`,
  );
  t.match((await run('stty', ['-F', tty, '-a'])).stdout, /-icanon/, 'the terminal is in raw mode again');
  await tmux('send-keys', '-t', 'qs', 'q');
  const quit = async () =>
    !(await run('pgrep', ['-f', `tui --url http://127.0.0.1:${ports['8080']}`]).catch(() => null));
  t.ok(await waitFor(quit, 10_000), 'q quits the console');
});
