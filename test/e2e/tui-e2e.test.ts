// The real console in a real terminal: `scriptorium tui` in an 80 x 24 tmux pane (a tmux server
// of its own) against a real server. The queue figure moves when jobs are submitted; a failed
// job is found with the `/` filter and opened with Enter, its failure in full; a key shows when
// it was last used; a top-up typed and confirmed in the console shows in GET /usage; the pane
// grown to 120 x 40 gets whole ids; an owner's plan request is refused with a reason typed in the
// console, and the next approved; when the server restarts the console says so and comes back
// by itself; and a wrong token is said to be wrong, not taken for a missing server.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t, { type Test } from 'tap';
import { dashboardCall, signUpOverHttp } from '../helpers/dashboard-api.ts';
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

/** The captured pane is `rows` lines, none wider than `columns`. */
function fills(t: Test, pane: string, columns: number, rows: number): void {
  const lines = pane.split('\n').filter((l, i, all) => i < all.length - 1 || l !== '');
  t.equal(lines.length, rows, `the pane is ${rows} lines`);
  t.ok(
    lines.every((l) => [...l].length <= columns),
    `no line wider than ${columns}`,
  );
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
const documentTemplate = /template\s+(tpl_\w+)\s+legacy/.exec(server.stdout())![1]!;
const meadow = /image\s+(asset_\w+)\s+meadow\.png/.exec(server.stdout())![1]!;

/** The stored file of the demo's meadow.png, found by its bytes. */
function meadowBlob(): string {
  const bytes = readFileSync(join(ROOT, 'src/app/demo/meadow.png'));
  const walk = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)],
    );
  const found = walk(join(dir, 'blobs')).filter((f) => readFileSync(f).equals(bytes));
  if (found.length !== 1) throw new Error(`expected one stored meadow.png, found ${found.length}`);
  return found[0]!;
}

async function api(key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: a test reads any shape of body
  return (await res.json()) as Record<string, any>;
}

t.test(
  'the console: live figures, a failed job found and opened, keys, a top-up, 120 x 40, a restart, a wrong token',
  async (t) => {
    const created = await api(TOKEN, 'POST', `/admin/v1/accounts/${accountId}/keys`, {
      mode: 'live',
      name: 'console test',
    });
    const [liveKey, liveKeyId] = [created.key as string, created.id as string];
    await tmux(
      'new-session',
      '-d',
      '-s',
      'tui',
      '-x',
      '80',
      '-y',
      '24',
      `cd ${ROOT} && env -u NODE_OPTIONS node bin/scriptorium.js tui --url ${base} --token ${TOKEN}`,
    );
    const first = await waitFor(
      t,
      /● live[\s\S]*completed today 0/,
      'the dashboard is live with an empty queue',
    );
    fills(t, first, 80, 24);

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

    // A job that fails: the stored bytes of its image were altered, so it is never drawn.
    const blob = meadowBlob();
    const altered = readFileSync(blob);
    altered[altered.length - 20]! ^= 0x01;
    writeFileSync(blob, altered);
    const failedId = (
      await api(demoKey, 'POST', '/api/v1/generations', {
        templateId: documentTemplate,
        content: [{ type: 'image', assetId: meadow }],
      })
    ).id as string;
    t.match(failedId, /^gen_/);
    await waitFor(t, /failed today 1/, 'the failed job counts as failed today');

    // The jobs view: the `/` filter finds it, Enter opens it, Esc goes back and clears the filter.
    await tmux('send-keys', '-t', 'tui', '3');
    await waitFor(t, /Job\s+Account\s+Kind\s+Status\s+Pages\s+Try\s+Took\s+Created/, 'the jobs view');
    await waitFor(t, /failed\s+1\s+\d/, 'the failed job with its attempt and how long it ran');
    await tmux('send-keys', '-t', 'tui', '/');
    await waitFor(t, /Filter jobs \(Enter to apply/, 'the filter asks for words');
    await tmux('send-keys', '-t', 'tui', '-l', 'DAMAGED demo');
    await waitFor(t, /Filter jobs .*DAMAGED demo▏/, 'the typed words show');
    await tmux('send-keys', '-t', 'tui', 'Enter');
    const filtered = await waitFor(
      t,
      new RegExp(`/ DAMAGED demo[\\s\\S]*› gen_\\w+… Demo\\s+pdf·t[\\s\\S]*${failedId} · Demo`),
      'one job matches: the failed one, selected, its id in full below',
    );
    t.equal(filtered.match(/gen_\w+…/g)?.length, 1, 'and no other job is listed');
    t.match(filtered, /GENERATION_FAILED: image \S+ is damaged/, 'its failure under the list');
    await tmux('send-keys', '-t', 'tui', 'Enter');
    const detail = await waitFor(t, new RegExp(`Job ${failedId}`), 'Enter opens the job');
    t.match(detail, /Status\s+failed/);
    t.match(detail, /Attempts\s+1/);
    t.match(detail, /Failed\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, took \d/);
    t.match(detail, /Request\s+req_\w+/, 'the request that created it');
    t.match(detail, /Failure\s+GENERATION_FAILED\n\s+image \S+ is damaged/, 'the code and the message');
    await tmux('send-keys', '-t', 'tui', 'Escape');
    await waitFor(t, /\/ DAMAGED demo/, 'Esc goes back to the filtered list');
    await tmux('send-keys', '-t', 'tui', 'Escape');
    const all = await waitFor(
      t,
      /› gen_\w+… Demo\s+pdf·t\s+failed[\s\S]*completed[\s\S]*completed/,
      'a second Esc clears the filter: newest first, the failed job still selected',
    );
    t.notMatch(all, /DAMAGED/, 'the filter is gone from the filter line');
    t.equal(all.match(/gen_\w+…/g)?.length, 3, 'all three jobs listed again');

    // A top-up typed and confirmed in the console.
    const before = (await api(liveKey, 'GET', '/api/v1/usage')).balance.extraSheets as number;
    await tmux('send-keys', '-t', 'tui', '2');
    await waitFor(t, /› Demo/, 'the accounts view lists the demo account, selected');
    await tmux('send-keys', '-t', 'tui', 't');
    await waitFor(t, /Top up Demo, live .*sheets 50-1000:/, 'the console asks how many sheets');
    await tmux('send-keys', '-t', 'tui', '2', '0', 'Enter');
    await waitFor(
      t,
      /sheets must be a whole number 50-1000, got 20 \(Esc to leave\): 20/,
      'a refused number keeps the question open, saying why, with the number to mend',
    );
    // Typed fast, in one read: two erases, then a number with a thousands separator (its digits
    // are taken), in their order.
    await tmux('send-keys', '-t', 'tui', '-l', '\x7f\x7f2,00');
    await waitFor(
      t,
      /Top up Demo, live .*sheets 50-1000: 200/,
      'the pasted number shows, and the question again',
    );
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

    // The keys of the account: display prefix, created, last used, and the selected id in full.
    await tmux('send-keys', '-t', 'tui', 'Enter');
    const keys = await waitFor(
      t,
      new RegExp(
        `› ${liveKey.slice(0, 16)}\\s+live\\s+console test\\s+\\d{4}-\\d\\d-\\d\\d\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+active`,
      ),
      'the newest key first: its prefix, created, and the time it was last used',
    );
    t.match(
      keys,
      new RegExp(`^${liveKeyId} · ${liveKey.slice(0, 16)}… · console test`, 'm'),
      'its id in full',
    );
    t.notOk(keys.includes(liveKey), 'never the key itself');
    await tmux('send-keys', '-t', 'tui', 'j');
    await waitFor(
      t,
      /› hw_test_\w{8}\s+test\s+demo key\s+\S+\s+\S+ \S+\s+active/,
      'the demo key, used by the jobs',
    );
    await tmux('send-keys', '-t', 'tui', 'Escape');
    await waitFor(t, /› Demo/, 'Esc goes back to the accounts');

    // Plan requests: an owner's asks, refused with a reason typed in the console, then approved.
    const owner = await signUpOverHttp({ base }, 'owner@console.example', { accountName: 'Quill & Co' });
    const ask = async () =>
      (
        await dashboardCall(
          { base },
          owner,
          'POST',
          '/plan-requests',
          JSON.stringify({ plan: 'pro', note: 'our hands' }),
        )
      ).body.id as string;
    const asked = await ask();
    await tmux('send-keys', '-t', 'tui', '4');
    await waitFor(t, /› Quill & Co\s+none\s+pro 30 d\s+pending/, 'the pending request, selected');
    await waitFor(
      t,
      new RegExp(`^${asked} · Quill & Co acc_\\w+\\s*\\nnote: our hands`, 'm'),
      'its id and note below',
    );
    await tmux('send-keys', '-t', 'tui', 'x');
    await waitFor(
      t,
      /Refuse pro for Quill & Co: the reason the account sees/,
      'a refusal asks for the reason',
    );
    await tmux('send-keys', '-t', 'tui', '-l', 'write to sales first');
    await tmux('send-keys', '-t', 'tui', 'Enter');
    await waitFor(t, /Refused pro for Quill & Co/, 'the console reports the refusal');
    const seen = (await dashboardCall({ base }, owner, 'GET', '/plan-requests')).body;
    t.match(
      seen.data[0],
      { id: asked, status: 'refused', decisionNote: 'write to sales first' },
      'the account sees it',
    );
    const again = await ask();
    await waitFor(t, /› Quill & Co\s+none\s+pro 30 d\s+pending/, 'asked again: pending');
    await waitFor(t, new RegExp(`^${again} · Quill & Co`, 'm'), 'the new request, selected');
    await tmux('send-keys', '-t', 'tui', 'a');
    await waitFor(t, /Approve plan pro \(30 days\) for Quill & Co\? \(y\/n\)/, 'an approval asks first');
    await tmux('send-keys', '-t', 'tui', 'y');
    await waitFor(t, /Approved: Quill & Co has plan pro from now on/, 'and reports it');
    t.match(
      (await dashboardCall({ base }, owner, 'GET', '/plan-requests')).body.plan,
      { id: 'pro' },
      "the plan is the account's",
    );
    await waitFor(t, /No plan requests pending\./, 'none pending any more');

    // A larger terminal: whole job ids in the list and the failure code beside them.
    await tmux('resize-window', '-t', 'tui', '-x', '120', '-y', '40');
    await tmux('send-keys', '-t', 'tui', '3');
    const wide = await waitFor(
      t,
      new RegExp(`${failedId} Demo\\s+pdf·t\\s+failed .*GENERATION_FAILED`),
      'at 120 x 40 the list shows whole ids and the failure code',
    );
    fills(t, wide, 120, 40);
    await tmux('resize-window', '-t', 'tui', '-x', '80', '-y', '24');

    // The server restarts: the console says so, and reconnects by itself.
    await tmux('send-keys', '-t', 'tui', '1');
    await waitFor(t, /per minute\s+now/, 'back on the dashboard');
    t.notMatch(await screen(), /Added 200 live sheets/, "the accounts view's message is cleared with it");
    t.equal(await server.stop('SIGTERM'), 0);
    await waitFor(t, /server gone, retrying/, 'the console says the server is gone');
    server = await startServe(env);
    await waitFor(t, /● live \(reconnected\)/, 'and that it reconnected');
    await waitFor(t, /completed today 2/, 'with the figures of the restarted server');

    // A wrong token is said to be wrong, and stays said: it is not taken for a missing server.
    await tmux(
      'new-session',
      '-d',
      '-s',
      'wrong',
      '-x',
      '80',
      '-y',
      '24',
      `cd ${ROOT} && env -u NODE_OPTIONS node bin/scriptorium.js tui --url ${base} --token wrong-token-0123456789abcdef`,
    );
    const paneOf = async (name: string) => (await tmux('capture-pane', '-p', '-t', name)).stdout;
    let refused = '';
    for (let i = 0; i < 200 && !/refused/.test(refused); i++) {
      refused = await paneOf('wrong').catch(() => '');
      await new Promise((r) => setTimeout(r, 100));
    }
    t.match(refused, /✕ refused: the admin token is wrong/, 'the console says the token is wrong');
    await new Promise((r) => setTimeout(r, 2500));
    const later = await paneOf('wrong');
    t.match(later, /✕ refused: the admin token is wrong/, 'and still says so seconds later');
    t.notMatch(later, /no server|retrying/, 'never that there is no server');
    await tmux('kill-session', '-t', 'wrong');

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
  },
);
