// Start-up benchmark: what a process of the built release costs before it does any work. The
// CPU of `scriptorium --help` and of `admin account list` (user + system, the process's own, read
// by bash's `times`), the time `serve` takes to listen and its resident memory as it starts the
// render pool (its log line says it), and a fresh render thread's first one-page A5 letter with
// a seed of its own (the pool built here, its thread running the built code). Each is the median
// of --runs runs; every process starts without this process's loader (NODE_OPTIONS dropped).
//
//   node --import tsx bench/startup.ts [--runs 7] [--write]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { textSpec } from '../test/helpers/specs.ts';
import { PiscinaRenderer } from '../workers/piscina-renderer.ts';
import { prose } from './prose.ts';
import { record } from './record.ts';
import { machine } from './serve.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, write: { type: 'boolean', default: false } },
});
const runs = Number(args.runs);
const { NODE_OPTIONS: _loader, ...inherited } = process.env;
const dir = mkdtempSync(join(tmpdir(), 'scriptorium-startup-'));
const env = { ...inherited, DATA_DIR: join(dir, 'data'), DATABASE_URL: '', LOG_LEVEL: 'info' };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** CPU seconds (user + system) of one `scriptorium` command, its output thrown away. */
function commandCpu(argv: string[]): number {
  const quoted = argv.map((a) => `'${a}'`).join(' ');
  const out = execFileSync('bash', ['-c', `node bin/scriptorium.js ${quoted} > /dev/null; times`], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
  });
  // The second line of `times`: the children's user and system time, "0m0.250s 0m0.040s".
  const [user, sys] = [
    ...out
      .trim()
      .split('\n')[1]!
      .matchAll(/(\d+)m([\d.]+)s/g),
  ].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return user! + sys!;
}

/** `serve` from spawn to its listening line, and its RSS as it starts the pool (MiB). */
function serveOnce(): Promise<{ listenS: number; rssMiB: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['bin/scriptorium.js', 'serve', '--no-demo'], {
      cwd: ROOT,
      env: { ...env, PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    let listenS = 0;
    const seen = (d: Buffer) => {
      text += d;
      if (!listenS && /listening on/.test(text)) listenS = (performance.now() - t0) / 1000;
      const rss = /"rssMiB":(\d+),"msg":"starting the render pool"/.exec(text);
      if (listenS && rss) {
        child.kill('SIGTERM');
        resolve({ listenS, rssMiB: Number(rss[1]) });
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('exit', () => reject(new Error(`serve ended before it listened: ${text}`)));
  });
}

/** A fresh pool of one thread: seconds from its start to its first one-page letter. */
async function firstLetter(seed: number): Promise<number> {
  const t0 = performance.now();
  const pool = new PiscinaRenderer({ threads: 1, timeoutMs: 60_000, memoryMb: 512 });
  try {
    const r = await pool.run({
      output: 'pdf',
      spec: textSpec({ pageSize: 'A5', modifiers: { seed } }, prose(480, seed)),
      fonts: {},
      images: {},
      createdAt: '2026-11-29T00:00:00Z',
      limits: { maxPages: 200, maxBytes: 55_000_000 },
    });
    if (r.pages !== 1) throw new Error(`the letter took ${r.pages} pages`);
    return (performance.now() - t0) / 1000;
  } finally {
    await pool.close();
  }
}

try {
  // A store with a few accounts for the list; the first run also migrates it.
  for (const name of ['Ada', 'Grace', 'Edsger'])
    execFileSync(process.execPath, ['bin/scriptorium.js', 'admin', 'account', 'create', '--name', name], {
      cwd: ROOT,
      env,
    });
  const help: number[] = [];
  const list: number[] = [];
  const listen: number[] = [];
  const rss: number[] = [];
  const letter: number[] = [];
  for (let i = 0; i < runs; i++) {
    help.push(commandCpu(['--help']));
    list.push(commandCpu(['admin', 'account', 'list']));
    const s = await serveOnce();
    listen.push(s.listenS);
    rss.push(s.rssMiB);
    letter.push(await firstLetter(1000 + i));
  }
  const span = (xs: number[], digits: number) =>
    `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;
  const table = [
    `### Start-up, ${new Date().toISOString().slice(0, 10)} (bench/startup.ts)`,
    '',
    `${machine()}; the built release (dist/server), embedded mode; median of ${runs} runs (range in brackets).`,
    '',
    '| figure | value | target |',
    '|---|---:|---|',
    `| CPU of \`scriptorium --help\` | ${span(help, 2)} s | ≤ 0.3 s |`,
    `| CPU of \`scriptorium admin account list\` | ${span(list, 2)} s | ≤ 0.6 s |`,
    `| \`serve\` from start to listening | ${span(listen, 2)} s | ≤ 1.5 s |`,
    `| resident memory of \`serve\` as it starts its pool | ${span(rss, 0)} MiB | ≤ 60 MiB |`,
    `| a fresh render thread's first one-page A5 letter (own seed) | ${span(letter, 2)} s | ≤ 1 s |`,
    '',
  ].join('\n');
  console.log(table);
  if (args.write) record(ROOT, table);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
