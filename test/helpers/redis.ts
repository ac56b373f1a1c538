// A Redis of a test's own: a real redis-server on a free port, to freeze (SIGSTOP) or kill
// without touching the machine's shared one.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A port free on 127.0.0.1 now, for a server a test starts later (or stops and starts again on
 * it), below the range the kernel gives outgoing connections their own ports from
 * (/proc/sys/net/ipv4/ip_local_port_range): a port found by binding port 0 comes from that range,
 * and a connection to PostgreSQL or Redis opened meanwhile may be given it first (seen: a farm
 * worker of the quickstart test refused its probe port, in use).
 */
export async function freePort(): Promise<number> {
  const low = outgoingPortsFrom();
  for (let tries = 0; tries < 100; tries++) {
    const port = 10_000 + Math.floor(Math.random() * (low - 10_000));
    if (await listens(port)) return port;
  }
  throw new Error(`no free port found between 10000 and ${low}`);
}

/** The lowest port the kernel gives an outgoing connection (32768 where it does not say). */
function outgoingPortsFrom(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 11_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/** Whether a server can listen on `port` of 127.0.0.1 (it is closed again at once). */
async function listens(port: number): Promise<boolean> {
  const s = createServer();
  const ok = await new Promise<boolean>((resolve) => {
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (ok) await new Promise((r) => s.close(r));
  return ok;
}

export async function startRedis(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (/Ready to accept connections/.test(out)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
  });
  return { child, url: `redis://127.0.0.1:${port}` };
}
