// The reference served at /docs, opened in real Chromium: every operation of the OpenAPI document
// and every webhook event is on the page, with the quickstart; a curl line and a client call sit
// beside an operation; the page loads nothing from anywhere but the server. Every curl sample of
// the document then runs against the real server and is answered as documented.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openApiDocument } from '../../src/api/openapi/document.ts';
import { EXAMPLE_IDS, SAMPLES } from '../../src/api/openapi/samples.ts';
import { exportKey, FONT_FILE_FORMATS } from '../../src/app/personal-fonts.ts';
import { PERSONAL_LICENSE } from '../../src/domain/fonts.ts';
import { CHROMIUM, chromiumAvailable, launchChromium } from '../helpers/chromium.ts';
import { png } from '../helpers/images.ts';
import { call, jobFinished, startTestServer } from '../helpers/server.ts';
import { childEnv } from '../helpers/spawn.ts';

const server = await startTestServer(t);
const doc = openApiDocument() as {
  paths: Record<string, Record<string, { operationId: string; summary: string }>>;
  webhooks: Record<string, unknown>;
};
const operations = Object.values(doc.paths).flatMap((ops) => Object.values(ops));

t.test('GET /docs answers the page and the bundle, with no key', async (t) => {
  const page = await fetch(`${server.base}/docs`);
  t.equal(page.status, 200);
  t.match(page.headers.get('content-type'), /^text\/html/);
  t.match(page.headers.get('content-security-policy'), /default-src 'self'/);
  t.match(await page.text(), /<redoc spec-url="\/api\/v1\/openapi.json"/);
  const script = await fetch(`${server.base}/docs/redoc.standalone.js`);
  t.equal(script.status, 200);
  t.ok((await script.arrayBuffer()).byteLength > 500_000, 'the renderer, served from the package');
  const head = await fetch(`${server.base}/docs`, { method: 'HEAD' });
  t.equal(head.status, 200);
  t.equal((await fetch(`${server.base}/docs/nothing`)).status, 404);
});

t.test(
  'in Chromium: every operation and event, the quickstart, samples beside an operation, nothing from elsewhere',
  { skip: !chromiumAvailable && !process.env.CI && `no Chromium at ${CHROMIUM}` },
  async (t) => {
    t.ok(chromiumAvailable, `Chromium at ${CHROMIUM}`);
    const browser = await launchChromium();
    t.teardown(() => browser.close());
    const page = await browser.newPage();
    const local = (url: string) => url.startsWith(server.base) || /^(blob|data):/.test(url);
    const loaded: string[] = [];
    const asked: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => {
      if (!local(r.url())) asked.push(r.url());
    });
    page.on('response', (r) => {
      if (!local(r.url())) loaded.push(r.url());
      else if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });
    // Every console error counts: a load the page's policy refuses too.
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${server.base}/docs`);
    await page.waitForSelector('[data-section-id="operation/createGeneration"]', { timeout: 60_000 });
    for (const op of operations) {
      const section = page.locator(`[data-section-id="operation/${op.operationId}"]`);
      t.equal(await section.count(), 1, `${op.operationId} is on the page`);
      t.match(
        await section.locator('h2').first().textContent(),
        op.summary.slice(0, 30),
        `under its summary`,
      );
    }
    for (const event of Object.keys(doc.webhooks))
      t.ok(
        (await page
          .locator(`text=${event}`)
          .first()
          .isVisible()
          .catch(() => false)) || (await page.content()).includes(event),
        `webhook ${event}`,
      );
    const text = await page.locator('body').innerText();
    t.match(text, /Quickstart/, 'the quickstart');
    t.match(text, /client\.generate\(/, 'with the client');
    const create = page.locator('[data-section-id="operation/createGeneration"]');
    await create.locator('[role="tab"]', { hasText: 'curl' }).first().click();
    t.match(
      await create.innerText(),
      /curl -s -X POST "\$SCRIPTORIUM_URL\/api\/v1\/generations"/,
      'a curl line beside it',
    );
    await create.locator('[role="tab"]', { hasText: 'Client' }).first().click();
    t.match(await create.innerText(), /client\.generations\.create\(/, 'and the client call, a click away');
    t.same(loaded, [], 'nothing loaded from elsewhere');
    t.same(asked, [], "nor asked for (Redoc's credit draws no logo from its CDN)");
    const queued = await page.evaluate(async () => {
      const doc = (await (await fetch('/api/v1/openapi.json')).json()) as {
        paths: Record<
          string,
          Record<
            string,
            { responses: Record<string, { content: Record<string, { example?: { status?: string } }> }> }
          >
        >;
      };
      return doc.paths['/generations']!.post!.responses['202']!.content['application/json']!.example?.status;
    });
    t.equal(queued, 'queued', 'the example of a 202 is a queued job');
    t.same(problems, [], 'no errors on the page or in its loads');
  },
);

t.test('every curl sample of the document runs against the server as documented', async (t) => {
  const a = await server.tenant();
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-samples-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'logo.png'), png(60, 40));
  // The example ids stand for objects of the caller's: a template, and a completed job of each kind.
  const pdf = await call(t, server, 'POST', '/generations', {
    key: a.test,
    body: { templateId: a.templates.test.simple, text: 'Dear Margaret.' },
  });
  await jobFinished(t, server, a.test, pdf.body.id);
  const preview = await call(t, server, 'POST', '/previews', {
    key: a.test,
    body: { templateId: a.templates.test.simple, text: 'Dear Margaret, a preview.' },
  });
  await jobFinished(t, server, a.test, preview.body.id);
  const batch = await call(t, server, 'POST', '/batches', {
    key: a.test,
    body: {
      templateId: a.templates.test.simple,
      rows: [{ text: 'Dear Tom.', metadata: { name: 'tom' } }],
      merge: true,
    },
  });
  for (let i = 0; i < 600; i++) {
    const b = await call(t, server, 'GET', `/batches/${batch.body.id}`, { key: a.test });
    if (b.body.status === 'completed') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  // A font of the account's built from a hand: its record and the files it is given as (the
  // build itself is tested in font-file.test.ts).
  const hand = await server.ctx.store.fonts.add({
    accountId: a.accountId,
    name: 'My hand',
    premium: false,
    license: PERSONAL_LICENSE,
    source: 'hand',
    info: { family: 'My hand', scripts: ['Latin'], glyphCount: 1, codepoints: 1 },
    location: 'fonts/sample-hand.ttf',
    sha256: '0'.repeat(64),
    bytes: 4,
    now: new Date(),
  });
  for (const format of FONT_FILE_FORMATS)
    await server.ctx.blobs.put(
      exportKey(hand.location, format),
      new TextEncoder().encode(format),
      `font/${format}`,
    );
  const env = childEnv({ SCRIPTORIUM_URL: server.base, SCRIPTORIUM_API_KEY: a.test });
  const cases = SAMPLES.map((s) => s.operationId);
  t.same([...cases].sort(), operations.map((o) => o.operationId).sort(), 'a sample for every operation');
  for (const s of SAMPLES) {
    // cancel goes last with a job of its own; the preview sample reads the preview job.
    // cancelBatch and createBatch too: a batch is one of the account's two unfinished jobs.
    if (['cancelGeneration', 'cancelBatch', 'createBatch'].includes(s.operationId)) continue;
    const job = s.operationId === 'getPreview' ? preview.body.id : pdf.body.id;
    const command = s.curl
      .replaceAll(EXAMPLE_IDS.template, a.templates.test.simple)
      .replaceAll(EXAMPLE_IDS.generation, job)
      .replaceAll(EXAMPLE_IDS.batch, batch.body.id)
      .replaceAll(EXAMPLE_IDS.font, hand.id)
      .replace(/^curl -s/, 'curl -s -w "\\n%{http_code}"');
    const out = await new Promise<string>((resolve) =>
      execFile('bash', ['-c', command], { cwd: dir, env }, (_e, stdout) => resolve(stdout)),
    );
    const status = Number(out.trim().split('\n').at(-1));
    t.ok(status >= 200 && status < 300, `${s.operationId}: ${status} ${out.slice(0, 200)}`);
  }
  // Two long letters of one account: the second waits while the first runs (one at a time an
  // account), so the sample's cancel finds it unfinished however busy the machine is. The batch's
  // rows are not held by the account's letter: they wait for the server's one render thread. Three
  // more accounts' letters, each as long as a text may be, hold it for a second or more even on a
  // quick machine, so the batch's cancel finds its rows unfinished too; they are cancelled after.
  const long = { templateId: a.templates.test.simple, text: 'A letter to cancel. '.repeat(2000) };
  const longest = { ...long, text: 'A letter to cancel. '.repeat(5000) };
  await call(t, server, 'POST', '/generations', { key: a.test, body: longest });
  const holding: { key: string; id: string }[] = [];
  for (let i = 0; i < 3; i++) {
    const other = await server.tenant();
    const body = { ...longest, templateId: other.templates.test.simple };
    const held = await call(t, server, 'POST', '/generations', { key: other.test, body });
    holding.push({ key: other.test, id: held.body.id });
  }
  const running = await call(t, server, 'POST', '/generations', { key: a.test, body: long });
  const cancel = SAMPLES.find((s) => s.operationId === 'cancelGeneration')!.curl.replaceAll(
    EXAMPLE_IDS.generation,
    running.body.id,
  );
  const out = await new Promise<string>((resolve) =>
    execFile('bash', ['-c', cancel], { env }, (_e, stdout) => resolve(stdout)),
  );
  t.match(JSON.parse(out), { id: running.body.id, status: 'cancelled' }, 'cancelGeneration');
  const run = (command: string) =>
    new Promise<string>((resolve) =>
      execFile('bash', ['-c', command], { env }, (_e, stdout) => resolve(stdout)),
    );
  const created = JSON.parse(
    await run(
      SAMPLES.find((s) => s.operationId === 'createBatch')!.curl.replaceAll(
        EXAMPLE_IDS.template,
        a.templates.test.simple,
      ),
    ),
  );
  t.match(created, { id: /^bat_/, status: 'queued', rows: { total: 2 } }, 'createBatch');
  const stopped = JSON.parse(
    await run(
      SAMPLES.find((s) => s.operationId === 'cancelBatch')!.curl.replaceAll(EXAMPLE_IDS.batch, created.id),
    ),
  );
  t.match(
    stopped,
    { id: created.id, cancelledAt: /Z$/ },
    `cancelBatch: ${JSON.stringify(stopped).slice(0, 300)}`,
  );
  for (const h of holding) await call(t, server, 'POST', `/generations/${h.id}/cancel`, { key: h.key });
});
