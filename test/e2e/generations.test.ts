// PDF generations over a real server on the embedded store: submit, poll, download, cancel,
// admission limits, the completion charge, failures, retention and the sweeper.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex } from '../../src/lib/ids.ts';
import t, { type Test } from 'tap';
import { importTemplate, topUp } from '../../src/app/admin.ts';
import { bundledFontId } from '../../src/domain/fonts.ts';
import { type Answer, call, setExtraBalance, startTestServer, type TestServer } from '../helpers/server.ts';

const server = await startTestServer(t);
const LETTER =
  'Dear Margaret, thank you for the lovely afternoon tea last Sunday. The garden looked wonderful.';
/** 96,000 characters, about 60 pages at the letter template's size: long enough to be caught running. */
const LONG = 'The quick brown fox jumps over the lazy dog, again and again, all afternoon long. '.repeat(
  1_200,
);

async function until(
  t: Test,
  s: TestServer,
  key: string,
  id: string,
  done: (a: Answer) => boolean,
  ms = 30_000,
): Promise<Answer> {
  const end = Date.now() + ms;
  for (;;) {
    const a = await call(t, s, 'GET', `/generations/${id}`, { key });
    if (done(a) || Date.now() > end) return a;
    await new Promise((r) => setTimeout(r, 100));
  }
}
const finished = (a: Answer) => ['completed', 'failed', 'cancelled'].includes(a.body.status);

async function ledger(s: TestServer, jobId: string) {
  return s.ctx.store.db.kysely.selectFrom('ledger').selectAll().where('job_id', '=', jobId).execute();
}

t.test(
  'a generation: 202 queued, then completed with pages, sheets and a download that streams the PDF',
  async (t) => {
    const a = await server.tenant();
    const post = await call(t, server, 'POST', '/generations', {
      key: a.live,
      body: { templateId: a.templates.live.simple, text: LETTER },
    });
    t.equal(post.status, 202);
    t.match(post.body, {
      id: /^gen_/,
      kind: 'pdf',
      status: 'queued',
      templateId: a.templates.live.simple,
      createdAt: /Z$/,
    });
    t.notOk('downloadUrl' in post.body || 'pages' in post.body, 'nothing of the result yet');

    const done = await until(t, server, a.live, post.body.id, finished);
    t.equal(done.body.status, 'completed');
    t.equal(done.body.pages, 1);
    t.equal(done.body.creditsSpent, 1.5, 'an A4 page is 1.5 sheets');
    t.equal(done.body.downloadUrl, `/api/v1/generations/${post.body.id}/download`);
    t.ok(
      Date.parse(done.body.expiresAt) - Date.parse(done.body.completedAt) === 7 * 86_400_000,
      'kept 7 days',
    );
    t.ok(done.body.startedAt <= done.body.completedAt);

    const res = await fetch(`${server.base}${done.body.downloadUrl}`, {
      headers: { authorization: `Bearer ${a.live}` },
    });
    const pdf = Buffer.from(await res.arrayBuffer());
    t.equal(res.status, 200);
    t.equal(res.headers.get('content-type'), 'application/pdf');
    t.equal(Number(res.headers.get('content-length')), pdf.length, 'exact Content-Length');
    t.equal(res.headers.get('x-request-id')?.split(',').length, 1, 'one X-Request-ID');
    t.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    const dir = mkdtempSync(join(tmpdir(), 'scriptorium-gen-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'out.pdf'), pdf);
    try {
      t.match(
        execFileSync('pdftotext', [join(dir, 'out.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' '),
        /Dear Margaret, thank you/,
        'the text is in the PDF',
      );
    } catch (err) {
      t.ok(!process.env.CI && (err as NodeJS.ErrnoException).code === 'ENOENT', 'poppler is installed in CI');
    }

    const head = await fetch(`${server.base}${done.body.downloadUrl}`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${a.live}` },
    });
    t.equal(head.status, 200);
    t.equal(Number(head.headers.get('content-length')), pdf.length, 'HEAD: the length');
    t.equal((await head.arrayBuffer()).byteLength, 0, 'HEAD: no body');

    const ledgerRows = await ledger(server, post.body.id);
    t.same(
      ledgerRows.map((r) => [r.kind, Number(r.total_milli), Number(r.pages)]),
      [['charge', 1500, 1]],
      'one charge row',
    );
    const usage = await call(t, server, 'GET', '/usage', { key: a.live });
    t.match(usage.body, { generations: 1, successfulGenerations: 1, pages: 1, creditsSpent: 1.5 });
  },
);

t.test('requests are checked against the template, and a refused one creates nothing', async (t) => {
  const a = await server.tenant();
  const b = await server.tenant();
  const free = await server.tenant({ plan: 'none' });
  const cases: [string, string, unknown, number, string, RegExp][] = [
    [
      'unknown template',
      a.live,
      { templateId: 'tpl_0000000000000000000000', text: 'x' },
      404,
      'TEMPLATE_NOT_FOUND',
      /no template/,
    ],
    [
      "another account's template",
      a.live,
      { templateId: b.templates.live.simple, text: 'x' },
      404,
      'TEMPLATE_NOT_FOUND',
      /no template/,
    ],
    [
      "the other key mode's template",
      a.test,
      { templateId: a.templates.live.simple, text: 'x' },
      404,
      'TEMPLATE_NOT_FOUND',
      /no template/,
    ],
    [
      'two inputs',
      a.live,
      { templateId: a.templates.live.simple, text: 'x', data: {} },
      400,
      'INVALID_REQUEST',
      /exactly one of text, data or content, got text and data/,
    ],
    [
      'no input',
      a.live,
      { templateId: a.templates.live.simple },
      400,
      'INVALID_REQUEST',
      /exactly one of text, data or content, got none/,
    ],
    [
      'data for a simple template',
      a.live,
      { templateId: a.templates.live.simple, data: {} },
      400,
      'INVALID_REQUEST',
      /simple template takes text, got data/,
    ],
    [
      'text for a structured template',
      a.live,
      { templateId: a.templates.live.structured, text: 'x' },
      400,
      'INVALID_REQUEST',
      /structured template takes data, got text/,
    ],
    [
      'content for a v2 template',
      a.live,
      { templateId: a.templates.live.simple, content: [] },
      400,
      'INVALID_REQUEST',
      /takes text, got content/,
    ],
    [
      'overrides for a v2 template',
      a.live,
      { templateId: a.templates.live.simple, text: 'x', overrides: {} },
      400,
      'INVALID_REQUEST',
      /overrides cannot be sent for a version 2 template/,
    ],
    [
      'an unknown field',
      a.live,
      { templateId: a.templates.live.simple, text: 'x', pages: 2 },
      400,
      'INVALID_REQUEST',
      /unknown field pages/,
    ],
    [
      'empty text',
      a.live,
      { templateId: a.templates.live.simple, text: '' },
      400,
      'INVALID_REQUEST',
      /text must be 1-100,000 characters, got 0 characters/,
    ],
    [
      '100,001 characters',
      a.live,
      { templateId: a.templates.live.simple, text: 'x'.repeat(100_001) },
      400,
      'INVALID_REQUEST',
      /text must be 1-100,000 characters, got 100,001/,
    ],
    [
      '4,001 characters without a subscription',
      free.test,
      { templateId: free.templates.test.simple, text: 'é'.repeat(4_001) },
      400,
      'INVALID_REQUEST',
      /1-4,000 characters without a subscription, got 4,001/,
    ],
    [
      'a control character',
      a.live,
      { templateId: a.templates.live.simple, text: 'a\u0000b' },
      400,
      'INVALID_REQUEST',
      /text must be plain text: it holds a control character \(U\+0000\) at position 1/,
    ],
    [
      // A well-prefixed id of an unexpected length is simply not found, as GET /templates/{id} says.
      'a template id of another length',
      a.live,
      { templateId: 'tpl_nope0000000000000000', text: 'x' },
      404,
      'TEMPLATE_NOT_FOUND',
      /no template "tpl_nope0000000000000000"/,
    ],
    [
      'a very long template id, quoted short',
      a.live,
      { templateId: `tpl_${'x'.repeat(500)}`, text: 'x' },
      404,
      'TEMPLATE_NOT_FOUND',
      /^no template "tpl_x{36}…" for this account and key mode$/,
    ],
    [
      'not a template id at all',
      a.live,
      { templateId: 'gen_0000000000000000000000', text: 'x' },
      400,
      'INVALID_REQUEST',
      /templateId must be a template id/,
    ],
  ];
  for (const [name, key, body, status, code, message] of cases) {
    const r = await call(t, server, 'POST', '/generations', { key, body });
    t.equal(r.status, status, `${name}: ${status}`);
    t.equal(r.body.error?.code, code, `${name}: ${code}`);
    t.match(r.body.error?.message, message, `${name}: the message says why`);
  }
  // Characters no font of the template has are refused at once, named, whatever the script.
  const simple = a.templates.live.simple;
  for (const [name, text, named] of [
    ['an emoji', 'Hello 😀', /U\+1F600/],
    ['Hebrew', 'שלום', /4 characters .*U\+05E9/],
    ['Greek', 'Γειά', /U\+0393/],
    ['Chinese', 'Grüße 漢字', /2 characters .*U\+6F22 "漢", U\+5B57 "字"/],
    ['Thai', 'สวัสดี', /U\+0E2A/],
    ['a line separator', 'one\u2028two', /U\+2028/],
    ['a byte order mark mid-text', 'one\ufefftwo', /U\+FEFF/],
  ] as const) {
    for (const path of ['/generations', '/previews']) {
      const r = await call(t, server, 'POST', path, { key: a.live, body: { templateId: simple, text } });
      t.equal(r.status, 400, `${name} (${path}): 400`);
      t.equal(r.body.error?.field, 'text');
      t.match(r.body.error?.message, /no font of the template has/);
      t.match(r.body.error?.message, named, `${name}: the code points are named`);
    }
  }
  const data = await call(t, server, 'POST', '/generations', {
    key: a.live,
    body: {
      templateId: a.templates.live.structured,
      data: {
        title: 'Notes',
        points: ['one', 'two 😀'],
        figures: [{ item: 'x', value: 1 }],
        summary: 'Done.',
      },
    },
  });
  t.equal(data.status, 400, 'in structured data too');
  t.equal(data.body.error?.field, 'data');
  t.match(data.body.error?.message, /U\+1F600/);
  for (const blank of ['   ', '\n\n\t', '\u00a0']) {
    const r = await call(t, server, 'POST', '/generations', {
      key: a.live,
      body: { templateId: simple, text: blank },
    });
    t.equal(r.status, 400, `${JSON.stringify(blank)}: a blank page is refused, not billed`);
    t.match(r.body.error?.message, /must hold something to write/);
  }
  // Characters are counted as people count them: an emoji is one, so 4,000 pass the free limit's
  // count (and only then is the emoji refused for want of a font).
  const emoji = await call(t, server, 'POST', '/generations', {
    key: free.test,
    body: { templateId: free.templates.test.simple, text: `😀${'a'.repeat(3_999)}` },
  });
  t.equal(emoji.status, 400);
  t.match(emoji.body.error?.message, /U\+1F600/, '4,000 characters are within the free limit');
  const counted = await call(t, server, 'POST', '/generations', {
    key: free.test,
    body: { templateId: free.templates.test.simple, text: `é${'a'.repeat(3_999)}` },
  });
  t.equal(counted.status, 202, '4,000 characters are accepted without a subscription');
  await until(t, server, free.test, counted.body.id, finished);
  const list = await call(t, server, 'GET', '/generations', { key: a.live });
  t.same(list.body.data, [], 'nothing was created for the refused requests');
});

t.test(
  '25 parallel submissions of one account: exactly 2 admitted, the rest 429 with Retry-After',
  async (t) => {
    const a = await server.tenant();
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        fetch(`${server.base}/api/v1/generations`, {
          method: 'POST',
          headers: { authorization: `Bearer ${a.live}`, 'content-type': 'application/json' },
          body: JSON.stringify({ templateId: a.templates.live.simple, text: LONG }),
        }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    t.equal(statuses.filter((s) => s === 202).length, 2, 'two admitted');
    t.equal(statuses.filter((s) => s === 429).length, 23, 'the rest refused');
    const refused = answers.find((r) => r.status === 429)!;
    t.equal(refused.headers.get('retry-after'), '60');
    t.match(((await refused.json()) as { error: unknown }).error, {
      code: 'RATE_LIMIT_EXCEEDED',
      reason: 'unfinished-jobs',
      message: /2 unfinished jobs, the most allowed is 2/,
    });
    // The limit that refused comes first in the RateLimit fields, spent; the key's own after it.
    t.match(refused.headers.get('ratelimit'), /^"unfinished-jobs";r=0;t=60, "per-key";r=\d+;t=\d+$/);
    t.match(refused.headers.get('ratelimit-policy'), /^"unfinished-jobs";q=2, "per-key";q=\d+;w=60$/);
    const jobs = (await Promise.all(answers.filter((r) => r.status === 202).map((r) => r.json()))) as {
      id: string;
    }[];
    // At most one heavy task per account: while one runs, the other waits.
    let both = false;
    for (let i = 0; i < 200 && !both; i++) {
      const states = await Promise.all(jobs.map((j) => server.ctx.store.generations.find(j.id)));
      t.ok(states.filter((s) => s?.status === 'processing').length <= 1, 'never two running for one account');
      if (states.every((s) => s?.status === 'completed' || s?.status === 'failed')) both = true;
      await new Promise((r) => setTimeout(r, 25));
    }
    for (const j of jobs) t.equal((await until(t, server, a.live, j.id, finished)).body.status, 'completed');
    const after = await call(t, server, 'POST', '/generations', {
      key: a.live,
      body: { templateId: a.templates.live.simple, text: LETTER },
    });
    t.equal(after.status, 202, 'admitted again once they finished');
    await until(t, server, a.live, after.body.id, finished);
  },
);

t.test(
  'no allowance left: 402 before work; the whole document not covered: failed, nothing charged',
  async (t) => {
    const free = await server.tenant({ plan: 'none' });
    const broke = await call(t, server, 'POST', '/generations', {
      key: free.live,
      body: { templateId: free.templates.live.simple, text: LETTER },
    });
    t.equal(broke.status, 402);
    t.equal(broke.body.error.code, 'INSUFFICIENT_BALANCE');
    t.notMatch(broke.body.error.message, /test sheets/, 'a live key is told of its balance alone');
    // A test key without test sheets (a new account has none) is told where they come from.
    await setExtraBalance(server, free.accountId, 'test', 0);
    const noTestSheets = await call(t, server, 'POST', '/generations', {
      key: free.test,
      body: { templateId: free.templates.test.simple, text: LETTER },
    });
    t.equal(noTestSheets.status, 402);
    t.match(
      noTestSheets.body.error.message,
      /cannot start a generation: no plan sheets or extra balance left; a test key spends test sheets, which cost nothing: add them in the dashboard \(Usage, "Add test sheets"\)/,
    );

    // Two test sheets left: enough to be admitted, not for the document.
    const a = await server.tenant();
    await setExtraBalance(server, a.accountId, 'test', 2000);
    const text = `${'A line of handwriting that fills the page. '.repeat(400)}`;
    const post = await call(t, server, 'POST', '/generations', {
      key: a.test,
      body: { templateId: a.templates.test.simple, text },
    });
    t.equal(post.status, 202, 'some allowance remains: admitted');
    const done = await until(t, server, a.test, post.body.id, finished);
    t.equal(done.body.status, 'failed');
    t.match(done.body.error, {
      code: 'INSUFFICIENT_BALANCE',
      message: /not charged and no PDF issued: the document needs \d+(\.5)? sheets, 2 available/,
    });
    t.notOk('pages' in done.body || 'downloadUrl' in done.body);
    t.same(await ledger(server, post.body.id), [], 'no charge');
    const balance = await server.ctx.store.db.kysely
      .selectFrom('balances')
      .select('extra_milli')
      .where('account_id', '=', a.accountId)
      .where('mode', '=', 'test')
      .executeTakeFirst();
    t.equal(Number(balance?.extra_milli), 2000, 'balance untouched');
    const dl = await call(t, server, 'GET', `/generations/${post.body.id}/download`, { key: a.test });
    t.equal(dl.status, 409);
    t.equal(dl.body.error.code, 'GENERATION_NOT_READY');
    const kept: string[] = [];
    for await (const key of server.ctx.blobs.list(`outputs/${a.accountId}`)) kept.push(key);
    t.same(kept, [], 'no PDF kept');
  },
);

t.test('a document over the page cap: failed GENERATION_FAILED, no charge', async (t) => {
  const a = await server.tenant();
  const tooLong = await call(t, server, 'POST', '/generations', {
    key: a.live,
    body: { templateId: a.templates.live.simple, text: 'A short line.\n'.repeat(6_000) },
  });
  const failed = await until(t, server, a.live, tooLong.body.id, finished);
  t.equal(failed.body.status, 'failed');
  t.match(failed.body.error, {
    code: 'GENERATION_FAILED',
    message: /needs \d+ pages, the most allowed is 200/,
  });
  t.same(await ledger(server, tooLong.body.id), []);
  const usage = await call(t, server, 'GET', '/usage', { key: a.live });
  t.match(usage.body, {
    generations: 1,
    failedGenerations: 1,
    successfulGenerations: 0,
    pages: 0,
    creditsSpent: 0,
  });
});

t.test(
  'cancel: queued or processing → cancelled without charge; twice is the same; a finished job is left alone',
  async (t) => {
    const a = await server.tenant();
    const first = await call(t, server, 'POST', '/generations', {
      key: a.live,
      body: { templateId: a.templates.live.simple, text: LONG },
    });
    const second = await call(t, server, 'POST', '/generations', {
      key: a.live,
      body: { templateId: a.templates.live.simple, text: LONG },
    });
    // One runs, the other waits behind it (one heavy task per account).
    const running = await until(t, server, a.live, first.body.id, (r) => r.body.status !== 'queued');
    t.equal(running.body.status, 'processing');
    const queued = await call(t, server, 'POST', `/generations/${second.body.id}/cancel`, { key: a.live });
    t.equal(queued.status, 200);
    t.match(queued.body, { status: 'cancelled', cancelledAt: /Z$/ });
    const processing = await call(t, server, 'POST', `/generations/${first.body.id}/cancel`, { key: a.live });
    t.equal(processing.body.status, 'cancelled', 'a running job is cancelled');
    const again = await call(t, server, 'POST', `/generations/${first.body.id}/cancel`, { key: a.live });
    t.equal(again.status, 200);
    t.equal(again.body.cancelledAt, processing.body.cancelledAt, 'cancelling again changes nothing');
    await new Promise((r) => setTimeout(r, 1500));
    for (const id of [first.body.id, second.body.id]) {
      t.equal(
        (await call(t, server, 'GET', `/generations/${id}`, { key: a.live })).body.status,
        'cancelled',
        'and it stays cancelled',
      );
      t.same(await ledger(server, id), [], 'no charge');
      const dl = await call(t, server, 'GET', `/generations/${id}/download`, { key: a.live });
      t.equal(dl.body.error.code, 'GENERATION_NOT_READY');
    }
    const done = await call(t, server, 'POST', '/generations', {
      key: a.live,
      body: { templateId: a.templates.live.simple, text: LETTER },
    });
    await until(t, server, a.live, done.body.id, finished);
    const late = await call(t, server, 'POST', `/generations/${done.body.id}/cancel`, { key: a.live });
    t.equal(late.status, 400, 'spec §7: INVALID_REQUEST is a 400');
    t.match(late.body.error, {
      code: 'INVALID_REQUEST',
      message: /completed and can no longer be cancelled/,
    });
    t.equal(
      (await call(t, server, 'GET', `/generations/${done.body.id}`, { key: a.live })).body.status,
      'completed',
    );
    const usage = await call(t, server, 'GET', '/usage', { key: a.live });
    t.match(usage.body, { generations: 3, cancelledGenerations: 2, successfulGenerations: 1 });
    const foreign = await call(t, server, 'POST', `/generations/${done.body.id}/cancel`, { key: a.test });
    t.equal(foreign.status, 404, 'the other key mode cannot cancel it');
  },
);

t.test(
  "reads: another account's or key mode's job is 404; ids are checked; the list filters by status",
  async (t) => {
    const a = await server.tenant();
    const b = await server.tenant();
    const post = await call(t, server, 'POST', '/generations', {
      key: a.live,
      body: { templateId: a.templates.live.simple, text: LETTER },
    });
    await until(t, server, a.live, post.body.id, finished);
    for (const [key, who] of [
      [b.live, 'another account'],
      [a.test, 'the test key'],
    ] as const) {
      for (const path of ['', '/download']) {
        const r = await call(t, server, 'GET', `/generations/${post.body.id}${path}`, { key });
        t.equal(r.status, 404, `${who}: GET ${path || '(job)'} is 404`);
        t.equal(r.body.error.code, 'GENERATION_NOT_FOUND');
      }
    }
    t.equal((await call(t, server, 'GET', '/generations/gen_nope', { key: a.live })).status, 404);
    const completed = await call(t, server, 'GET', '/generations?status=completed', { key: a.live });
    t.same(
      completed.body.data.map((j: { id: string }) => j.id),
      [post.body.id],
    );
    t.same((await call(t, server, 'GET', '/generations?status=failed', { key: a.live })).body.data, []);
    const bad = await call(t, server, 'GET', '/generations?status=done', { key: a.live });
    t.equal(bad.status, 400);
    t.match(
      bad.body.error.message,
      /status must be one of queued, processing, completed, failed, cancelled, got "done"/,
    );
  },
);

t.test(
  'retention: 410 from the stored expiry; the sweeper deletes expired outputs and orphans',
  async (t) => {
    const a = await server.tenant();
    const post = await call(t, server, 'POST', '/generations', {
      key: a.live,
      body: { templateId: a.templates.live.simple, text: LETTER },
    });
    const done = await until(t, server, a.live, post.body.id, finished);
    const job = (await server.ctx.store.generations.find(post.body.id))!;
    t.ok(await server.ctx.blobs.exists(job.blobKey!), 'the PDF is stored');
    await server.ctx.store.db.kysely
      .updateTable('generations')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', job.id)
      .execute();
    const gone = await call(t, server, 'GET', `/generations/${job.id}/download`, { key: a.live });
    t.equal(gone.status, 410, 'expired: 410 though the file is still there');
    t.equal(gone.body.error.code, 'GENERATION_EXPIRED');

    // An orphan: an output no job holds, of a job that is finished (a crash between write and commit).
    const orphan = `outputs/${a.accountId}/${job.id}/7.pdf`;
    await server.ctx.blobs.put(orphan, new Uint8Array([1, 2, 3]), 'application/pdf');
    // The output of a job still running is not an orphan.
    const live = await call(t, server, 'POST', '/generations', {
      key: a.live,
      body: { templateId: a.templates.live.simple, text: LONG },
    });
    await until(t, server, a.live, live.body.id, (r) => r.body.status === 'processing');
    const inFlight = `outputs/${a.accountId}/${live.body.id}/1.pdf`;
    await server.ctx.blobs.put(inFlight, new Uint8Array([4]), 'application/pdf');

    const swept = await server.service.sweep();
    t.ok(swept.expired >= 1 && swept.orphans >= 1, `swept ${JSON.stringify(swept)}`);
    t.notOk(await server.ctx.blobs.exists(job.blobKey!), 'the expired PDF is deleted');
    t.notOk(await server.ctx.blobs.exists(orphan), 'the orphan is deleted');
    t.ok(await server.ctx.blobs.exists(inFlight), 'a running job keeps its output');
    t.equal(
      (await call(t, server, 'GET', `/generations/${job.id}`, { key: a.live })).body.status,
      'completed',
      'the job stays completed',
    );
    t.equal(
      (await call(t, server, 'GET', `/generations/${job.id}/download`, { key: a.live })).status,
      410,
      'and still answers 410',
    );
    t.equal(done.body.status, 'completed');
    await until(t, server, a.live, live.body.id, finished);
  },
);

t.test('a premium font needs an eligible plan: 403 FONT_ACCESS_DENIED, nothing created', async (t) => {
  const free = await server.tenant({ plan: 'none' });
  await topUp(server.ctx, { account: free.accountId, sheets: 50, mode: 'live' });
  const model = JSON.parse(
    readFileSync(new URL('../../src/app/demo/letter.template.json', import.meta.url), 'utf8'),
  );
  model.style.fontId = bundledFontId('dancing-script');
  const premium = await importTemplate(server.ctx, {
    account: free.accountId,
    mode: 'live',
    json: JSON.stringify(model),
    source: 'premium',
  });
  const r = await call(t, server, 'POST', '/generations', {
    key: free.live,
    body: { templateId: premium.id, text: LETTER },
  });
  t.equal(r.status, 403);
  t.match(r.body.error, {
    code: 'FONT_ACCESS_DENIED',
    message: /Dancing Script is a premium font; the none plan does not include premium fonts/,
  });
});

t.test(
  'previews: the first 4 pages as watermarked PNGs, free; unchanged → the same job; 3 new a minute; no PDF',
  async (t) => {
    const { PNG } = await import('pngjs');
    const a = await server.tenant();
    const post = await call(t, server, 'POST', '/previews', {
      key: a.live,
      body: { templateId: a.templates.live.simple, text: LONG },
    });
    t.equal(post.status, 202);
    t.match(post.body, { kind: 'preview', status: 'queued' });
    const done = await until(t, server, a.live, post.body.id, finished);
    t.equal(done.body.status, 'completed');
    t.equal(done.body.pages, 4, 'four pages of a longer document');
    t.equal(done.body.previewUrl, `/api/v1/generations/${post.body.id}/preview`);
    t.notOk('creditsSpent' in done.body || 'downloadUrl' in done.body, 'free, and no PDF');

    const images = await call(t, server, 'GET', `/generations/${post.body.id}/preview`, { key: a.live });
    t.equal(images.status, 200);
    t.equal(images.body.id, post.body.id);
    t.same(
      images.body.pages.map((p: { page: number }) => p.page),
      [1, 2, 3, 4],
    );
    for (const p of images.body.pages as {
      width: number;
      height: number;
      contentType: string;
      data: string;
    }[]) {
      t.equal(p.contentType, 'image/png');
      const png = PNG.sync.read(Buffer.from(p.data, 'base64'));
      t.same([png.width, png.height, p.width, p.height], [794, 1123, 794, 1123], 'A4 at 96 DPI');
      // The watermark: grey strokes across the middle of the page, where paper is cream and ink blue.
      let grey = 0;
      for (let y = 400; y < 720; y++) {
        for (let x = 150; x < 650; x++) {
          const i = (y * png.width + x) * 4;
          const [r, g, b] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
          if (r < 225 && Math.abs(r - g) < 14 && Math.abs(g - b) < 14) grey++;
        }
      }
      t.ok(grey > 2000, `watermarked (${grey} grey pixels in the middle)`);
    }

    const again = await call(t, server, 'POST', '/previews', {
      key: a.live,
      body: { templateId: a.templates.live.simple, text: LONG },
    });
    t.equal(again.status, 200, 'an unchanged preview answers 200');
    t.equal(again.body.id, post.body.id, 'with the same job');
    const pdf = await call(t, server, 'GET', `/generations/${post.body.id}/download`, { key: a.live });
    t.equal(pdf.status, 409);
    t.equal(pdf.body.error.code, 'PREVIEW_ONLY');
    t.same(await ledger(server, post.body.id), [], 'no charge');
    t.match(
      (await call(t, server, 'GET', '/usage', { key: a.live })).body,
      { generations: 0, pages: 0 },
      'not a paid generation',
    );

    for (const text of ['Second preview.', 'Third preview.']) {
      const p = await call(t, server, 'POST', '/previews', {
        key: a.live,
        body: { templateId: a.templates.live.simple, text },
      });
      t.equal(p.status, 202, `${text} admitted`);
      await until(t, server, a.live, p.body.id, finished);
    }
    const fourth = await call(t, server, 'POST', '/previews', {
      key: a.live,
      body: { templateId: a.templates.live.simple, text: 'Fourth preview.' },
    });
    t.equal(fourth.status, 429);
    t.equal(fourth.headers.get('retry-after'), '60');
    t.match(fourth.body.error, {
      code: 'RATE_LIMIT_EXCEEDED',
      reason: 'previews-per-minute',
      message: /at most 3 new previews a minute per account/,
    });
    t.match(fourth.headers.get('ratelimit'), /^"previews-per-minute";r=0;t=\d+, "per-key"/);
    const same = await call(t, server, 'POST', '/previews', {
      key: a.live,
      body: { templateId: a.templates.live.simple, text: 'Third preview.' },
    });
    t.equal(same.status, 200, 'an unchanged one is still answered: it is not new');

    const job = await call(t, server, 'POST', '/generations', {
      key: a.live,
      body: { templateId: a.templates.live.simple, text: LETTER },
    });
    await until(t, server, a.live, job.body.id, finished);
    const notPreview = await call(t, server, 'GET', `/generations/${job.body.id}/preview`, { key: a.live });
    t.equal(notPreview.status, 400, 'INVALID_REQUEST, a 400 as the spec pairs it');
    t.equal(notPreview.body.error.code, 'INVALID_REQUEST');
    t.match(notPreview.body.error.message, /is a PDF generation: download it/);
  },
);

t.test(
  'the template is snapshotted into the job: an edit made while it waits touches only new jobs',
  async (t) => {
    const a = await server.tenant();
    const tenant = { accountId: a.accountId, mode: 'live' as const };
    const first = await call(t, server, 'POST', '/generations', {
      key: a.live,
      body: { templateId: a.templates.live.simple, text: LONG },
    });
    const waiting = await call(t, server, 'POST', '/generations', {
      key: a.live,
      body: { templateId: a.templates.live.simple, text: LETTER },
    });
    const record = (await server.ctx.store.templates.get(tenant, a.templates.live.simple))!;
    const a5 = { ...record.model, style: { ...(record.model as { style: object }).style, pageSize: 'A5' } };
    await server.ctx.store.templates.update(tenant, record.id, a5 as typeof record.model, new Date());
    t.equal(
      (await server.ctx.store.generations.find(waiting.body.id))!.status,
      'queued',
      'edited while the job waited',
    );
    const after = await until(t, server, a.live, waiting.body.id, finished);
    t.equal(after.body.creditsSpent, 1.5, 'the waiting job keeps the A4 it was submitted with');
    await until(t, server, a.live, first.body.id, finished);
    const fresh = await call(t, server, 'POST', '/generations', {
      key: a.live,
      body: { templateId: a.templates.live.simple, text: LETTER },
    });
    t.equal(
      (await until(t, server, a.live, fresh.body.id, finished)).body.creditsSpent,
      1,
      'a new job takes the edit (A5: 1 sheet)',
    );
  },
);

t.test(
  'cancels sent while jobs run and finish: each job ends one way, whole (the exact race is in the store contract)',
  async (t) => {
    const a = await server.tenant();
    const ids: string[] = [];
    // A short letter renders in tens of milliseconds: cancels sent sooner or later than that.
    const warm = await call(t, server, 'POST', '/generations', {
      key: a.live,
      body: { templateId: a.templates.live.simple, text: LETTER },
    });
    await until(t, server, a.live, warm.body.id, finished);
    for (let i = 0; i < 20; i++) {
      const post = await call(t, server, 'POST', '/generations', {
        key: a.live,
        body: { templateId: a.templates.live.simple, text: LETTER.repeat(1 + (i % 3) * 8) },
      });
      await new Promise((r) => setTimeout(r, i * 8));
      const cancel = await call(t, server, 'POST', `/generations/${post.body.id}/cancel`, { key: a.live });
      t.ok(
        cancel.status === 200 || (cancel.status === 400 && /completed/.test(cancel.body.error.message)),
        `cancel ${i}: ${cancel.status}`,
      );
      await until(t, server, a.live, post.body.id, finished);
      ids.push(post.body.id);
    }
    await new Promise((r) => setTimeout(r, 500));
    for (const id of ids) {
      const job = (await server.ctx.store.generations.find(id))!;
      const charges = await ledger(server, id);
      const files: string[] = [];
      for await (const key of server.ctx.blobs.list(`outputs/${a.accountId}/${id}`)) files.push(key);
      if (job.status === 'completed') {
        t.equal(charges.length, 1, `${id}: completed and charged once`);
        t.same(files, [job.blobKey], `${id}: its PDF kept`);
      } else {
        t.equal(job.status, 'cancelled');
        t.same(charges, [], `${id}: cancelled and not charged`);
        t.same(files, [], `${id}: no PDF kept`);
      }
    }
  },
);

t.test('a slow reader of a large PDF: the server streams it without holding it', async (t) => {
  const { connect } = await import('node:net');
  const a = await server.tenant();
  const post = await call(t, server, 'POST', '/generations', {
    key: a.live,
    body: { templateId: a.templates.live.simple, text: LETTER },
  });
  await until(t, server, a.live, post.body.id, finished);
  // Replace the output by 55 MB (the PDF limit), as a 200-page document with images would be.
  const big = new Uint8Array(55_000_000);
  for (let i = 0; i < big.length; i += 4096) big[i] = i & 0xff;
  const job = (await server.ctx.store.generations.find(post.body.id))!;
  await server.ctx.blobs.put(job.blobKey!, big, 'application/pdf');
  // Its digest recorded as the completion would have (a download checks what it streams).
  await server.ctx.store.db.kysely
    .updateTable('generations')
    .set({ blob_sha256: sha256Hex(big), blob_bytes: big.length })
    .where('id', '=', job.id)
    .execute();
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  let received = 0;
  await new Promise<void>((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write(
        `GET /api/v1/generations/${job.id}/download HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.live}\r\nConnection: close\r\n\r\n`,
      );
    });
    // Read 1 MB, then pause for a while, again and again: the socket's buffers fill and stay full.
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      peak = Math.max(peak, process.memoryUsage().rss);
      if (received % (1 << 20) < chunk.length) {
        socket.pause();
        setTimeout(() => socket.resume(), 15);
      }
    });
    socket.on('end', resolve);
    socket.on('error', reject);
  });
  t.ok(received > 55_000_000, `the whole file arrived (${received} bytes with headers)`);
  const growth = (peak - before) / 2 ** 20;
  t.ok(
    growth < 40,
    `the server's memory grew ${growth.toFixed(1)} MiB while streaming 52 MiB to a slow reader`,
  );
});

t.test(
  'the queue: 32 queued per instance by default, fewer when configured; 2 running at once in all',
  async (t) => {
    const small = await startTestServer(t, { queueMax: 2, poolThreads: 2 });
    const tenants = await Promise.all([0, 1, 2, 3, 4, 5].map(() => small.tenant()));
    const posts: Answer[] = [];
    for (const x of tenants)
      posts.push(
        await call(t, small, 'POST', '/generations', {
          key: x.live,
          body: { templateId: x.templates.live.simple, text: LONG },
        }),
      );
    // Two run at once (the pool's threads) and two wait in the queue; then it is full.
    t.same(
      posts.map((p) => p.status),
      [202, 202, 202, 202, 429, 429],
      'four admitted: two running, two queued',
    );
    t.match(posts[4]!.body.error.message, /the queue holds 2 jobs, the most allowed is 2/);
    t.equal(posts[4]!.body.error.reason, 'queue-full');
    t.equal(posts[4]!.headers.get('retry-after'), '60');
    let most = 0;
    for (let i = 0; i < 300; i++) {
      const rows = await small.ctx.store.db.kysely.selectFrom('generations').select('status').execute();
      most = Math.max(most, rows.filter((r) => r.status === 'processing').length);
      if (rows.every((r) => r.status === 'completed')) break;
      t.ok(rows.filter((r) => r.status === 'queued').length <= 2, 'never more than 2 queued');
      await new Promise((r) => setTimeout(r, 20));
    }
    t.equal(most, 2, 'never more than 2 running (POOL_THREADS)');
  },
);
