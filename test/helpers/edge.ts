// The farm's edge in a test: the configuration `scriptorium edge` prints, run by Debian's HAProxy
// in the foreground on a free port, stopped with the test.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { freePort } from './redis.ts';
import { childEnv, ROOT } from './spawn.ts';

export const haproxyAvailable = (() => {
  try {
    execFileSync('haproxy', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

export interface Edge {
  port: number;
  config: string;
  child: ChildProcess;
  /** What HAProxy wrote (its log of what went wrong). */
  log(): string;
}

/** An edge on a free port in front of the API processes on `ports`, answering once one is ready. */
export async function startEdge(t: Test, ports: number[], checkMs = 500): Promise<Edge> {
  const port = await freePort();
  const config = execFileSync(
    process.execPath,
    [
      'bin/scriptorium.js',
      'edge',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--check-ms',
      String(checkMs),
      ...ports.flatMap((p) => ['--api', `127.0.0.1:${p}`]),
    ],
    { cwd: ROOT, encoding: 'utf8', env: childEnv() },
  );
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-edge-'));
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout!.on('data', (d) => {
    log += d;
  });
  child.stderr!.on('data', (d) => {
    log += d;
  });
  t.teardown(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(dir, { recursive: true, force: true });
  });
  for (let i = 0; ; i++) {
    const ready = await fetch(`http://127.0.0.1:${port}/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    if (child.exitCode !== null || i > 100) throw new Error(`the edge did not start: ${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { port, config, child, log: () => log };
}

/** Requests of one route (and status, if given) a process has answered, from its own figures. */
export async function answeredBy(port: number, adminToken: string, route: string, status?: number) {
  const figures = await (
    await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${adminToken}` } })
  ).text();
  let n = 0;
  for (const line of figures.split('\n')) {
    if (!line.startsWith('scriptorium_http_requests_total{') || !line.includes(`route="${route}"`)) continue;
    if (status !== undefined && !line.includes(`status="${status}"`)) continue;
    n += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return n;
}
