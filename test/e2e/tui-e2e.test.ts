// The real console in a real terminal: `scriptorium tui` in an 80 x 24 tmux pane (a tmux server
// of its own) against a real server. The queue figure moves when jobs are submitted, a top-up
// typed and confirmed in the console shows in GET /usage, and when the server restarts the
// console says so and comes back by itself.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t, { type Test } from 'tap';
import { ROOT, type ServeProcess, startServe } from '../helpers/spawn.ts';

const run = promisify(execFile);
const hasTmux = await run('tmux', ['-V']).then(
  () => true,
  () => false,
);
if (!hasTmux && process.env.CI) throw new Error('tmux is needed for the console test');
if (!hasTmux) {
  t.comment('tui: skipped, no tmux here');
  process.exit(0);
}

const TOKEN = 'console-test-token-0123456789';
const SOCKET = `scriptorium-tui-${process.pid}`;
const tmux = (...args: string[]) => run('tmux', ['-L', SOCKET, ...args]);
const screen = async () => (await tmux('capture-pane', '-p', '-t', 'tui')).stdout;

/** Waits until the pane shows `pattern`; fails with the screen as it last was. */
async function waitFor(t: Test, pattern: RegExp, what: string, ms = 20_000): Promise<string> {
  const end = Date.now() + ms;
  let last = '';
  while (Date.now() < end) {
    last = await screen().catch(() => '');
    if (pattern.test(last)) {
      t.pass(what);
      return last;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  t.fail(`${what}: ${pattern} never showed; the screen was:\n${last}`);
  return last;
}

const port = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const p = (probe.address() as { port: number }).port;
    probe.close(() => resolve(p));
  });
});
const dir = mkdtempSync(join(tmpdir(), 'scriptorium-tui-'));
const env = { DATA_DIR: dir, ADMIN_TOKEN: TOKEN, PORT: String(port) };
let server: ServeProcess = await startServe(env);
t.teardown(async () => {
  await tmux('kill-server').catch(() => {});
  if (server.child.exitCode === null) await server.stop('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});
const base = `http://127.0.0.1:${port}`;
const demoKey = /API key\s+(hw_test_\w+)/.exec(server.stdout())![1]!;
const accountId = /account\s+(acc_\w+)/.exec(server.stdout())![1]!;
const template = /template\s+(tpl_\w+)\s+simple/.exec(server.stdout())![1]!;

async function api(key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: a test reads any shape of body
  return (await res.json()) as Record<string, any>;
}

t.test('the console in 80 x 24: live figures, a top-up, a server restart', async (t) => {
  const liveKey = (
    await api(TOKEN, 'POST', `/admin/v1/accounts/${accountId}/keys`, { mode: 'live', name: 'console test' })
  ).key as string;
  await tmux(
    'new-session',
    '-d',
    '-s',
    'tui',
    '-x',
    '80',
    '-y',
    '24',
    `cd ${ROOT} && node bin/scriptorium.js tui --url ${base} --token ${TOKEN}`,
  );
  const first = await waitFor(
    t,
    /● live[\s\S]*completed today 0/,
    'the dashboard is live with an empty queue',
  );
  const lines = first.split('\n').filter((l, i, all) => i < all.length - 1 || l !== '');
  t.equal(lines.length, 24, 'the pane is 24 lines');
  t.ok(
    lines.every((l) => [...l].length <= 80),
    'no line wider than 80',
  );

  // Jobs submitted through the public API move the queue figures.
  const ids: string[] = [];
  for (let i = 0; i < 2; i++)
    ids.push(
      (
        await api(demoKey, 'POST', '/api/v1/generations', {
          templateId: template,
          text: `Letter ${i}. `.repeat(300),
        })
      ).id,
    );
  await waitFor(t, /completed today 2/, 'the two jobs show as completed today');
  await waitFor(t, /generations\s+2\s/, 'and as two generations this minute');

  // A top-up typed and confirmed in the console.
  const before = (await api(liveKey, 'GET', '/api/v1/usage')).balance.extraSheets as number;
  await tmux('send-keys', '-t', 'tui', '2');
  await waitFor(t, /› Demo/, 'the accounts view lists the demo account, selected');
  await tmux('send-keys', '-t', 'tui', 't');
  await waitFor(t, /Top up Demo, live .*sheets 50-1000:/, 'the console asks how many sheets');
  await tmux('send-keys', '-t', 'tui', '2', '0', '0');
  await waitFor(t, /sheets 50-1000: 200/, 'the typed number shows');
  await tmux('send-keys', '-t', 'tui', 'Enter');
  await waitFor(t, /Add 200 live sheets to Demo\? \(y\/n\)/, 'and asks for confirmation');
  t.equal(
    (await api(liveKey, 'GET', '/api/v1/usage')).balance.extraSheets,
    before,
    'nothing is added before the answer',
  );
  await tmux('send-keys', '-t', 'tui', 'y');
  await waitFor(t, /Added 200 live sheets to Demo/, 'the console reports the top-up');
  t.equal(
    (await api(liveKey, 'GET', '/api/v1/usage')).balance.extraSheets,
    before + 200,
    'GET /usage shows the 200 sheets',
  );

  // The server restarts: the console says so, and reconnects by itself.
  await tmux('send-keys', '-t', 'tui', '1');
  await waitFor(t, /per minute\s+now/, 'back on the dashboard');
  t.notMatch(await screen(), /Added 200 live sheets/, "the accounts view's message is cleared with it");
  t.equal(await server.stop('SIGTERM'), 0);
  await waitFor(t, /server gone, retrying/, 'the console says the server is gone');
  server = await startServe(env);
  await waitFor(t, /● live \(reconnected\)/, 'and that it reconnected');
  await waitFor(t, /completed today 2/, 'with the figures of the restarted server');

  await tmux('send-keys', '-t', 'tui', 'q');
  let gone = false;
  for (let i = 0; i < 50 && !gone; i++) {
    gone = await tmux('has-session', '-t', 'tui').then(
      () => false,
      () => true,
    );
    await new Promise((r) => setTimeout(r, 100));
  }
  t.ok(gone, 'q quits');
});
