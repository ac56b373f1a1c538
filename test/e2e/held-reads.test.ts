// Reads that wait for the work (`?wait=`, an extension): refused out of range by name, held
// until a change or the end, and the client's waits built on them: a 50-row batch waited out
// under the spec's 10 requests a minute, the wait ending within a second of the batch.
import { type Batch, Scriptorium } from 'scriptorium/client';
import t from 'tap';
import { call, startTestServer } from '../helpers/server.ts';

const LONG = 'The quick brown fox jumps over the lazy dog, again and again, all afternoon long. '.repeat(300);

t.test('?wait and ?waitFor: refused out of range, held until a change or the end', async (t) => {
  const server = await startTestServer(t);
  const a = await server.tenant();
  const key = a.test;
  const job = await call(t, server, 'POST', '/generations', {
    key,
    body: { templateId: a.templates.test.simple, text: LONG },
  });
  t.equal(job.status, 202);
  const id = job.body.id as string;
  for (const [query, field, message] of [
    ['wait=31', 'wait', /wait must be a whole number of seconds 0-30, got "31"/],
    ['wait=1.5', 'wait', /got "1.5"/],
    ['wait=-1', 'wait', /got "-1"/],
    ['waitFor=soon', 'waitFor', /waitFor must be change or end, got "soon"/],
    ['wiat=5', 'wiat', /query parameter "wiat" is not accepted \(accepted: wait, waitFor\)/],
  ] as const) {
    for (const path of [`/generations/${id}`, '/batches/bat_0000000000000000000000']) {
      const res = await call(t, server, 'GET', `${path}?${query}`, { key });
      t.equal(res.status, 400, `${path}?${query}: 400`);
      t.equal(res.body.error.code, 'INVALID_REQUEST');
      t.equal(res.body.error.field, field, `naming ${field}`);
      t.match(res.body.error.message, message);
    }
  }
  // Held until the job ends: whatever changed before it.
  const end = await call(t, server, 'GET', `/generations/${id}?wait=30&waitFor=end`, { key });
  t.equal(end.status, 200);
  t.equal(end.body.status, 'completed', 'answered with the job ended');
  t.ok(end.body.downloadUrl, 'and its download');
  // An ended job answers at once, held or not; another account's is not found.
  const again = await call(t, server, 'GET', `/generations/${id}?wait=30`, { key });
  t.same(again.body, end.body, 'the same job, at once');
  const other = await server.tenant();
  const hidden = await call(t, server, 'GET', `/generations/${id}?wait=5`, { key: other.test });
  t.equal(hidden.status, 404, "another account's job: 404, at once");

  // Held until the first change: a new job's first answer is queued or processing, the next differs.
  const next = await call(t, server, 'POST', '/generations', {
    key,
    body: { templateId: a.templates.test.simple, text: LONG },
  });
  const first = await call(t, server, 'GET', `/generations/${next.body.id}`, { key });
  if (first.body.status !== 'completed') {
    const changed = await call(t, server, 'GET', `/generations/${next.body.id}?wait=30`, { key });
    t.not(
      JSON.stringify(changed.body),
      JSON.stringify(first.body),
      `answered at a change (${first.body.status} → ${changed.body.status})`,
    );
  }
});

t.test(
  "the client's wait: a 50-row batch under 10 requests a minute, ended within a second of the batch",
  async (t) => {
    const server = await startTestServer(t, { rateLimitPerMinute: 10, rateLimitWindowSeconds: 60 });
    const a = await server.tenant();
    let requests = 0;
    const client = new Scriptorium({
      apiKey: a.test,
      baseUrl: server.base,
      fetch: (input, init) => {
        requests++;
        return fetch(input, init);
      },
    });
    const csv = `text\n${Array.from({ length: 50 }, (_, i) => `Dear reader ${i + 1}: thank you for the afternoon.`).join('\n')}\n`;
    const batch = await client.batches.create({ templateId: a.templates.test.simple, csv });
    t.equal(batch.rows.total, 50);
    const seen: Batch[] = [];
    const done = await client.batches.wait(batch.id, { onProgress: (b) => seen.push(b) });
    const returned = Date.now();
    t.equal(done.status, 'completed');
    t.equal(done.rows.completed, 50, 'every row');
    const late = returned - Date.parse(done.completedAt!);
    t.ok(late >= 0 && late < 1000, `the wait returned ${late} ms after the batch ended`);
    t.ok(
      seen.length >= 2,
      `progress told at ${seen.length} changes (${seen.map((b) => b.rows.completed).join(', ')} done)`,
    );
    t.ok(requests <= 10, `${requests} requests in all, within the key's 10 a minute: no 429 waited out`);
  },
);
