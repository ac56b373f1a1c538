// What the live-server benchmarks share: the machine line of a table, the operator CLI, and a
// `scriptorium serve` child process started on an ephemeral port.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
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
