// Running the `scriptorium` command as a real process, for the CLI tests.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { childEnv, ROOT } from './spawn.ts';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, 'bin/scriptorium.js'), ...args],
      { cwd: ROOT, env: childEnv({ DATABASE_URL: '', ...env }) },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Runs a command with --json and parses its one line; a failure throws with its stderr. */
export function cliJson(env: Record<string, string>) {
  return async (args: string[]) => {
    const r = await cli([...args, '--json'], env);
    if (r.code !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
    const lines = r.stdout.trim().split('\n');
    if (lines.length !== 1) throw new Error(`--json printed ${lines.length} lines`);
    // biome-ignore lint/suspicious/noExplicitAny: a test reads any shape of answer
    return JSON.parse(lines[0]!) as any;
  };
}
