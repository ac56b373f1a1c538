// Route handlers in process, through the whole pipeline (request id → auth → limits → route →
// handler → the one error mapper), on a real SQLite store and directory, with the in-process
// renderer and queue: no HTTP server, no thread pool. The same checks as over HTTP apply to
// every answer (one X-Request-ID, the error's requestId, conformance to the OpenAPI document).
import t from 'tap';
import { png } from '../helpers/images.ts';
import { call, startInProcess } from '../helpers/server.ts';

const TOKEN = 'an-admin-token-of-thirty-two-chars';
const server = await startInProcess(t, { adminToken: TOKEN, keysMax: 2 });
const a = await server.tenant();

t.test('a key is needed, and a wrong one is refused by code', async (t) => {
  const none = await call(t, server, 'GET', '/templates');
  t.equal(none.status, 401);
  t.equal(none.body.error.code, 'INVALID_API_KEY');
  const unknown = await call(t, server, 'GET', '/templates', { key: 'sk_live_nothing' });
  t.equal(unknown.status, 401);
});

t.test('a synchronous render answers with the image', async (t) => {
  const svg = await call(t, server, 'POST', '/renders', {
    key: a.live,
    body: { templateId: a.templates.live.simple, text: 'In process.', format: 'svg' },
  });
  t.equal(svg.status, 200, JSON.stringify(svg.body).slice(0, 200));
  t.match(svg.headers.get('content-type'), /^image\/svg\+xml/);
  t.match(svg.body, /<svg[^>]*viewBox/);
});

t.test('the demo caption renders as a strip, not a sheet', async (t) => {
  const { readExample } = await import('../../src/app/demo.ts');
  const { importTemplate } = await import('../../src/app/admin.ts');
  const caption = readExample('caption', {});
  const tpl = await importTemplate(server.ctx, {
    account: a.accountId,
    mode: 'live',
    json: caption.template,
    source: 'caption',
  });
  const png = await call(t, server, 'POST', '/renders', {
    key: a.live,
    body: { templateId: tpl.id, ...caption.input, format: 'png' },
  });
  t.equal(png.status, 200);
  t.same([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)], [1800, 360], '1200 x 240 px at 144 DPI');
});

t.test(
  'a generation is queued, rendered in process, charged, downloaded; a finished job cannot be cancelled',
  async (t) => {
    const post = await call(t, server, 'POST', '/generations', {
      key: a.live,
      body: { templateId: a.templates.live.simple, text: 'Dear reader,\n\nwritten in process.' },
    });
    t.equal(post.status, 202);
    let job = post.body;
    for (let i = 0; i < 300 && job.status !== 'completed' && job.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      job = (await call(t, server, 'GET', `/generations/${post.body.id}`, { key: a.live })).body;
    }
    t.equal(job.status, 'completed', JSON.stringify(job));
    t.equal(job.pages, 1);
    const pdf = await call(t, server, 'GET', `/generations/${job.id}/download`, { key: a.live });
    t.equal(pdf.status, 200);
    t.equal(pdf.headers.get('content-type'), 'application/pdf');
    t.equal(String(pdf.body).slice(0, 5), '%PDF-');
    const late = await call(t, server, 'POST', `/generations/${job.id}/cancel`, { key: a.live });
    t.equal(
      late.status,
      400,
      "the store's conflict is answered 400 INVALID_REQUEST by the one mapper (spec §7)",
    );
    t.match(late.body.error, {
      code: 'INVALID_REQUEST',
      message: /the job is completed and can no longer be cancelled/,
    });
    for (const path of [
      `/generations/gen_${'y'.repeat(300)}/cancel`,
      `/generations/gen_${'y'.repeat(300)}`,
    ]) {
      const missing = await call(t, server, path.endsWith('cancel') ? 'POST' : 'GET', path, { key: a.live });
      t.equal(missing.status, 404);
      t.match(
        missing.body.error.message,
        /^no generation "gen_y{36}…" for this account and key mode$/,
        `${path.slice(0, 30)}…: the id is quoted short`,
      );
    }
  },
);

t.test('bad input names the field, the range and the value, and changes nothing', async (t) => {
  const before = await call(t, server, 'GET', '/generations', { key: a.live });
  const bad = await call(t, server, 'POST', '/generations', {
    key: a.live,
    body: { templateId: a.templates.live.simple, text: '' },
  });
  t.equal(bad.status, 400);
  t.match(bad.body.error, { code: 'INVALID_REQUEST', field: 'text' });
  t.same(
    (await call(t, server, 'GET', '/generations', { key: a.live })).body,
    before.body,
    'no job was made',
  );
  const cursor = await call(t, server, 'GET', '/generations?cursor=nonsense', { key: a.live });
  t.equal(cursor.status, 400, "the store's refusal of a cursor is answered 400");
  t.match(cursor.body.error, {
    code: 'INVALID_REQUEST',
    field: 'cursor',
    message: /cursor must be a nextCursor from an earlier page/,
  });
  const nowhere = await call(t, server, 'GET', '/nowhere', { key: a.live });
  t.equal(nowhere.status, 404);
  t.equal(nowhere.body.error.code, 'ENDPOINT_NOT_FOUND');
});

t.test('the admin API answers through the same mapper', async (t) => {
  const wrong = await call(t, server, 'GET', '//admin/v1/accounts', {
    headers: { authorization: 'Bearer not-the-token' },
  });
  t.equal(wrong.status, 401);
  t.equal(wrong.body.error.code, 'UNAUTHORIZED');
  const admin = { authorization: `Bearer ${TOKEN}` };
  const missing = await call(t, server, 'GET', '//admin/v1/accounts/acc_0000000000000000000000', {
    headers: admin,
  });
  t.equal(missing.status, 404);
  t.match(missing.body.error, {
    code: 'NOT_FOUND',
    message: /account "acc_0000000000000000000000" does not exist/,
  });
  const long = await call(t, server, 'GET', `//admin/v1/accounts/acc_${'z'.repeat(400)}`, { headers: admin });
  t.equal(long.status, 404);
  t.match(long.body.error.message, /^account "acc_z{36}…" does not exist$/, 'a long id is quoted short');
  const third = await call(t, server, 'POST', `//admin/v1/accounts/${a.accountId}/keys`, {
    headers: admin,
    body: { mode: 'live' },
  });
  t.equal(third.status, 400, "the store's refusal of a third key is answered 400");
  t.match(third.body.error, {
    code: 'INVALID_REQUEST',
    message: /has 2 active API keys, the most allowed is 2: revoke one first/,
  });
  t.same(
    [...third.headers.keys()].filter((h) => h.startsWith('ratelimit') || h === 'retry-after'),
    [],
    'admin replies carry no rate headers',
  );
});

t.test("a job's images must fit its decoded-pixel budget, checked at submission", async (t) => {
  const small = await startInProcess(t, { jobImageMemoryMb: 16 });
  const x = await small.tenant();
  // 1000 x 1000 px: 3.8 MiB each once decoded; four fit in 16 MiB, five do not.
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const up = await call(t, small, 'POST', '/assets', {
      key: x.test,
      raw: png(1000, 1000, { raw: Buffer.alloc(1000 * 3001, i) }),
      headers: { 'content-type': 'image/png' },
    });
    t.equal(up.status, 201, up.body.error?.message ?? 'stored');
    ids.push(up.body.id);
  }
  const submit = (assets: string[]) =>
    call(t, small, 'POST', '/generations', {
      key: x.test,
      body: {
        templateId: x.templates.test.legacy,
        content: assets.map((assetId) => ({ type: 'image', assetId, width: '20%' })),
      },
    });
  const over = await submit(ids);
  t.equal(over.status, 400, 'five images: refused');
  t.equal(over.body.error.code, 'INVALID_REQUEST');
  t.equal(over.body.error.field, 'content');
  t.match(
    over.body.error.message,
    /the 5 images of this job decode to 20 MiB of pixels \(5\.0 megapixels\); one job may use at most 16 MiB/,
  );
  t.same((await call(t, small, 'GET', '/generations', { key: x.test })).body.data, [], 'no job created');
  const twice = await submit([...ids.slice(0, 4), ...ids.slice(0, 4)]);
  t.equal(twice.status, 202, 'four distinct images, each placed twice: admitted (an image is decoded once)');
});

t.test("a fault in the answer's last stages is a logged 500, never a rejected promise", async (t) => {
  const metrics = server.service.metrics;
  const request = metrics.request;
  metrics.request = () => {
    throw new Error('the figures failed');
  };
  try {
    const r = await call(t, server, 'GET', '/templates', { key: a.live });
    t.equal(r.status, 500);
    t.equal(r.body.error.code, 'INTERNAL_ERROR');
    t.match(r.body.error.message, /could not be answered/);
  } finally {
    metrics.request = request;
  }
  const again = await call(t, server, 'GET', '/templates', { key: a.live });
  t.equal(again.status, 200, 'the next request is answered as usual');
});
