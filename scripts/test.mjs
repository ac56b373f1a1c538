// The checks and the suite of `npm test`, once everything is built (docs/decisions.md, "Tooling"):
// the type check (`npm run typecheck`) and lint (`npm run lint`) run beside the suite rather than
// before it. The suite leaves a core idle part of its time (its files wait on servers, timers and
// child processes), and the type check, about 30 s of one core here, fills it. Their output is
// printed once the suite has ended; `npm test` fails if any of them failed.
//
// The suite's files are tap tests, run here rather than by tap's runner, each as the program a
// Node process starts (`node --enable-source-maps file`), `jobs` at once, with tap's `timeout` of
// package.json: tap's runner starts every file and every thread in it with a process-info preload
// for coverage (coverage is off here), a module loader on a thread of its own, 0.8 s of CPU more a
// file and as much again for each render thread a file starts. Each file's TAP is printed as a
// subtest when it ends, then `ok N - file` or `not ok N - file`. Files named: those alone, without
// the checks.
//   node scripts/test.mjs [--jobs N] [files…]
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const config = JSON.parse(readFileSync('package.json', 'utf8')).tap;

/** Runs `command`, its output kept (or passed through): its exit code and output. */
function run(command, args, { quiet }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let out = '';
    if (quiet) {
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
    }
    child.on('error', (err) => resolve({ code: 1, out: `${out}${err.message}\n` }));
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), out }));
  });
}

/** The test files: the tiers' built folders (`test/<tier>.built/`), e2e first (its files take longest). */
function suiteFiles() {
  const tiers = readdirSync('test').filter((d) => d.endsWith('.built'));
  const rank = (tier) => ['e2e.built', 'contract.built'].indexOf(tier) + 1 || 3;
  tiers.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
  return tiers.flatMap((tier) =>
    readdirSync(`test/${tier}`)
      .filter((f) => f.endsWith('.test.js'))
      .sort()
      .map((f) => `test/${tier}/${f}`),
  );
}

/** One test file in a process of its own: whether it passed, its TAP and its errors. */
function runFile(file, timeoutSeconds) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['--enable-source-maps', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // resvg's allocator as the service's processes set it before resvg loads (tuneImageAllocator
      // in src/config): its freed pages kept a second, not faulted in again for the next image. A
      // test file that draws on its own thread loads resvg before any setting of its own could.
      env: {
        ...process.env,
        TAP_TIMEOUT: String(timeoutSeconds),
        TEST_RUN_DIR: runDir,
        MIMALLOC_PURGE_DELAY: process.env.MIMALLOC_PURGE_DELAY ?? '1000',
      },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    // tap ends the file's tests at its timeout; a process that then does not exit is stopped.
    let late = false;
    const stop = setTimeout(
      () => {
        late = true;
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      },
      (timeoutSeconds + 30) * 1000,
    );
    child.on('close', (code, signal) => {
      clearTimeout(stop);
      const problem = late
        ? `still running ${timeoutSeconds + 30} s after it started: stopped`
        : code !== 0
          ? `exited with ${signal ?? `code ${code}`}`
          : '';
      resolve({ file, ok: !problem, problem, out, err, ms: Date.now() - started });
    });
  });
}

/** Runs `files`, `jobs` at once, printing each as it ends: whether all passed. */
async function suite(files, jobs) {
  const indent = (text) => text.replace(/^(?=.)/gm, '    ');
  let next = 0;
  let n = 0;
  let failed = 0;
  const began = Date.now();
  async function worker() {
    while (next < files.length) {
      const r = await runFile(files[next++], config.timeout);
      n++;
      if (!r.ok) failed++;
      let block = `# Subtest: ${r.file}\n${indent(r.out)}`;
      if (r.err) block += indent(`# stderr:\n${r.err.replace(/^/gm, '# ')}\n`);
      if (r.problem) block += `    # ${r.problem}\n`;
      process.stdout.write(`${block}${r.ok ? 'ok' : 'not ok'} ${n} - ${r.file} # time=${r.ms}ms\n\n`);
    }
  }
  await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));
  process.stdout.write(
    `1..${n}\n# ${n - failed} of ${n} files passed, ${failed} failed; ${((Date.now() - began) / 1000).toFixed(1)} s\n`,
  );
  return failed === 0;
}

const args = process.argv.slice(2);
const jobsAt = args.indexOf('--jobs');
const jobs = jobsAt >= 0 ? Number(args.splice(jobsAt, 2)[1]) : config.jobs;
// Files named: those alone, without the checks.
const files = args.length ? args : suiteFiles();
// A directory the run's files share, for fixtures that are costly to make and the same in every
// file (the photographed sample sheets: test/helpers/sheet-photo.ts); removed at the end.
const runDir = mkdtempSync(join(tmpdir(), 'scriptorium-test-run-'));

const checks = Promise.all(
  args.length
    ? []
    : [
        run('npm', ['run', '--silent', 'typecheck'], { quiet: true }).then((r) => ({
          ...r,
          name: 'typecheck',
        })),
        run('npm', ['run', '--silent', 'lint'], { quiet: true }).then((r) => ({ ...r, name: 'lint' })),
      ],
);
let failed = !(await suite(files, jobs));
rmSync(runDir, { recursive: true, force: true });
for (const check of await checks) {
  process.stdout.write(`\n# ${check.name}: ${check.code === 0 ? 'passed' : 'FAILED'}\n${check.out}`);
  if (check.code !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
