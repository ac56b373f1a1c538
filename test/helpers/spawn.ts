import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// The test runner's process-info preload (tap's @tapjs/processinfo) hooks child_process, through
// process-on-spawn, to put itself back into the NODE_OPTIONS of every process a test starts: about
// 0.25 s of CPU more for each `scriptorium` process, and a loader thread beside a server's. A test
// starts a process as a user would, so the hook's listeners are dropped in every test process that
// starts one (each does through this module).
const onSpawn = (globalThis as Record<symbol, { listeners?: unknown[] } | undefined>)[
  Symbol.for('process-on-spawn@*:singletonId')
];
if (onSpawn?.listeners) onSpawn.listeners.length = 0;

/**
 * The environment of a process a test starts: the test's own and `extra`, without the test
 * runner's preloads (tap puts them in NODE_OPTIONS), so the process starts as a user's would.
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _preloads, ...env } = process.env;
  return { ...env, ...extra };
}

/** Runs the `scriptorium` command (the built release) in a fresh Node process. */
export function runCommand(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return runNode(['bin/scriptorium.js', ...args], env);
}

/**
 * Runs a program of test/helpers (one of PROGRAMS in scripts/build-tests.mjs, built beside the
 * tests) in a fresh Node process; resolves with its stdout.
 */
export function runHelper(
  name: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return runNode(['--enable-source-maps', `test/helpers.built/${name}.js`, ...args], env);
}

function runNode(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd: ROOT, env: childEnv(env), maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

export interface ServeProcess {
  port: number;
  stdout: () => string;
  stderr: () => string;
  child: import('node:child_process').ChildProcess;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `scriptorium serve` (PORT=0 unless given) and resolves once it listens (port 0: a worker, ready). */
export async function startServe(env: Record<string, string>, args: string[] = []): Promise<ServeProcess> {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, ['bin/scriptorium.js', 'serve', ...args], {
    cwd: ROOT,
    env: childEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
      else if (/worker ready/.test(out)) resolve(0); // a worker role listens on nothing
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
  return {
    port,
    child,
    stdout: () => out,
    stderr: () => err,
    stop(signal = 'SIGTERM') {
      child.kill(signal);
      return exited;
    },
  };
}
