// Personal fonts over HTTP against the real server and its render threads: a font over the
// transport's drain size but within the route's 20 MiB is taken (sent with a length or chunked);
// the per-account count, size and upload rate are refused in the error shape, naming the limit;
// and uploading and deleting an 8 MiB font 30 times leaves the server's resident memory where it
// was (the render threads drop a font checked once, and a deleted one).
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import t from 'tap';
import { FONT_MAX_BYTES } from '../../src/domain/fonts.ts';
import { type DashboardSession, signUpOverHttp } from '../helpers/dashboard-api.ts';
import { paddedFont } from '../helpers/fonts.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { runCommand, startServe } from '../helpers/spawn.ts';

const MiB = 1024 * 1024;
const HAND = readFileSync(
  createRequire(import.meta.url).resolve(
    '@expo-google-fonts/indie-flower/400Regular/IndieFlower_400Regular.ttf',
  ),
);

type Session = DashboardSession;

/** A dashboard user, signed up over HTTP. */
const signUp = (server: Pick<TestServer, 'base'>, email: string) =>
  signUpOverHttp(server, email, { name: 'Font Tester', accountName: 'Hands', password: 'a font passphrase' });

/** A dashboard user on the Pro plan (personal fonts need premium fonts). */
async function proUser(server: TestServer, email: string): Promise<Session> {
  const s = await signUp(server, email);
  await server.ctx.store.accounts.setPlan(s.account, 'pro', 30, new Date());
  return s;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: {
    font?: { id: string };
    error?: { code: string; message: string; reason?: string; requestId: string };
  };
}

/** POSTs raw bytes with node:http: with a Content-Length, or chunked. */
function post(
  server: Pick<TestServer, 'base'>,
  s: Session,
  path: string,
  bytes: Uint8Array,
  chunked = false,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {
      cookie: s.cookie,
      'x-csrf-token': s.csrf,
      'content-type': 'application/octet-stream',
    };
    if (!chunked) headers['content-length'] = bytes.length;
    const req = http.request(`${server.base}/dashboard/v1/accounts/${s.account}${path}`, {
      method: 'POST',
      headers,
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          body: JSON.parse(Buffer.concat(chunks).toString()),
        }),
      );
    });
    req.on('error', reject);
    if (chunked) {
      // Several chunks, as a streaming client sends them.
      for (let at = 0; at < bytes.length; at += MiB) req.write(bytes.subarray(at, at + MiB));
      req.end();
    } else req.end(bytes);
  });
}

const addFont = (
  server: Pick<TestServer, 'base'>,
  s: Session,
  name: string,
  bytes: Uint8Array,
  chunked = false,
) => post(server, s, `/fonts?name=${encodeURIComponent(name)}`, bytes, chunked);
const deleteFont = (server: Pick<TestServer, 'base'>, s: Session, id: string) =>
  post(server, s, `/fonts/${id}/delete`, Buffer.from('{}'));

t.test(
  'a 17 MiB font on the 20 MiB route is taken, with a length or chunked; 413 names the limit',
  async (t) => {
    // This test is about size limits, not time: checking a 17 MiB font can pass the default 15 s
    // on a loaded two-core machine (another test file running beside it), and was refused then.
    const server = await startTestServer(t, {
      personalFontsMaxTotalBytes: 200 * MiB,
      renderSyncTimeoutMs: 60_000,
    });
    const s = await proUser(server, 'large@example.com');
    const big = paddedFont(HAND, 17 * MiB);
    const sized = await addFont(server, s, 'Seventeen', big);
    t.equal(sized.status, 201, `sent with Content-Length: ${big.length} ${JSON.stringify(sized.body.error)}`);
    const chunked = await addFont(server, s, 'Seventeen chunked', big, true);
    t.equal(chunked.status, 201, 'sent chunked');
    t.not(chunked.body.font?.id, sized.body.font?.id);
    const over = await addFont(server, s, 'Too big', paddedFont(HAND, FONT_MAX_BYTES + 1));
    t.equal(over.status, 413);
    t.match(over.body.error, {
      code: 'INVALID_REQUEST',
      message: `the body must be at most ${FONT_MAX_BYTES} bytes, got ${FONT_MAX_BYTES + 1} (Content-Length)`,
    });
    const overChunked = await addFont(server, s, 'Too big', paddedFont(HAND, FONT_MAX_BYTES + 1), true);
    t.equal(overChunked.status, 413, 'chunked too');
    t.match(
      overChunked.body.error?.message,
      new RegExp(`at most ${FONT_MAX_BYTES} bytes, got more than ${FONT_MAX_BYTES}`),
    );
  },
);

t.test('the count, the total size and the upload rate of an account are refused by name', async (t) => {
  const server = await startTestServer(t, {
    personalFontsMaxCount: 2,
    personalFontsMaxTotalBytes: 3 * MiB,
    personalFontUploadsPerHour: 4,
  });
  const s = await proUser(server, 'limits@example.com');
  const first = await addFont(server, s, 'One', HAND);
  t.equal(first.status, 201);
  const large = await addFont(server, s, 'Large', paddedFont(HAND, 3 * MiB));
  t.equal(large.status, 400, 'past the total size');
  t.match(large.body.error, {
    code: 'INVALID_REQUEST',
    message: new RegExp(
      `personal fonts may total at most ${3 * MiB} bytes, it holds ${HAND.length} and this one is ${3 * MiB}`,
    ),
  });
  t.equal((await addFont(server, s, 'Two', HAND)).status, 201);
  const third = await addFont(server, s, 'Three', HAND);
  t.equal(third.status, 400, 'past the count');
  t.match(third.body.error?.message, /at most 2 personal fonts, it holds 2 already: delete one first/);
  t.equal((await server.ctx.store.fonts.personalUsage(s.account)).count, 2, 'nothing was added by a refusal');
  t.equal((await deleteFont(server, s, first.body.font!.id)).status, 200);
  // Four uploads were made this hour (refusals by size and count before the work are not counted;
  // the first two and this one are): the fifth is over the rate.
  t.equal((await addFont(server, s, 'Three', HAND)).status, 201);
  await deleteFont(
    server,
    s,
    (await server.ctx.store.fonts.listVisible(s.account)).find((f) => f.name === 'Three')!.id,
  );
  const fast = await addFont(server, s, 'Four', HAND);
  t.equal(fast.status, 201, 'the fourth upload of the hour');
  await deleteFont(server, s, fast.body.font!.id);
  const rated = await addFont(server, s, 'Five', HAND);
  t.equal(rated.status, 429, 'the fifth upload of the hour');
  t.match(rated.body.error, {
    code: 'RATE_LIMIT_EXCEEDED',
    reason: 'font-uploads',
    message: /at most 4 personal font uploads an hour per account; wait \d+ s/,
  });
  t.match(rated.headers.ratelimit, /^"font-uploads";r=0;t=\d+$/);
  t.equal(rated.headers['ratelimit-policy'], '"font-uploads";q=4;w=3600');
});

t.test(
  "30 rounds of adding and deleting an 8 MiB font hold the server process's resident memory",
  async (t) => {
    // The server in a process of its own, as it runs: its resident memory is its own alone.
    const dir = mkdtempSync(join(tmpdir(), 'scriptorium-font-memory-'));
    const env = {
      DATA_DIR: dir,
      DEMO: 'false',
      PERSONAL_FONT_UPLOADS_PER_HOUR: '1000',
      RATE_LIMIT_PER_MINUTE: '100000',
    };
    const serve = await startServe(env);
    t.teardown(async () => {
      await serve.stop();
      rmSync(dir, { recursive: true, force: true });
    });
    const server = { base: `http://127.0.0.1:${serve.port}` };
    const s = await signUp(server, 'memory@example.com');
    const plan = await runCommand(['admin', 'plan', 'set', '--account', s.account, '--plan', 'pro'], env);
    t.equal(plan.code, 0, `the plan is set: ${plan.stderr}`);
    const font = paddedFont(HAND, 8 * MiB);
    const round = async (i: number) => {
      const added = await addFont(server, s, `Hand ${i}`, font);
      if (added.status !== 201) throw new Error(`round ${i}: ${added.status} ${JSON.stringify(added.body)}`);
      const removed = await deleteFont(server, s, added.body.font!.id);
      if (removed.status !== 200) throw new Error(`round ${i}: delete ${removed.status}`);
    };
    const rss = () =>
      Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${serve.child.pid}/status`, 'utf8'))![1]) * 1024;
    // The first round loads what every later one reuses (the font engine on each thread, the
    // threads' heaps): the figure is taken after it.
    const before = rss();
    await round(0);
    const start = rss();
    const series: number[] = [];
    for (let i = 1; i <= 30; i++) {
      await round(i);
      series.push(rss());
    }
    const end = series.at(-1)!;
    const mb = (n: number) => Math.round(n / MiB);
    t.comment(`resident memory after each round, MB: ${series.map(mb).join(' ')}`);
    t.comment(
      `resident memory: ${mb(before)} MB before, ${mb(start)} MB after the first round, ${mb(Math.max(...series))} MB at most, ${mb(end)} MB after 30 more`,
    );
    t.ok(end - start < 60 * MiB, `grew ${mb(end - start)} MB over 30 rounds (at most 60 MB)`);
    const fonts = (await (
      await fetch(`${server.base}/dashboard/v1/accounts/${s.account}/fonts?mode=live`, {
        headers: { cookie: s.cookie },
      })
    ).json()) as { data: { accountId?: string; personal?: boolean }[] };
    t.equal(fonts.data.filter((f) => f.personal).length, 0, 'every font deleted');
  },
);
