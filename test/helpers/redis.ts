// A Redis of a test's own: a real redis-server on a free port, to freeze (SIGSTOP) or kill
// without touching the machine's shared one.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
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
