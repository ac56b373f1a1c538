// Batches over a real server on the embedded store: JSON rows and CSV in, each row its own job,
// seed and charge; bad rows refused with nothing created; the batch as one unfinished job; the
// whole estimate checked; Idempotency-Key; rows paged; the ZIP streamed; cancel; expiry; events.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { importTemplate, topUp } from '../../src/app/admin.ts';
import { readExample } from '../../src/app/demo.ts';
import { rowSeed } from '../../src/domain/batch.ts';
import { readChunked, slowGet } from '../helpers/raw-http.ts';
import { startReceiver, until } from '../helpers/receiver.ts';
import { type Answer, call, startTestServer, type TestServer } from '../helpers/server.ts';

const server = await startTestServer(t);

async function batchEnded(
  t: Test,
  s: TestServer,
  key: string,
  id: string,
  ms = 120_000,
): Promise<Answer['body']> {
  const end = Date.now() + ms;
  for (;;) {
    const a = await call(t, s, 'GET', `/batches/${id}`, { key });
    if (
      a.status !== 200 ||
      a.body.status === 'completed' ||
      a.body.status === 'cancelled' ||
      Date.now() > end
    )
      return a.body;
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Every row of a batch, page after page. */
async function allRows(t: Test, s: TestServer, key: string, id: string, query = '') {
  const rows: Answer['body'][] = [];
  let cursor: string | null = null;
  do {
    const a: Answer = await call(
      t,
      s,
      'GET',
      `/batches/${id}/rows?limit=2${query}${cursor ? `&cursor=${cursor}` : ''}`,
      { key },
    );
    t.equal(a.status, 200);
    rows.push(...a.body.data);
    cursor = a.body.nextCursor;
  } while (cursor);
  return rows;
}

async function ledger(s: TestServer, jobIds: string[]) {
  return s.ctx.store.db.kysely.selectFrom('ledger').selectAll().where('job_id', 'in', jobIds).execute();
}

const NAMES = ['margaret', 'tom', 'ada', 'grace', 'alan'];
const letters = NAMES.map((n) => ({
  text: `Dear ${n[0]!.toUpperCase()}${n.slice(1)}, thank you for coming to the garden party. It would not have been the same without you.`,
  metadata: { name: n },
}));

t.test(
  'a batch of JSON rows: 202 queued, every row its own job, seed and charge; rows paged; one ZIP of the PDFs',
  async (t) => {
    const a = await server.tenant();
    const post = await call(t, server, 'POST', '/batches', {
      key: a.test,
      body: { templateId: a.templates.test.simple, rows: letters, metadata: { campaign: 'november' } },
    });
    t.equal(post.status, 202);
    t.match(post.body, {
      id: /^bat_/,
      status: 'queued',
      templateId: a.templates.test.simple,
      rows: { total: 5, queued: 5, processing: 0, completed: 0, failed: 0, cancelled: 0 },
      pages: 0,
      creditsSpent: 0,
      metadata: { campaign: 'november' },
    });
    t.equal(post.headers.get('location'), `/api/v1/batches/${post.body.id}`);
    t.notOk('downloadUrl' in post.body, 'no ZIP yet');

    const done = await batchEnded(t, server, a.test, post.body.id);
    t.equal(done.status, 'completed');
    t.same(done.rows, { total: 5, queued: 0, processing: 0, completed: 5, failed: 0, cancelled: 0 });
    t.equal(done.pages, 5);
    t.equal(done.creditsSpent, 7.5, 'five A4 pages at 1.5 sheets');
    t.equal(done.downloadUrl, `/api/v1/batches/${post.body.id}/download`);
    t.ok(done.completedAt && done.expiresAt, 'its end and the first expiry are dated');

    const rows = await allRows(t, server, a.test, post.body.id);
    t.same(
      rows.map((r) => r.row),
      [0, 1, 2, 3, 4],
      'rows in row order over three pages',
    );
    for (const r of rows) {
      t.match(r, { id: /^gen_/, status: 'completed', pages: 1, creditsSpent: 1.5, batchId: post.body.id });
      t.equal(r.seed, rowSeed(post.body.id, r.row), 'each row has the seed of its batch and index');
      t.same(r.metadata, { name: NAMES[r.row] });
    }
    t.equal(new Set(rows.map((r) => r.seed)).size, 5, 'no two rows share a seed');
    const charges = await ledger(
      server,
      rows.map((r) => r.id),
    );
    t.equal(charges.length, 5, 'one charge a row');
    t.ok(
      charges.every((c) => Number(c.total_milli) === 1500 && Number(c.pages) === 1),
      'each for its own page',
    );

    const usage = await call(t, server, 'GET', '/usage', { key: a.test });
    t.equal(usage.body.generations, 5, 'usage counts the rows as generations');
    t.equal(usage.body.successfulGenerations, 5);

    const list = await call(t, server, 'GET', '/generations', { key: a.test });
    t.equal(list.body.data.length, 0, "the rows do not crowd the account's job list");
    const one = await call(t, server, 'GET', `/generations/${rows[2].id}`, { key: a.test });
    t.match(one.body, { status: 'completed', batchId: post.body.id, row: 2 });
    const pdf = await call(t, server, 'GET', `/generations/${rows[2].id}/download`, { key: a.test });
    t.equal(pdf.status, 200, "each row's PDF is downloadable");

    const res = await fetch(`${server.base}${done.downloadUrl}?name=name`, {
      headers: { authorization: `Bearer ${a.test}` },
    });
    const zip = Buffer.from(await res.arrayBuffer());
    t.equal(res.status, 200);
    t.equal(res.headers.get('content-type'), 'application/zip');
    t.equal(Number(res.headers.get('content-length')), zip.length, 'its length known before the first byte');
    const dir = mkdtempSync(join(tmpdir(), 'scriptorium-batch-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'letters.zip'), zip);
    const listing = execFileSync('unzip', ['-Z1', join(dir, 'letters.zip')], { encoding: 'utf8' });
    t.same(listing.trim().split('\n'), [
      '0-margaret.pdf',
      '1-tom.pdf',
      '2-ada.pdf',
      '3-grace.pdf',
      '4-alan.pdf',
    ]);
    execFileSync('unzip', ['-q', '-t', join(dir, 'letters.zip')]);
    const entry = execFileSync('unzip', ['-p', join(dir, 'letters.zip'), '2-ada.pdf']);
    t.ok(entry.equals(pdf.bytes), "an entry is the row's PDF, byte for byte");
    const again = await fetch(`${server.base}${done.downloadUrl}?name=name`, {
      headers: { authorization: `Bearer ${a.test}` },
    });
    t.ok(Buffer.from(await again.arrayBuffer()).equals(zip), 'the same batch gives the same ZIP');
    const plain = await call(t, server, 'GET', `/batches/${post.body.id}/download`, { key: a.test });
    t.equal(plain.status, 200, 'without name the entries are the indexes alone');
    t.notOk('mergedUrl' in done, 'no merged PDF without merge: true');
    const unmerged = await call(t, server, 'GET', `/batches/${post.body.id}/merged`, { key: a.test });
    t.equal(unmerged.status, 409);
    t.match(unmerged.body.error, { code: 'GENERATION_NOT_READY', message: /without merge: true/ });

    const listed = await call(t, server, 'GET', '/batches', { key: a.test });
    t.equal(listed.body.data[0].id, post.body.id, 'GET /batches lists it');
    const other = await server.tenant();
    const foreign = await call(t, server, 'GET', `/batches/${post.body.id}`, { key: other.test });
    t.equal(foreign.status, 404);
    t.equal(foreign.body.error.code, 'BATCH_NOT_FOUND', "another account's batch does not exist for it");
    const live = await call(t, server, 'GET', `/batches/${post.body.id}`, { key: a.live });
    t.equal(live.status, 404, 'nor for a live key');
  },
);

t.test('a CSV batch for a structured template: columns map to data paths, seed and metadata', async (t) => {
  const a = await server.tenant();
  const csv = [
    'title,points[0],points[1],figures[0].item,figures[0].value,summary,metadata.name,seed',
    'Botany,Roots drink,Leaves breathe,Oak,12,,ada,77',
    '"Chemistry, first term",Atoms bond,,Salt,"3,5",Mix well,tom,',
  ].join('\r\n');
  const post = await call(t, server, 'POST', '/batches', {
    key: a.test,
    body: { templateId: a.templates.test.structured, csv },
  });
  t.equal(post.status, 202, JSON.stringify(post.body));
  const done = await batchEnded(t, server, a.test, post.body.id);
  t.equal(done.rows.completed, 2);
  const jobs = await server.ctx.store.db.kysely
    .selectFrom('generations')
    .select(['row_index', 'input', 'seed', 'metadata'])
    .where('batch_id', '=', post.body.id)
    .orderBy('row_index')
    .execute();
  t.same(JSON.parse(jobs[0]!.input), {
    data: {
      title: 'Botany',
      points: ['Roots drink', 'Leaves breathe'],
      figures: [{ item: 'Oak', value: '12' }],
    },
  });
  t.same(JSON.parse(jobs[1]!.input), {
    data: {
      title: 'Chemistry, first term',
      points: ['Atoms bond'],
      figures: [{ item: 'Salt', value: '3,5' }],
      summary: 'Mix well',
    },
  });
  t.equal(Number(jobs[0]!.seed), 77, 'a seed column sets the row seed');
  t.equal(Number(jobs[1]!.seed), rowSeed(post.body.id, 1), 'an empty one leaves the derived seed');
  t.same(JSON.parse(jobs[1]!.metadata!), { name: 'tom' });
});

t.test('CSV lines may end in CRLF or LF, mixed in one file: each ends a row outside quotes', async (t) => {
  const a = await server.tenant();
  const csv = 'text,metadata.n\r\nDear Ada,1\r\n"Dear Tom,\r\nsee you",2\nDear Grace,3\nDear Alan,4\r\n';
  const post = await call(t, server, 'POST', '/batches', {
    key: a.test,
    body: { templateId: a.templates.test.simple, csv },
  });
  t.equal(post.status, 202, JSON.stringify(post.body).slice(0, 300));
  t.equal(post.body.rows.total, 4, 'four rows, none merged');
  const rows = await allRows(t, server, a.test, post.body.id);
  t.same(
    rows.map((r) => r.metadata.n),
    ['1', '2', '3', '4'],
  );
  await call(t, server, 'POST', `/batches/${post.body.id}/cancel`, { key: a.test });
});

t.test('bad rows are refused naming the first rows and fields, and nothing is created', async (t) => {
  const a = await server.tenant();
  const count = async () => ({
    batches: (await server.ctx.store.batches.list({ accountId: a.accountId, mode: 'test' }, { limit: 10 }))
      .data.length,
    jobs: (
      await server.ctx.store.db.kysely
        .selectFrom('generations')
        .select('id')
        .where('account_id', '=', a.accountId)
        .execute()
    ).length,
  });
  const data = await call(t, server, 'POST', '/batches', {
    key: a.test,
    body: {
      templateId: a.templates.test.structured,
      rows: [
        { data: { title: 'Fine', points: ['one'] } },
        { data: { title: 'Bad', points: 'not a list' } },
        { data: { title: 'Fine', points: ['two'] } },
        { data: { title: 42, points: ['three'] } },
      ],
    },
  });
  t.equal(data.status, 400);
  t.equal(data.body.error.code, 'INVALID_TEMPLATE_DATA');
  t.equal(data.body.error.field, 'rows/1/points');
  t.match(data.body.error.message, /2 rows are not valid.*rows\/1: .*points.*rows\/3: .*title/);

  const mixed = await call(t, server, 'POST', '/batches', {
    key: a.test,
    body: { templateId: a.templates.test.simple, rows: [{ text: 'ok' }, { text: '' }, { txt: 'typo' }] },
  });
  t.equal(mixed.status, 400);
  t.equal(mixed.body.error.code, 'INVALID_REQUEST');
  t.equal(mixed.body.error.field, 'rows/1/text');
  t.match(mixed.body.error.message, /rows\/2: unknown field txt/);

  const csv = await call(t, server, 'POST', '/batches', {
    key: a.test,
    body: { templateId: a.templates.test.simple, csv: 'text,colour\nhello,blue\n' },
  });
  t.equal(csv.status, 400);
  t.equal(csv.body.error.field, 'csv/colour', 'a column the template cannot take is named');
  const broken = await call(t, server, 'POST', '/batches', {
    key: a.test,
    body: { templateId: a.templates.test.simple, csv: 'text\n"unclosed\n' },
  });
  t.equal(broken.status, 400);
  t.equal(broken.body.error.field, 'csv');

  // CSV as RFC 4180 reads it: columns once, required ones once, text that was UTF-8.
  for (const [label, templateId, text, field, message] of [
    [
      'a column given twice',
      a.templates.test.simple,
      'text,text\nDear Ada,Dear Tom\n',
      'csv/text',
      /csv columns 1 and 2 are both "text"; a column may be given once/,
    ],
    [
      'a required column missing',
      a.templates.test.structured,
      `points[0],summary\n${'one,two\n'.repeat(30)}`,
      'csv/title',
      /^csv has no column for title, which the template requires of every row$/,
    ],
    [
      'a file read as UTF-8 that was Latin-1',
      a.templates.test.simple,
      'text\nDear Ada\nDear Ren\uFFFDe\n',
      'csv',
      /csv is not UTF-8 text: line 3 holds U\+FFFD/,
    ],
  ] as const) {
    const r = await call(t, server, 'POST', '/batches', { key: a.test, body: { templateId, csv: text } });
    t.equal(r.status, 400, label);
    t.equal(r.body.error.field, field, `${label}: named`);
    t.match(r.body.error.message, message, `${label}: said once, not per row`);
  }

  for (const [body, field] of [
    [{ templateId: a.templates.test.simple }, 'rows'],
    [{ templateId: a.templates.test.simple, rows: [], csv: 'text\nx' }, 'csv'],
    [{ templateId: a.templates.test.simple, rows: [] }, 'rows'],
    [{ templateId: a.templates.test.simple, rows: Array(10_001).fill({ text: 'x' }) }, 'rows'],
    [{ templateId: a.templates.test.simple, rows: [{ text: 'x', seed: -1 }] }, 'rows/0/seed'],
    [{ templateId: a.templates.test.simple, rows: [{ text: 'x' }], merge: 'yes' }, 'merge'],
    [{ templateId: 'tpl_nope', rows: [{ text: 'x' }] }, 'templateId'],
  ] as const) {
    const r = await call(t, server, 'POST', '/batches', { key: a.test, body });
    t.equal(r.body.error?.field, field, `${JSON.stringify(body).slice(0, 80)} → ${r.body.error?.message}`);
  }
  t.same(await count(), { batches: 0, jobs: 0 }, 'no batch and no job was created');
});

t.test('money and limits: the whole estimate is checked; a batch is one unfinished job', async (t) => {
  const a = await server.tenant();
  // 100 test sheets cover 66 A4 pages at 1.5.
  const many = Array.from({ length: 67 }, (_, i) => ({ text: `Letter number ${i + 1}.` }));
  const poor = await call(t, server, 'POST', '/batches', {
    key: a.test,
    body: { templateId: a.templates.test.simple, rows: many },
  });
  t.equal(poor.status, 402);
  t.equal(poor.body.error.code, 'INSUFFICIENT_BALANCE');
  t.match(poor.body.error.message, /67 rows.*100\.5 sheets, 100 available/);

  await topUp(server.ctx, { account: a.accountId, sheets: 1000, mode: 'test' });
  const long = 'A long letter that keeps the pen busy for a while. '.repeat(400);
  const first = await call(t, server, 'POST', '/batches', {
    key: a.test,
    body: { templateId: a.templates.test.simple, rows: Array.from({ length: 6 }, () => ({ text: long })) },
  });
  t.equal(first.status, 202);
  const single = await call(t, server, 'POST', '/generations', {
    key: a.test,
    body: { templateId: a.templates.test.simple, text: long },
  });
  t.equal(single.status, 202, 'a batch of six rows leaves room for one more job of the two');
  const third = await call(t, server, 'POST', '/batches', {
    key: a.test,
    body: { templateId: a.templates.test.simple, rows: [{ text: 'one more' }] },
  });
  t.equal(third.status, 429);
  t.equal(third.body.error.reason, 'unfinished-jobs');

  // Cancel: rows not started are cancelled uncharged; running ones finish.
  const cancel = await call(t, server, 'POST', `/batches/${first.body.id}/cancel`, { key: a.test });
  t.equal(cancel.status, 200);
  t.ok(cancel.body.cancelledAt, 'the cancel is dated');
  const ended = await batchEnded(t, server, a.test, first.body.id);
  t.equal(ended.status, 'cancelled');
  t.ok(ended.rows.cancelled >= 1, `${ended.rows.cancelled} rows cancelled`);
  t.equal(ended.rows.completed + ended.rows.cancelled + ended.rows.failed, 6);
  const rows = await allRows(t, server, a.test, first.body.id, '&status=cancelled');
  t.equal(rows.length, ended.rows.cancelled, 'rows filter by status');
  t.same(
    await ledger(
      server,
      rows.map((r) => r.id),
    ),
    [],
    'a cancelled row is not charged',
  );
  const again = await call(t, server, 'POST', `/batches/${first.body.id}/cancel`, { key: a.test });
  t.equal(again.status, 200, 'cancelling again answers the same');
  t.equal(again.body.status, 'cancelled');
  await call(t, server, 'POST', `/generations/${single.body.id}/cancel`, { key: a.test });
});

t.test('Idempotency-Key: the same key and body answer the first batch, and make one', async (t) => {
  const a = await server.tenant();
  const body = { templateId: a.templates.test.simple, rows: letters.slice(0, 2) };
  const headers = { 'idempotency-key': 'thanks-november' };
  const one = await call(t, server, 'POST', '/batches', { key: a.test, body, headers });
  const two = await call(t, server, 'POST', '/batches', { key: a.test, body, headers });
  t.equal(one.status, 202);
  t.equal(two.status, 202);
  t.equal(two.body.id, one.body.id);
  t.equal(two.headers.get('idempotent-replayed'), 'true');
  const listed = await call(t, server, 'GET', '/batches', { key: a.test });
  t.equal(listed.body.data.length, 1, 'one batch');
  const other = await call(t, server, 'POST', '/batches', {
    key: a.test,
    body: { ...body, rows: letters.slice(0, 3) },
    headers,
  });
  t.equal(other.status, 400, 'the same key with another body is refused');
  await batchEnded(t, server, a.test, one.body.id);
});

t.test('expired outputs: the ZIP answers 410; a batch still running answers 409', async (t) => {
  const a = await server.tenant();
  const post = await call(t, server, 'POST', '/batches', {
    key: a.test,
    body: { templateId: a.templates.test.simple, rows: letters.slice(0, 2) },
  });
  const early = await call(t, server, 'GET', `/batches/${post.body.id}/download`, { key: a.test });
  t.equal(early.status, 409);
  t.equal(early.body.error.code, 'GENERATION_NOT_READY');
  await batchEnded(t, server, a.test, post.body.id);
  await server.ctx.store.db.kysely
    .updateTable('generations')
    .set({ expires_at: '2000-01-01T00:00:00.000Z' })
    .where('batch_id', '=', post.body.id)
    .execute();
  const gone = await call(t, server, 'GET', `/batches/${post.body.id}/download`, { key: a.test });
  t.equal(gone.status, 410);
  t.equal(gone.body.error.code, 'GENERATION_EXPIRED');
});

t.test('batch.completed: sent once with the counts; row events only when asked for', async (t) => {
  const hooked = await startTestServer(t, { webhookPrivateTargets: true, webhookPollMs: 50 });
  const secret = `whsec_${'b'.repeat(32)}`;
  const receiver = await startReceiver(t, () => secret);
  const a = await hooked.tenant();
  await hooked.ctx.store.webhooks.addEndpoint(
    { accountId: a.accountId, mode: 'test' },
    { url: receiver.url, events: ['batch.completed', 'generation.completed'], description: '', secret },
    new Date(),
  );
  const quiet = await call(t, hooked, 'POST', '/batches', {
    key: a.test,
    body: { templateId: a.templates.test.simple, rows: [{ text: 'Dear Ada.' }] },
  });
  const loud = await call(t, hooked, 'POST', '/batches', {
    key: a.test,
    body: { templateId: a.templates.test.simple, rows: letters.slice(0, 3), rowEvents: true },
  });
  await until('both batch events arrived', () => receiver.batches.length >= 2, 60_000);
  await batchEnded(t, hooked, a.test, loud.body.id);
  await until('the row events arrived', () => receiver.processed.length >= 3, 20_000);
  const ofLoud = receiver.batches.find((e) => e.data.batch.id === loud.body.id);
  t.match(ofLoud?.data.batch, {
    status: 'completed',
    rows: { total: 3, completed: 3, failed: 0 },
    pages: 3,
    creditsSpent: 4.5,
    downloadUrl: `/api/v1/batches/${loud.body.id}/download`,
  });
  t.equal(receiver.batches.filter((e) => e.data.batch.id === quiet.body.id).length, 1, 'once per batch');
  const rowEvents = receiver.processed.filter((e) => e.data.generation.batchId !== undefined);
  t.same(
    rowEvents.map((e) => e.data.generation.batchId),
    [loud.body.id, loud.body.id, loud.body.id],
    'row events for the batch that asked, none for the other',
  );
});

t.test('envelopes: a CSV of addresses written on DL envelopes in landscape, billed as A4', async (t) => {
  const a = await server.tenant();
  const json = readExample('envelope', {}).template;
  const tpl = await importTemplate(server.ctx, {
    account: a.accountId,
    mode: 'test',
    json,
    source: 'envelope',
  });
  const csv =
    'name,street,city,country\nMrs Margaret Hale,14 Rosemary Lane,Helstone SO41 8QT,England\nMr John Thornton,Marlborough Mills,Milton,\n';
  const post = await call(t, server, 'POST', '/batches', { key: a.test, body: { templateId: tpl.id, csv } });
  t.equal(post.status, 202, JSON.stringify(post.body));
  const done = await batchEnded(t, server, a.test, post.body.id);
  t.match(
    done,
    { status: 'completed', pages: 2, creditsSpent: 3 },
    'two envelopes at 1.5 sheets (DL fits A4, not A5)',
  );
  const [row] = await allRows(t, server, a.test, post.body.id);
  const pdf = await call(t, server, 'GET', `/generations/${row.id}/download`, { key: a.test });
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-envelope-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'envelope.pdf'), pdf.bytes);
  const info = execFileSync('pdfinfo', [join(dir, 'envelope.pdf')], { encoding: 'utf8' });
  t.match(info, /Page size:\s+623\.6\d* x 311\.8\d* pts/, 'a DL envelope, 220 x 110 mm, landscape');
  const text = execFileSync('pdftotext', [join(dir, 'envelope.pdf'), '-'], { encoding: 'utf8' });
  t.match(
    text,
    /Mrs Margaret Hale[\s\S]*14 Rosemary Lane[\s\S]*Helstone SO41 8QT[\s\S]*England/,
    'the address block, line by line',
  );
});

t.test(
  'the merged PDF of 250 one-page rows is whole: it passes qpdf, ends its chunked answer and is the same bytes again',
  async (t) => {
    const a = await server.tenant();
    await topUp(server.ctx, { account: a.accountId, sheets: 300, mode: 'test' });
    const rows = Array.from({ length: 250 }, (_, i) => ({
      text: `Dear friend ${i}, thank you for the lovely afternoon in the garden. It was a joy.`,
    }));
    const post = await call(t, server, 'POST', '/batches', {
      key: a.test,
      body: { templateId: a.templates.test.simple, rows, merge: true },
    });
    if (!t.equal(post.status, 202, JSON.stringify(post.body))) return;
    const done = await batchEnded(t, server, a.test, post.body.id, 300_000);
    t.match(done, { status: 'completed', rows: { completed: 250 }, pages: 250 });
    // Read slowly, so the server's socket fills while the cross-reference table goes out.
    const first = readChunked(
      await slowGet(server.port, done.mergedUrl, { authorization: `Bearer ${a.test}` }),
    );
    t.match(first.head, /^http\/1\.1 200/);
    t.match(first.head, /transfer-encoding: chunked/);
    t.ok(first.ended, 'the chunked answer ends with its last chunk');
    const dir = mkdtempSync(join(tmpdir(), 'scriptorium-merged-250-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'merged.pdf'), first.body);
    execFileSync('qpdf', ['--check', join(dir, 'merged.pdf')]);
    t.match(execFileSync('pdfinfo', [join(dir, 'merged.pdf')], { encoding: 'utf8' }), /Pages:\s+250\n/);
    const again = await call(t, server, 'GET', `/batches/${post.body.id}/merged`, { key: a.test });
    t.equal(again.status, 200);
    t.ok(again.bytes.equals(first.body), `the same ${first.body.length} bytes on a second download`);
  },
);

t.test('a letter and its envelope for every row: two documents a row, each billed by its size', async (t) => {
  const a = await server.tenant();
  const json = readExample('envelope', {}).template;
  const envelope = await importTemplate(server.ctx, {
    account: a.accountId,
    mode: 'test',
    json,
    source: 'envelope',
  });
  const csv = [
    'text,envelope.name,envelope.street,envelope.city,metadata.name',
    '"Dear Margaret, thank you for the roses.",Mrs Margaret Hale,14 Rosemary Lane,Helstone SO41 8QT,margaret',
    '"Dear John, thank you for the tour of the mill.",Mr John Thornton,Marlborough Mills,Milton,john',
  ].join('\n');
  const post = await call(t, server, 'POST', '/batches', {
    key: a.test,
    body: { templateId: a.templates.test.simple, csv, envelope: { templateId: envelope.id }, merge: true },
  });
  t.equal(post.status, 202, JSON.stringify(post.body));
  t.equal(post.body.merge, true);
  t.notOk('mergedUrl' in post.body, 'nothing to merge yet');
  const early = await call(t, server, 'GET', `/batches/${post.body.id}/merged`, { key: a.test });
  t.equal(early.status, 409, 'not while it runs');
  t.match(post.body, {
    rows: { total: 2, queued: 2 },
    envelopeTemplateId: envelope.id,
    envelopes: { total: 2, queued: 2 },
  });
  const done = await batchEnded(t, server, a.test, post.body.id);
  t.match(
    done,
    {
      status: 'completed',
      rows: { completed: 2 },
      envelopes: { completed: 2 },
      pages: 4,
      creditsSpent: 6,
    },
    'an A4 letter and a DL envelope a row, 1.5 sheets each',
  );
  const rows = await allRows(t, server, a.test, post.body.id);
  t.equal(rows.length, 2, 'listed by row');
  t.match(rows[1], {
    row: 1,
    part: 'letter',
    envelope: { row: 1, part: 'envelope', status: 'completed', creditsSpent: 1.5 },
  });
  t.not(rows[1].seed, rows[1].envelope.seed, 'the envelope has a seed of its own');
  const zip = await call(t, server, 'GET', `/batches/${post.body.id}/download?name=name`, { key: a.test });
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-letters-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'letters.zip'), zip.bytes);
  t.same(
    execFileSync('unzip', ['-Z1', join(dir, 'letters.zip')], { encoding: 'utf8' })
      .trim()
      .split('\n'),
    ['0-margaret.pdf', '0-margaret-envelope.pdf', '1-john.pdf', '1-john-envelope.pdf'],
  );
  const env = execFileSync('unzip', ['-p', join(dir, 'letters.zip'), '1-john-envelope.pdf']);
  writeFileSync(join(dir, 'envelope.pdf'), env);
  t.match(
    execFileSync('pdftotext', [join(dir, 'envelope.pdf'), '-'], { encoding: 'utf8' }),
    /Mr John Thornton[\s\S]*Marlborough Mills/,
  );

  // merge: true — the letters as one PDF in row order, the envelopes as another.
  t.equal(done.mergedUrl, `/api/v1/batches/${post.body.id}/merged`);
  const merged = await fetch(`${server.base}${done.mergedUrl}`, {
    headers: { authorization: `Bearer ${a.test}` },
  });
  t.equal(merged.status, 200);
  t.equal(merged.headers.get('content-type'), 'application/pdf');
  t.equal(merged.headers.get('transfer-encoding'), 'chunked', 'merged as it is sent: no length up front');
  t.match(merged.headers.get('content-disposition'), `filename="${post.body.id}.pdf"`);
  const letters = Buffer.from(await merged.arrayBuffer());
  writeFileSync(join(dir, 'letters.pdf'), letters);
  execFileSync('qpdf', ['--check', join(dir, 'letters.pdf')]);
  const info = execFileSync('pdfinfo', [join(dir, 'letters.pdf')], { encoding: 'utf8' });
  t.match(info, /Pages:\s+2\n/, 'one page a letter');
  t.match(info, new RegExp(`Title:\\s+Letters of batch ${post.body.id}`));
  t.match(info, /Page size:\s+595\.\d* x 841\.\d* pts \(A4\)/);
  const text = execFileSync('pdftotext', [join(dir, 'letters.pdf'), '-'], { encoding: 'utf8' });
  t.match(text, /Dear Margaret[\s\S]*roses[\s\S]*\f[\s\S]*Dear John[\s\S]*mill/, 'row 0, then row 1');
  for (const [i, name] of ['0-margaret.pdf', '1-john.pdf'].entries()) {
    writeFileSync(join(dir, name), execFileSync('unzip', ['-p', join(dir, 'letters.zip'), name]));
    const one = execFileSync('pdftoppm', ['-r', '40', '-gray', join(dir, name)]);
    const page = execFileSync('pdftoppm', [
      '-r',
      '40',
      '-gray',
      '-f',
      `${i + 1}`,
      '-l',
      `${i + 1}`,
      join(dir, 'letters.pdf'),
    ]);
    t.ok(page.equals(one), `page ${i + 1} draws as row ${i}'s own PDF, pixel for pixel`);
  }
  const twice = await call(t, server, 'GET', `/batches/${post.body.id}/merged`, { key: a.test });
  t.ok(twice.bytes.equals(letters), 'the same batch merges to the same bytes');
  const envelopes = await call(t, server, 'GET', `/batches/${post.body.id}/merged?part=envelope`, {
    key: a.test,
  });
  t.equal(envelopes.status, 200);
  writeFileSync(join(dir, 'envelopes.pdf'), envelopes.bytes);
  const envInfo = execFileSync('pdfinfo', [join(dir, 'envelopes.pdf')], { encoding: 'utf8' });
  t.match(envInfo, /Pages:\s+2\n/);
  t.match(envInfo, /Page size:\s+623\.\d* x 311\.\d* pts/, 'DL, landscape');
  t.match(
    execFileSync('pdftotext', [join(dir, 'envelopes.pdf'), '-'], { encoding: 'utf8' }),
    /Mrs Margaret Hale[\s\S]*\f[\s\S]*Mr John Thornton/,
  );
  const badPart = await call(t, server, 'GET', `/batches/${post.body.id}/merged?part=both`, { key: a.test });
  t.equal(badPart.status, 400);
  t.match(badPart.body.error, { field: 'part', message: /letter or envelope.*both/ });

  const bad = await call(t, server, 'POST', '/batches', {
    key: a.test,
    body: {
      templateId: a.templates.test.simple,
      rows: [{ text: 'Dear Ada.', envelope: { data: { name: 'Ada', street: 42 } } }],
      envelope: { templateId: envelope.id },
    },
  });
  t.equal(bad.status, 400);
  t.equal(bad.body.error.field, 'rows/0/envelope/street', 'a bad envelope value is named at its row');
  const missing = await call(t, server, 'POST', '/batches', {
    key: a.test,
    body: {
      templateId: a.templates.test.simple,
      rows: [{ text: 'Dear Ada.' }],
      envelope: { templateId: envelope.id },
    },
  });
  t.equal(missing.body.error?.field, 'rows/0/envelope', 'a row without its envelope is refused');
  const stray = await call(t, server, 'POST', '/batches', {
    key: a.test,
    body: { templateId: a.templates.test.simple, rows: [{ text: 'Dear Ada.', envelope: { text: 'Ada' } }] },
  });
  t.equal(stray.body.error?.field, 'rows/0/envelope', 'an envelope without an envelope template is refused');
  const foreign = await call(t, server, 'POST', '/batches', {
    key: a.test,
    body: {
      templateId: a.templates.test.simple,
      rows: [{ text: 'x' }],
      envelope: { templateId: a.templates.live.simple },
    },
  });
  t.equal(foreign.body.error?.field, 'envelope/templateId');
});
