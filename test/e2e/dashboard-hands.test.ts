// Your own hand in the dashboard, in real Chromium against the real server, from sign-up on the
// plan a new account has (none): the sample sheet downloaded; a photo of its first page (filled in
// Kalam through the engine, photographed as a phone would) uploaded, then the second; every
// drawing shown; one drawing removed, one raised; the hand built into a font its test keys write
// with (a template written with it, a job and a render through the public API with a test key),
// which its live keys may not use until the owner's request for a plan with personal fonts is
// approved by the operator; a page written again for one drawing, built again: the template
// writes with the new file under the same font id. A picture of no sheet is refused saying why.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createKey, importTemplate } from '../../src/app/admin.ts';
import { sheetLayout } from '../../src/foundry/index.ts';
import { accessible, accountOf, addTestTemplate, dashboardTest, signUp, fits } from '../helpers/dashboard.ts';
import { bundledFontSource } from '../helpers/fonts.ts';
import { png } from '../helpers/images.ts';
import { sheetPhotos } from '../helpers/sheet-photo.ts';

const ADMIN = 'dashboard-hands-admin-token-0123456789';
const { server, base, newPage } = await dashboardTest(t, 'the dashboard hands test', { adminToken: ADMIN });
const dir = mkdtempSync(join(tmpdir(), 'scriptorium-dashboard-hands-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const photos = await sheetPhotos(sheetLayout('basic', 'a4'), bundledFontSource('kalam'));
const [page1, page2] = photos.map((p, i) => {
  const file = join(dir, `page${i + 1}.jpg`);
  writeFileSync(file, p.bytes);
  return file;
});
const grey = join(dir, 'grey.png');
writeFileSync(grey, png(600, 800));

t.test('a sheet downloaded, filled pages uploaded, a drawing fixed, built, written with', async (t) => {
  const { page } = await newPage({ width: 1280, height: 900 });
  await signUp(page, base, { name: 'Ann Lee', company: 'Lee Letters', email: 'ann@example.com' });
  const accountId = await accountOf(page);
  await page.getByRole('link', { name: 'Your handwriting' }).click();
  await page.getByRole('heading', { name: 'Your handwriting' }).waitFor();
  // A new account's plan has no personal fonts: the page says what a hand does on it, and the way on.
  const plan = page.getByTestId('hands-plan');
  await plan.getByText(/your test keys write with it/).waitFor();
  t.match(
    await plan.textContent(),
    /Your plan: No subscription.*live keys needs a plan that includes personal fonts \(Pro or Premium\)/s,
  );

  // The sheet to print.
  const download = page.waitForEvent('download');
  await page.getByTestId('sheet-pdf').click();
  const sheet = join(dir, 'sheet.pdf');
  await (await download).saveAs(sheet);
  t.match(
    execFileSync('pdfinfo', [sheet], { encoding: 'utf8' }),
    /Pages:\s+2\n[\s\S]*Page size:\s+595\.\d+ x 841\.\d+/,
    'the A4 sheet, 2 pages',
  );

  // A picture that is not a page of a sheet.
  await page.getByLabel('Font name').fill('Ann');
  await page.getByLabel('Filled page', { exact: true }).setInputFiles(grey);
  await page.getByRole('button', { name: 'Start the hand' }).click();
  await page.getByText(/the four black corner squares of a sample sheet were not found/).waitFor();
  t.pass('a picture of no sheet is refused saying why');

  // Page 1, then page 2 from the open hand.
  await page.getByLabel('Filled page', { exact: true }).setInputFiles(page1!);
  await page.getByRole('button', { name: 'Start the hand' }).click();
  await page.getByText('Read page 1 of SCR1-BASIC-A4.').waitFor({ timeout: 60_000 });
  await page.getByTestId('hand-sample').waitFor({ timeout: 60_000 });
  t.match(
    await page.getByTestId('hand-warnings').textContent(),
    /page 2 of 2 was not given/,
    'the missing page said',
  );
  await page.getByLabel('Another page (or a page again)').setInputFiles(page2!);
  await page.getByRole('button', { name: 'Add the page' }).click();
  await page.getByText('Added the page.').waitFor({ timeout: 60_000 });
  t.equal(await page.getByTestId('hand-warnings').count(), 0, 'no warning once both pages are in');
  const drawings = page.getByTestId('hand-glyphs').locator('[data-drawing]');
  t.equal(await drawings.count(), 174, 'every drawing of the sheet shown');
  t.equal(await page.locator('fieldset[data-char="a"] [data-drawing]').count(), 3, 'three drawings of a');
  await accessible(t, page, 'hands-read');
  // The editor on a phone's window: the letters' drawings wrap, nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await fits(t, page, 'the hand editor at 390 px');
  await page.setViewportSize({ width: 1280, height: 900 });

  // Fixed: one drawing of b removed, one of g raised.
  await page.getByRole('button', { name: 'Remove b/2', exact: true }).click();
  await page.getByText('Removed b/2.').waitFor({ timeout: 60_000 });
  t.same(
    await page
      .locator('fieldset[data-char="b"] [data-drawing]')
      .evaluateAll((els) =>
        els.map((e) => (e as unknown as { getAttribute(n: string): string }).getAttribute('data-drawing')),
      ),
    ['b/1', 'b/3'],
    'b without its second drawing',
  );
  const before = await page.locator('[data-drawing="g/1"] path').getAttribute('d');
  await page.getByRole('button', { name: 'Raise g/1', exact: true }).click();
  await page.getByText('Raised g/1.').waitFor({ timeout: 60_000 });
  t.not(await page.locator('[data-drawing="g/1"] path').getAttribute('d'), before, 'g/1 drawn higher');
  // And in the other directions, and in size.
  const xs = async (key: string) =>
    ((await page.locator(`[data-drawing="${key}"] path`).getAttribute('d')) ?? '')
      .match(/-?\d+(\.\d+)?/g)!
      .map(Number)
      .filter((_, i) => i % 2 === 0);
  const span = (v: number[]) => Math.max(...v) - Math.min(...v);
  const h1 = await xs('h/1');
  await page.getByRole('button', { name: 'Move right h/1', exact: true }).click();
  await page.getByText('Moved right h/1.').waitFor({ timeout: 60_000 });
  const moved = await xs('h/1');
  t.ok(
    Math.abs(Math.min(...moved) - Math.min(...h1) - 20) <= 1,
    `h/1 moved 20 units right (${Math.min(...h1)} → ${Math.min(...moved)})`,
  );
  await page.getByRole('button', { name: 'Enlarge h/1', exact: true }).click();
  await page.getByText('Enlarged h/1.').waitFor({ timeout: 60_000 });
  const larger = await xs('h/1');
  t.ok(
    Math.abs(span(larger) / span(h1) - 1.05) < 0.02,
    `h/1 5 % wider (${span(h1)} → ${span(larger)} units)`,
  );
  await page.getByRole('button', { name: 'Move left h/1', exact: true }).click();
  await page.getByText('Moved left h/1.').waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Shrink h/1', exact: true }).click();
  await page.getByText('Shrunk h/1.').waitFor({ timeout: 60_000 });
  t.same(await xs('h/1'), h1, 'moved back and shrunk back: as written');

  // Built, then written with through the public API.
  await page.getByRole('button', { name: 'Build the font' }).click();
  await page
    .getByText(/^Built: templates that write with this font now use these drawings\.$/)
    .waitFor({ timeout: 60_000 });
  const hands = await server.ctx.store.hands.list(accountId);
  const fontId = hands[0]!.fontId!;
  t.match(fontId, /^font_\w{22}$/, 'the hand has its font');
  const font = (await server.ctx.store.fonts.getVisible(accountId, fontId))!;
  t.match(
    font,
    { name: 'Ann', accountId, license: 'trial' },
    'built on a plan without personal fonts: a trial font',
  );
  const templateId = await addTestTemplate(page, accountId, {
    version: 2,
    name: 'In my hand',
    mode: 'simple',
    style: { fontId },
  });
  const { key } = await createKey(
    { store: server.ctx.store, blobs: server.ctx.blobs, config: server.ctx.config, now: () => new Date() },
    { account: accountId, mode: 'test', name: 'hands' },
  );
  const api = (path: string, body: unknown) =>
    fetch(`${base}/api/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const job = await api('/generations', {
    templateId,
    text: 'Dear Sam, thank you for the lovely afternoon.',
  });
  t.equal(job.status, 202, 'a job with the template is admitted');
  const { id: jobId } = (await job.json()) as { id: string };
  let status = '';
  for (let i = 0; i < 120 && status !== 'completed' && status !== 'failed'; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const r = await fetch(`${base}/api/v1/generations/${jobId}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    status = ((await r.json()) as { status: string }).status;
  }
  t.equal(status, 'completed', 'the job is written in the hand');
  const svg = async () => (await api('/renders', { templateId, text: 'bbbb', format: 'svg' })).text();

  // Live keys may not write with it on this plan: the refusal says why and where the way is.
  const deps = {
    store: server.ctx.store,
    blobs: server.ctx.blobs,
    config: server.ctx.config,
    now: () => new Date(),
  };
  const live = (await createKey(deps, { account: accountId, mode: 'live', name: 'live' })).key;
  const liveTemplate = (
    await importTemplate(deps, {
      account: accountId,
      mode: 'live',
      template: { version: 2, name: 'In my hand', mode: 'simple', style: { fontId } },
    })
  ).id;
  const liveJob = () =>
    fetch(`${base}/api/v1/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${live}`, 'content-type': 'application/json' },
      body: JSON.stringify({ templateId: liveTemplate, text: 'Dear Sam,' }),
    });
  const refusedLive = await liveJob();
  t.equal(refusedLive.status, 403, 'a live job with the trial hand: 403');
  const refusal = (await refusedLive.json()) as { error: { code: string; message: string } };
  t.equal(refusal.error.code, 'FONT_ACCESS_DENIED');
  t.match(
    refusal.error.message,
    /test keys write with it; live keys need a plan that includes personal fonts/,
  );

  // The owner asks for Pro on the page; the operator approves it in the admin API.
  await plan.getByLabel('Plan', { exact: true }).selectOption({ label: 'Pro, 30 days: 1000 sheets' });
  await plan.getByLabel('Note for the operator (optional)').fill('For our thank-you letters');
  await plan.getByRole('button', { name: 'Request the plan' }).click();
  await page
    .getByTestId('plan-request-state')
    .getByText(/Requested Pro on .*: waiting for an operator\./)
    .waitFor();
  await accessible(t, page, 'hands-plan-requested');
  const asked = (await (
    await fetch(`${base}/admin/v1/plan-requests?status=pending&account=${accountId}`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    })
  ).json()) as { data: { id: string; plan: string; note: string }[] };
  t.match(asked.data, [{ plan: 'pro', note: 'For our thank-you letters' }], 'the operator sees the request');
  const approve = await fetch(`${base}/admin/v1/plan-requests/${asked.data[0]!.id}/approve`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: '{}',
  });
  t.equal(approve.status, 200, 'approved');
  await page.reload();
  await page
    .getByTestId('plan-request-state')
    .getByText(/Your request for Pro was approved on/)
    .waitFor();
  await plan
    .getByText(/Your plan includes personal fonts: live and test keys write with the hands you build\./)
    .waitFor();
  t.equal(
    (await server.ctx.store.fonts.getVisible(accountId, fontId))?.license,
    'personal',
    'the hand is a personal font now',
  );
  t.equal((await liveJob()).status, 202, 'and live keys write with it');
  const first = await svg();
  t.match(first, /^<svg/, 'a render in the hand (the plan has renders)');
  // The font to take elsewhere: the Fonts page downloads it as WOFF2.
  await page.getByRole('link', { name: 'Fonts', exact: true }).click();
  const woff2 = page.waitForEvent('download');
  await page.getByTestId('font-woff2').click();
  const saved = join(dir, 'ann.woff2');
  await (await woff2).saveAs(saved);
  t.equal(
    readFileSync(saved).subarray(0, 4).toString('latin1'),
    'wOF2',
    'the Fonts page downloads the hand as WOFF2',
  );
  await page.getByRole('link', { name: 'Your handwriting' }).click();
  await page.getByRole('button', { name: 'Open Ann' }).click();

  // A drawing written again on a fresh copy of page 1, the hand built again: the same font id, a new file.
  await page.locator('[data-drawing="a/1"] input[type="checkbox"]').check();
  await page.getByLabel(/Page written again for the drawings ticked/).setInputFiles(page1!);
  await page.getByRole('button', { name: 'Redo 1 drawings' }).click();
  await page.getByText('Redone a/1.').waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Restore b/2', exact: true }).click();
  await page.getByText('Restored b/2.').waitFor({ timeout: 60_000 });
  t.equal(await page.locator('fieldset[data-char="b"] [data-drawing]').count(), 3, 'b/2 restored');
  t.equal(await svg(), first, 'until built again, templates write as before');
  await page.getByRole('button', { name: 'Build the font' }).click();
  await page.getByText(/^Built: templates/).waitFor({ timeout: 60_000 });
  const rebuilt = (await server.ctx.store.fonts.getVisible(accountId, fontId))!;
  t.not(rebuilt.sha256, font.sha256, 'the font has a new file');
  t.notOk(await server.ctx.blobs.get(font.location), 'the old file is deleted');
  t.not(await svg(), first, 'the template writes with the new file under the same id');
  await accessible(t, page, 'hands-built');
});
