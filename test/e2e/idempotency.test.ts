// Idempotency keys, Location, metadata and list filters over a real server on the embedded
// store: a retried POST with the same key gets the first answer (one job, one asset), another body
// is 400, a request in flight is 409; 20 racing requests with one key make exactly one job.
import t from 'tap';
import { call, startTestServer } from '../helpers/server.ts';
import { png } from '../helpers/images.ts';

const server = await startTestServer(t, { maxUnfinishedJobs: 50 });
const LETTER = 'Dear Margaret, thank you for the lovely afternoon tea last Sunday.';

const jobsOf = async (accountId: string) =>
  server.ctx.store.db.kysely
    .selectFrom('generations')
    .select('id')
    .where('account_id', '=', accountId)
    .execute();

t.test('a retried POST /generations with the same key and body gets the first answer: one job', async (t) => {
  const a = await server.tenant();
  const body = { templateId: a.templates.test.simple, text: LETTER, metadata: { order: 'A-17' } };
  const headers = { 'Idempotency-Key': 'order-A-17-try' };
  const first = await call(t, server, 'POST', '/generations', { key: a.test, body, headers });
  t.equal(first.status, 202);
  t.equal(first.headers.get('location'), `/api/v1/generations/${first.body.id}`, 'Location names the job');
  t.equal(first.headers.get('idempotent-replayed'), null, 'the first answer is not a replay');
  t.same(first.body.metadata, { order: 'A-17' }, 'metadata echoed');
  const again = await call(t, server, 'POST', '/generations', { key: a.test, body, headers });
  t.equal(again.status, 202, 'the same status');
  t.same(again.body, first.body, 'the same body: the same job, as it was answered');
  t.equal(again.headers.get('location'), first.headers.get('location'), 'and its Location');
  t.equal(again.headers.get('idempotent-replayed'), 'true', 'marked as a replay');
  t.not(again.requestId, first.requestId, 'a request id of its own');
  t.equal((await jobsOf(a.accountId)).length, 1, 'one job');
  // The same JSON value, its keys in another order and spaced out: the same request.
  const reordered = await call(t, server, 'POST', '/generations', {
    key: a.test,
    raw: `{ "metadata" : { "order" : "A-17" },\n  "text": ${JSON.stringify(LETTER)}, "templateId": "${body.templateId}" }`,
    headers: { ...headers, 'content-type': 'application/json' },
  });
  t.equal(reordered.status, 202, 'keys in another order and other spacing: replayed, not refused');
  t.equal(reordered.body.id, first.body.id, 'the same job');
  t.equal(reordered.headers.get('idempotent-replayed'), 'true');
  t.equal((await jobsOf(a.accountId)).length, 1, 'still one job');

  const other = await call(t, server, 'POST', '/generations', {
    key: a.test,
    body: { ...body, text: `${LETTER} P.S.` },
    headers,
  });
  t.equal(other.status, 400, 'another body with the same key');
  t.equal(other.body.error.field, 'Idempotency-Key');
  t.match(other.body.error.message, /was first used at .* with another body/);
  const elsewhere = await call(t, server, 'POST', '/previews', { key: a.test, body, headers });
  t.equal(elsewhere.status, 400, 'the same key on another endpoint');
  t.match(elsewhere.body.error.message, /first used at .* on POST \/api\/v1\/generations/);
  const live = await call(t, server, 'POST', '/generations', {
    key: a.live,
    body: { ...body, templateId: a.templates.live.simple },
    headers,
  });
  t.equal(live.status, 202, 'the live key mode has keys of its own');
  t.not(live.body.id, first.body.id);

  const fetched = await call(t, server, 'GET', `/generations/${first.body.id}`, { key: a.test });
  t.same(fetched.body.metadata, { order: 'A-17' }, 'metadata on the job');
});

t.test(
  '20 racing requests with one key make exactly one job; the others replay it or are told it is in flight',
  async (t) => {
    const a = await server.tenant();
    const body = { templateId: a.templates.test.simple, text: LETTER };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(t, server, 'POST', '/generations', {
          key: a.test,
          body,
          headers: { 'Idempotency-Key': 'race-1' },
        }),
      ),
    );
    const jobs = await jobsOf(a.accountId);
    t.equal(jobs.length, 1, 'exactly one job');
    const ok = answers.filter((r) => r.status === 202);
    const busy = answers.filter((r) => r.status === 409);
    t.equal(
      ok.length + busy.length,
      20,
      `every answer is 202 or 409 (${answers.map((r) => r.status).join(' ')})`,
    );
    t.ok(ok.length >= 1, `${ok.length} answered 202`);
    t.ok(
      ok.every((r) => r.body.id === jobs[0]!.id),
      'every 202 names the one job',
    );
    t.equal(ok.filter((r) => r.headers.get('idempotent-replayed') === null).length, 1, 'one of them made it');
    t.ok(
      busy.every(
        (r) => r.body.error.code === 'IDEMPOTENCY_KEY_IN_USE' && r.headers.get('retry-after') === '1',
      ),
      `the ${busy.length} others: IDEMPOTENCY_KEY_IN_USE with Retry-After: 1`,
    );
    const after = await call(t, server, 'POST', '/generations', {
      key: a.test,
      body,
      headers: { 'Idempotency-Key': 'race-1' },
    });
    t.equal(after.body.id, jobs[0]!.id, 'afterwards the key replays the job');
  },
);

t.test('an error is not kept: the same key runs again once the cause is gone', async (t) => {
  const a = await server.tenant();
  const headers = { 'Idempotency-Key': 'retry-after-error' };
  const body = { templateId: a.templates.test.simple, text: LETTER };
  const limited = await startTestServer(t, { maxUnfinishedJobs: 1 });
  const b = await limited.tenant();
  const first = await call(t, limited, 'POST', '/generations', {
    key: b.test,
    body: { ...body, templateId: b.templates.test.simple },
  });
  t.equal(first.status, 202);
  const refused = await call(t, limited, 'POST', '/generations', {
    key: b.test,
    body: { ...body, templateId: b.templates.test.simple, text: 'Second letter' },
    headers,
  });
  t.equal(refused.status, 429, 'over the unfinished-jobs limit');
  await call(t, limited, 'POST', `/generations/${first.body.id}/cancel`, { key: b.test });
  const retried = await call(t, limited, 'POST', '/generations', {
    key: b.test,
    body: { ...body, templateId: b.templates.test.simple, text: 'Second letter' },
    headers,
  });
  t.equal(retried.status, 202, 'the retry with the same key ran again and was admitted');
  t.equal(retried.headers.get('idempotent-replayed'), null, 'not a replay of the 429');

  const bad = await call(t, server, 'POST', '/generations', {
    key: a.test,
    body: { ...body, text: '' },
    headers,
  });
  t.equal(bad.status, 400);
  const fixed = await call(t, server, 'POST', '/generations', {
    key: a.test,
    body: { ...body, text: '' },
    headers,
  });
  t.equal(fixed.status, 400, 'the same bad body is refused again, not replayed');
  t.equal(fixed.headers.get('idempotent-replayed'), null);
});

t.test(
  'POST /assets and /previews keep their answers; cancel takes the header; renders refuse it',
  async (t) => {
    const a = await server.tenant();
    const image = png(40, 30);
    const upload = () =>
      call(t, server, 'POST', '/assets', {
        key: a.test,
        raw: image,
        headers: { 'content-type': 'image/png', 'Idempotency-Key': 'logo-upload' },
      });
    const first = await upload();
    t.equal(first.status, 201);
    const again = await upload();
    t.equal(again.status, 201);
    t.same(again.body, first.body, 'the same asset');
    t.equal(again.headers.get('idempotent-replayed'), 'true');
    const assets = await server.ctx.store.assets.usage(a.accountId);
    t.equal(assets.count, 1, 'stored once');

    const preview = { templateId: a.templates.test.simple, text: LETTER };
    const p1 = await call(t, server, 'POST', '/previews', {
      key: a.test,
      body: preview,
      headers: { 'Idempotency-Key': 'preview-1' },
    });
    t.equal(p1.status, 202);
    t.equal(p1.headers.get('location'), `/api/v1/generations/${p1.body.id}`);
    const p2 = await call(t, server, 'POST', '/previews', {
      key: a.test,
      body: preview,
      headers: { 'Idempotency-Key': 'preview-1' },
    });
    t.equal(p2.headers.get('idempotent-replayed'), 'true');
    t.equal(p2.body.id, p1.body.id);
    const p3 = await call(t, server, 'POST', '/previews', {
      key: a.test,
      body: preview,
      headers: { 'Idempotency-Key': 'preview-2' },
    });
    t.equal(p3.status, 200, 'an unchanged preview under a new key: the existing job');
    const p4 = await call(t, server, 'POST', '/previews', {
      key: a.test,
      body: preview,
      headers: { 'Idempotency-Key': 'preview-2' },
    });
    t.equal(p4.status, 200, 'its answer is kept too');
    t.equal(p4.headers.get('idempotent-replayed'), 'true');

    const cancel = await call(t, server, 'POST', `/generations/${p1.body.id}/cancel`, {
      key: a.test,
      headers: { 'Idempotency-Key': 'cancel-1' },
    });
    t.ok([200, 400].includes(cancel.status), `cancel takes the header (answered ${cancel.status})`);
    const render = await call(t, server, 'POST', '/renders', {
      key: a.test,
      body: { templateId: a.templates.test.simple, text: 'Hi', format: 'svg' },
      headers: { 'Idempotency-Key': 'render-1' },
    });
    t.equal(render.status, 400, 'a render refuses it');
    t.equal(render.body.error.field, 'Idempotency-Key');
    t.match(render.body.error.message, /does not take Idempotency-Key/);
  },
);

t.test('a bad key or bad metadata is 400 naming it, and makes nothing', async (t) => {
  const a = await server.tenant();
  const body = { templateId: a.templates.test.simple, text: LETTER };
  const long = await call(t, server, 'POST', '/generations', {
    key: a.test,
    body,
    headers: { 'Idempotency-Key': 'k'.repeat(256) },
  });
  t.equal(long.status, 400);
  t.match(long.body.error, {
    field: 'Idempotency-Key',
    message: /1-255 visible ASCII characters, got 256 characters/,
  });
  const cases: [unknown, string, RegExp][] = [
    [['a'], 'metadata', /an object of string values, got an array/],
    [{ n: 5 }, 'metadata/n', /must be a string, got 5/],
    [
      Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])),
      'metadata',
      /at most 20 keys, got "21 keys"/,
    ],
    [{ ['x'.repeat(41)]: 'v' }, 'metadata', /keys of 1-40 characters/],
    [{ note: 'n'.repeat(501) }, 'metadata/note', /at most 500 characters.*got "501 characters"/],
    [{ note: 'a\u0007b' }, 'metadata/note', /without control characters/],
    [{ note: 'a\u0085b' }, 'metadata/note', /without control characters/],
    [{ ['k\u009b']: 'v' }, 'metadata', /keys of 1-40 characters without control characters/],
  ];
  for (const [metadata, field, message] of cases) {
    const r = await call(t, server, 'POST', '/generations', { key: a.test, body: { ...body, metadata } });
    t.equal(r.status, 400, field);
    t.match(r.body.error, { code: 'INVALID_REQUEST', field, message }, JSON.stringify(r.body.error.message));
  }
  t.equal((await jobsOf(a.accountId)).length, 0, 'nothing was made');
});

t.test('GET /generations filters by status, kind and creation time', async (t) => {
  const a = await server.tenant();
  const body = { templateId: a.templates.test.simple, text: LETTER };
  const pdf = await call(t, server, 'POST', '/generations', { key: a.test, body });
  const middle = new Date().toISOString();
  await new Promise((r) => setTimeout(r, 5));
  const preview = await call(t, server, 'POST', '/previews', { key: a.test, body });
  const ids = async (q: string) => {
    const r = await call(t, server, 'GET', `/generations?${q}`, { key: a.test });
    t.equal(r.status, 200, q);
    return r.body.data.map((j: { id: string }) => j.id);
  };
  t.same(await ids('kind=preview'), [preview.body.id]);
  t.same(await ids('kind=pdf'), [pdf.body.id]);
  t.same(await ids(`createdFrom=${encodeURIComponent(middle)}`), [preview.body.id]);
  t.same(await ids(`createdTo=${encodeURIComponent(middle)}`), [pdf.body.id]);
  const today = middle.slice(0, 10);
  t.same(await ids(`createdFrom=${today}`), [preview.body.id, pdf.body.id], 'a date is its UTC midnight');
  t.same(await ids(`createdTo=${today}`), [], 'nothing before today');
  const plusOne = middle.replace('Z', '+01:00');
  t.same(
    await ids(`createdFrom=${encodeURIComponent(plusOne)}`),
    [preview.body.id, pdf.body.id],
    'an offset is honoured',
  );
  for (const [q, field, message] of [
    ['kind=letter', 'kind', /pdf or preview, got "letter"/],
    ['createdFrom=yesterday', 'createdFrom', /a date YYYY-MM-DD/],
    ['createdFrom=2026-02-30', 'createdFrom', /exists on the calendar/],
    ['createdTo=2026-11-24T25:00:00Z', 'createdTo', /date-time with its offset/],
    [`createdFrom=${today}&createdTo=${today}`, 'createdTo', /must be after createdFrom/],
  ] as const) {
    const r = await call(t, server, 'GET', `/generations?${q}`, { key: a.test });
    t.equal(r.status, 400, q);
    t.match(r.body.error, { field, message }, q);
  }
});
