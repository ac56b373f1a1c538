// The dashboard in real Chromium against the real server: a customer signs up, creates a test
// key (shown once, copied with the button) and uses it on the public API, sees when it was last
// used, switches to live data, revokes a key, meets the key limit, invites a member who joins
// through the link, and signs out everywhere. Every page passes axe-core's checks, and one form
// is driven by the keyboard alone. Around it, over plain HTTP: the session cookie's attributes,
// CSRF and cross-site refusals, the sign-in limit, and what the store keeps (no password, no
// session token). DASHBOARD_SCREENSHOTS=1 writes each page to docs/dashboard/.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import t from 'tap';
import { accessible, dashboardTest, newKeyOf, signUp as signUpAs } from '../helpers/dashboard.ts';
import { readExample } from '../../src/app/demo.ts';
import { jobBlocks } from '../../src/domain/document.ts';
import { specOf } from '../../src/domain/render-spec.ts';
import { parseTemplate } from '../../src/domain/template.ts';
import { newId } from '../../src/lib/ids.ts';
import { createKey } from '../../src/app/admin.ts';
import { call, jobFinished } from '../helpers/server.ts';
import { childEnv, startServe } from '../helpers/spawn.ts';

const { server, base, newPage } = await dashboardTest(t, 'the dashboard test');
const signUp = (page: Page, who: { name: string; company: string; email: string }) =>
  signUpAs(page, base, who);

/** An image uploaded on the images page; answers its id. */
async function uploadImage(page: Page, file: string): Promise<string> {
  await page.getByLabel('Image file').setInputFiles(file);
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.getByText(/Uploaded meadow\.png as asset_\w+\./).waitFor();
  return /as (asset_\w+)\./.exec(
    (await page.getByRole('status').filter({ hasText: 'Uploaded' }).textContent())!,
  )![1]!;
}

/** Waits for the builder's preview to be drawn again after a change; answers the new image, or says what was refused. */
async function redrawn(page: Page, before: string | null): Promise<string> {
  const problem = page.getByTestId('builder-problem');
  await page
    .waitForFunction(
      (old) =>
        (
          globalThis as unknown as {
            document: { querySelector(s: string): { getAttribute(n: string): string | null } | null };
          }
        ).document
          .querySelector('[data-testid="builder-preview"]')
          ?.getAttribute('src') !== old,
      before,
      { timeout: 20_000 },
    )
    .catch(async (err) => {
      const why = (await problem.count()) ? await problem.textContent() : 'no refusal shown';
      throw new Error(`the preview was not drawn again (${why})`, { cause: err });
    });
  return (await page.getByTestId('builder-preview').getAttribute('src'))!;
}

const api = (key: string, path: string) =>
  fetch(`${base}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });

const OWNER = { email: 'ada@example.com', password: 'a long enough passphrase', name: 'Ada Byron' };

t.test('sign up, keys, live and test, revoke, the limit, a member, sign out everywhere', async (t) => {
  const { page } = await newPage();
  await page.goto(`${base}/dashboard`);
  await page.getByRole('heading', { name: 'Sign in to Scriptorium' }).waitFor();
  await accessible(t, page, 'sign-in');
  await page.getByRole('link', { name: 'Create one' }).click();
  await page.getByRole('heading', { name: 'Create your Scriptorium account' }).waitFor();

  // A refused field is named beside the field, and nothing is created.
  await page.getByLabel('Your name').fill(OWNER.name);
  await page.getByLabel('Company or project').fill('Byron Letters');
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByText('password must be 12-128 characters, got 5').waitFor();
  t.equal(
    await page.getByLabel('Password').getAttribute('aria-invalid'),
    'true',
    'the field is marked invalid',
  );
  t.equal(await server.ctx.store.users.byEmail(OWNER.email), null, 'no user made');
  await accessible(t, page, 'sign-up');
  await page.getByLabel('Your name').fill(OWNER.name);
  await page.getByLabel('Company or project').fill('Byron Letters');
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Create account' }).click();

  // Keys, in test mode first, marked as test data.
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
  await page.getByText('Test data: test keys, templates and jobs. Nothing here is billed.').waitFor();
  t.ok(await page.getByRole('radio', { name: 'Test data' }).isChecked(), 'test data is shown first');
  await page.getByText('No test keys yet.').waitFor();
  await page.getByLabel('Key name').fill('staging server');
  await page.getByRole('button', { name: 'Create key' }).click();
  const shown = (await page.getByTestId('new-key').textContent())!;
  t.match(shown, /^hw_test_\w{38}$/, 'the whole key, shown once');
  await page.getByRole('button', { name: 'Copy key' }).click();
  await page.getByText('Copied').waitFor();
  t.equal(await page.evaluate('navigator.clipboard.readText()'), shown, 'the copy button copies it');
  await accessible(t, page, 'keys-new');
  await page.getByRole('button', { name: 'I have saved it' }).click();
  t.equal(await page.getByTestId('new-key').count(), 0, 'and then it is gone from the page');
  t.notOk((await page.content()).includes(shown), 'nowhere on the page any more');

  // The key works on the public API, on the test sheets the account starts with, and its use
  // shows as last used.
  const usage = await api(shown, '/usage');
  t.equal(usage.status, 200, 'the new key opens the public API');
  t.equal(
    ((await usage.json()) as { balance: { availableSheets: number } }).balance.availableSheets,
    50,
    'a new account has 50 test sheets for its first test calls',
  );
  await server.service.counter.flush();
  await page.reload();
  const row = page.getByRole('row', { name: /staging server/ });
  await row.waitFor();
  t.match(await row.textContent(), /hw_test_\w{8}….*UTC.*UTC\s*Active/, 'created and last used, both dated');
  t.notMatch(await row.textContent(), /never/, 'used, so not "never"');

  // Live data: its own keys; a live key.
  await page.getByText('Live data').click();
  await page.getByText('No live keys yet.').waitFor();
  t.equal(await page.getByText('Test data: test keys').count(), 0, 'no test marking on live data');
  await page.getByLabel('Key name').fill('production');
  await page.getByRole('button', { name: 'Create key' }).click();
  t.match(await page.getByTestId('new-key').textContent(), /^hw_live_/, 'a live key');
  await page.getByRole('button', { name: 'I have saved it' }).click();
  await accessible(t, page, 'keys-live');

  // Back to test data: the key is revoked after a confirmation, and refused from then on.
  await page.getByText('Test data', { exact: true }).click();
  await page.getByRole('button', { name: 'Revoke staging server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke “staging server”?' });
  await dialog.waitFor();
  await accessible(t, page, 'keys-revoke');
  t.equal((await api(shown, '/usage')).status, 200, 'nothing happens before the answer');
  await dialog.getByRole('button', { name: 'Revoke key' }).click();
  await page.getByText('Revoked “staging server”.').waitFor();
  const refused = await api(shown, '/usage');
  t.equal(refused.status, 401);
  t.equal(((await refused.json()) as { error: { code: string } }).error.code, 'API_KEY_REVOKED');

  // The limit: with 10 active keys the form says why no more can be made.
  const session = (await page.evaluate(() => fetch('/dashboard/v1/session').then((r) => r.json()))) as {
    accounts: { accountId: string }[];
    csrfToken: string;
  };
  const accountId = session.accounts[0]!.accountId;
  for (let i = 0; i < 9; i++) {
    const made = await page.evaluate(
      ([account, csrf, n]) =>
        fetch(`/dashboard/v1/accounts/${account}/keys`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf! },
          body: JSON.stringify({ mode: 'test', name: `batch ${n}` }),
        }).then((r) => r.status),
      [accountId, session.csrfToken, String(i)],
    );
    t.equal(made, 201);
  }
  await page.reload();
  await page.getByText('This account has 10 active keys, the most it may have.').waitFor();
  t.ok(await page.getByRole('button', { name: 'Create key' }).isDisabled(), 'the button is off at the limit');
  await accessible(t, page, 'keys-limit');

  // A member: invited by address, joins through the link in another browser.
  await page.getByRole('link', { name: 'Members' }).click();
  await page.getByRole('heading', { name: 'Members' }).waitFor();
  await page.getByLabel('Their email').fill('grace@example.com');
  await page.getByRole('button', { name: 'Create invitation' }).click();
  const link = (await page.getByTestId('invite-link').textContent())!;
  t.match(link, new RegExp(`^${base}/dashboard/invite#[\\w-]{43}$`), 'a link with its token in the fragment');
  await accessible(t, page, 'members');
  const guest = await newPage();
  await guest.page.goto(link);
  await guest.page.getByRole('heading', { name: 'Join Byron Letters' }).waitFor();
  await guest.page.getByText('grace@example.com').waitFor();
  await accessible(t, guest.page, 'invite');
  await guest.page.getByLabel('Your name').fill('Grace Hopper');
  await guest.page.getByLabel('Choose a password').fill('another long passphrase');
  await guest.page.getByRole('button', { name: 'Join Byron Letters' }).click();
  await guest.page.getByRole('heading', { name: 'API keys' }).waitFor();
  await guest.page.getByText('Byron Letters').first().waitFor();
  await guest.page.getByRole('link', { name: 'Members' }).click();
  await guest.page.getByText('Only an owner of the account can invite people.').waitFor();
  // The members are listed once their call answers, which may be after the page's text shows.
  await guest.page.getByRole('row', { name: /Ada Byron/ }).waitFor();
  t.equal(await guest.page.getByRole('row', { name: /Ada Byron/ }).count(), 1, 'the member sees the owner');
  const again = await newPage();
  await again.page.goto(link);
  await again.page
    .getByText('This invitation is not valid: it was used, withdrawn or is older than 7 days.')
    .waitFor();

  // Roles: the owner makes Grace an owner (she may invite now), then a member again; the only
  // owner cannot step down.
  await page.reload();
  /** A role chosen, and the server's answer to it awaited. */
  const choose = (who: string, role: string) =>
    Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/role')),
      page.getByLabel(`Role of ${who}`).selectOption(role),
    ]);
  await choose('Grace Hopper', 'owner');
  await guest.page.reload();
  await guest.page.getByRole('heading', { name: 'Invite someone' }).waitFor();
  t.pass('an owner now: she may invite people');
  await choose('Grace Hopper', 'member');
  await choose('Ada Byron', 'member');
  await page
    .getByText('the account would be left without an owner: make another member owner first')
    .waitFor();
  t.equal(await page.getByLabel('Role of Ada Byron').inputValue(), 'owner', 'the only owner stays owner');
  t.same(
    (
      await server.ctx.store.users.members(
        (
          await server.ctx.store.users.memberships(
            (await server.ctx.store.users.byEmail(OWNER.email))!.user.id,
          )
        )[0]!.accountId,
      )
    ).map((m) => [m.name, m.role]),
    [
      ['Ada Byron', 'owner'],
      ['Grace Hopper', 'member'],
    ],
  );

  // A second session of the owner, by keyboard alone: Tab to each field, Enter to send.
  const second = await newPage();
  await second.page.goto(`${base}/dashboard/signin`);
  await second.page.getByRole('heading', { name: 'Sign in to Scriptorium' }).waitFor();
  await second.page.keyboard.press('Tab');
  await second.page.keyboard.type(OWNER.email);
  await second.page.keyboard.press('Tab');
  await second.page.keyboard.type(OWNER.password);
  await second.page.keyboard.press('Enter');
  await second.page.getByRole('heading', { name: 'API keys' }).waitFor();
  t.pass('signed in with the keyboard alone');

  // Sign out everywhere ends the other session too.
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await page.getByRole('heading', { name: 'Sign in to Scriptorium' }).waitFor();
  await second.page.reload();
  await second.page.getByRole('heading', { name: 'Sign in to Scriptorium' }).waitFor();
  t.pass('the second session ended with the first');
  await guest.page.reload();
  await guest.page.getByRole('heading', { name: 'Members' }).waitFor();
  t.pass("the member's own session goes on");

  // A member leaves: her session goes on, belonging to no account.
  await guest.page.getByRole('button', { name: 'Leave the account' }).click();
  await guest.page.getByRole('dialog').getByRole('button', { name: 'Leave' }).click();
  await guest.page.getByRole('heading', { name: 'You belong to no account' }).waitFor();
  t.same(
    await server.ctx.store.users.memberships(
      (await server.ctx.store.users.byEmail('grace@example.com'))!.user.id,
    ),
    [],
    'she belongs to no account',
  );
  await accessible(t, guest.page, 'no-account');
});

t.test("refusals speak the form's words: the company field by its label, a file by its name", async (t) => {
  const { page } = await newPage();
  await page.goto(`${base}/dashboard/signup`);
  await page.getByLabel('Your name').fill('Olive');
  await page.getByLabel('Company or project').fill('c'.repeat(121));
  await page.getByLabel('Email').fill('olive@example.com');
  await page.getByLabel('Password').fill('a passphrase of Olive');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByText('Company or project must be 1-120 characters, got 121').waitFor();
  t.equal(await page.getByText(/accountName/).count(), 0, "the API's own field name is not shown");
  t.equal(await page.getByLabel('Company or project').getAttribute('aria-invalid'), 'true');
  await page.getByLabel('Company or project').fill('Olive Press');
  await page.getByLabel('Password').fill('a passphrase of Olive');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
  await page.getByRole('link', { name: 'Images' }).click();
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-dash-words-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const notes = join(dir, 'notes.txt');
  writeFileSync(notes, 'these are words, not pixels');
  await page.getByLabel('Image file').setInputFiles(notes);
  await page.getByRole('button', { name: 'Upload' }).click();
  await page
    .getByText('notes.txt is not a PNG or JPEG image (its type: text/plain); choose a PNG or JPEG.')
    .waitFor();
  t.equal(await page.getByText(/Content-Type/).count(), 0, 'no header named to a person who chose a file');
});

t.test('test sheets, a job through the public API with a dashboard key, its PDF and usage', async (t) => {
  const { page } = await newPage();
  await signUp(page, { name: 'Ida Wells', company: 'Wells & Co', email: 'ida@example.com' });
  const key = await newKeyOf(page, 'jobs');

  // Test sheets from the usage page: a new account has the 50 it starts with.
  await page.getByRole('link', { name: 'Usage' }).click();
  await page.getByRole('heading', { name: 'Usage' }).waitFor();
  t.equal(await page.getByTestId('available').textContent(), '50', 'a new account has its 50 test sheets');
  await page.getByLabel('Test sheets to add').fill('20');
  await page.getByRole('button', { name: 'Add test sheets' }).click();
  await page.getByText('Test sheets to add must be a whole number 50-1000, got 20').waitFor();
  await page.getByLabel('Test sheets to add').fill('200');
  await page.getByRole('button', { name: 'Add test sheets' }).click();
  await page.getByTestId('available').filter({ hasText: '250' }).waitFor();
  t.pass('200 test sheets added');

  // Images: the limits said, an upload, a thumbnail, and a delete refused while a template uses it.
  const { accounts } = (await page.evaluate(() => fetch('/dashboard/v1/session').then((r) => r.json()))) as {
    accounts: { accountId: string }[];
  };
  const accountId = accounts[0]!.accountId;
  await page.getByRole('link', { name: 'Images' }).click();
  await page.getByText('No test images yet.').waitFor();
  t.match(await page.getByTestId('quota').textContent(), /^0 of \d+ images and 0 MiB of \d+ MiB used/);
  const imgDir = mkdtempSync(join(tmpdir(), 'scriptorium-dash-img-'));
  t.teardown(() => rmSync(imgDir, { recursive: true, force: true }));
  const meadow = join(imgDir, 'meadow.png');
  writeFileSync(meadow, readFileSync(new URL('../../src/app/demo/meadow.png', import.meta.url)));
  const notImage = join(imgDir, 'notes.png');
  writeFileSync(notImage, 'these are not the bytes of a PNG');
  await page.getByLabel('Image file').setInputFiles(notImage);
  await page.getByRole('button', { name: 'Upload' }).click();
  await page
    .getByRole('alert')
    .filter({ hasText: /PNG|JPEG|image/ })
    .waitFor();
  t.pass('bytes that are no image are refused, and said why');
  const assetId = await uploadImage(page, meadow);
  const thumb = page.getByRole('img', { name: new RegExp(`^${assetId}, \\d+ by \\d+ pixels$`) });
  await thumb.waitFor();
  // Drawn once it has loaded (on a busy machine the element is there before its bytes are).
  t.ok(
    await thumb.evaluate((el) => {
      const img = el as unknown as {
        complete: boolean;
        naturalWidth: number;
        decode(): Promise<void>;
      };
      return img.decode().then(
        () => img.naturalWidth > 0,
        () => false,
      );
    }),
    'its thumbnail is drawn',
  );
  t.match(await page.getByTestId('quota').textContent(), /^1 of /);
  await accessible(t, page, 'images');

  // A template imported from its JSON on the templates page: its id copied, its snippets ready.
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-dash-tpl-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const letter = readExample('letter', {}).template;
  const file = join(dir, 'letter.template.json');
  writeFileSync(file, letter);
  const broken = join(dir, 'broken.template.json');
  writeFileSync(broken, letter.replace('"fontSize": 20', '"fontSize": 2000'));
  await page.getByRole('link', { name: 'Templates' }).click();
  await page.getByText('No test templates yet. Build one or import one below.').waitFor();
  await page.getByLabel('Template JSON file').setInputFiles(broken);
  await page.getByRole('button', { name: 'Import' }).click();
  await page.getByText(/the template: .*fontSize.*2000/).waitFor();
  t.pass('a refused template names the field, its range and the value');
  await page.getByLabel('Template JSON file').setInputFiles(file);
  await page.getByRole('button', { name: 'Import' }).click();
  await page.getByText(/Imported “Handwritten letter” as tpl_\w+\./).waitFor();
  const templateId = (await page.getByTestId('template-id').textContent())!;
  t.match(templateId, /^tpl_\w{22}$/);
  await page.getByRole('button', { name: 'Copy id' }).click();
  t.equal(await page.evaluate('navigator.clipboard.readText()'), templateId, 'the id is copied');
  const letterCurl = (await page.getByTestId('curl').textContent())!;
  t.match(
    letterCurl,
    new RegExp(`"templateId": "${templateId}",\\n  "text": "Dear Ada,`),
    'the snippet sends a sample letter as text',
  );
  await accessible(t, page, 'templates');
  const [exported] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: /Export JSON of Handwritten letter/ }).click(),
  ]);
  const model = JSON.parse(readFileSync((await exported.path())!, 'utf8'));
  t.has(model.style, JSON.parse(letter).style, 'the export is the template as stored, defaults spelled out');
  writeFileSync(file, JSON.stringify({ ...model, name: 'Handwritten letter, blue' }));
  await page.getByLabel('Template JSON file').setInputFiles(file);
  await page.getByLabel('Store it as').selectOption(templateId);
  await page.getByRole('button', { name: 'Import' }).click();
  await page.getByText('Saved “Handwritten letter, blue” as revision 2.').waitFor();
  t.match(
    await page.getByRole('row', { name: /Handwritten letter, blue/ }).textContent(),
    new RegExp(`simple2.*${templateId}`),
    'imported over it: revision 2, same id',
  );
  const tpl = { id: templateId };

  // The image placed by a template cannot be deleted; once nothing places it, it can.
  const card = join(dir, 'card.template.json');
  writeFileSync(card, readExample('card', { 'meadow.png': assetId }).template);
  await page.getByLabel('Template JSON file').setInputFiles(card);
  await page.getByLabel('Store it as').selectOption('');
  await page.getByRole('button', { name: 'Import' }).click();
  await page.getByText(/Imported “.*” as tpl_\w+\./).waitFor();
  await page.getByRole('link', { name: 'Images' }).click();
  await page.getByRole('button', { name: `Delete ${assetId}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete image' }).click();
  await page.getByText(new RegExp(`${assetId} is placed by template tpl_\\w+`)).waitFor();
  t.pass('refused while a template places it, naming the template');
  t.ok(
    await page.getByRole('img', { name: new RegExp(assetId) }).isVisible(),
    'and the image is still there',
  );
  const spare = await uploadImage(page, meadow);
  await page.getByRole('button', { name: `Delete ${spare}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete image' }).click();
  await page.getByText(`Deleted ${spare}.`).waitFor();
  t.equal(
    await page.getByRole('img', { name: new RegExp(spare) }).count(),
    0,
    'an image nothing places is deleted',
  );
  t.equal(await server.ctx.store.assets.get({ accountId, mode: 'test' }, spare), null, 'its record is gone');

  // An image placed only by a job that has not run yet is kept until the job ends. (The job is
  // written to the store and never queued, so it waits.)
  const jobOnly = await uploadImage(page, meadow);
  const example = readExample('document', { 'meadow.png': jobOnly });
  const parsed = parseTemplate(JSON.parse(example.template));
  if (!parsed.ok) throw new Error(parsed.message);
  const input = { content: example.input.content as unknown[] };
  const testTenant = { accountId, mode: 'test' as const };
  const waiting = await server.ctx.store.generations.submit(
    testTenant,
    {
      id: newId('gen'),
      kind: 'pdf',
      templateId: newId('tpl'),
      templateRevision: 1,
      template: parsed.template,
      input,
      inputHash: 'h',
      spec: specOf(parsed.template, { blocks: jobBlocks(parsed.template, input)! }),
    },
    { unfinished: 2, queued: 32 },
    new Date(),
  );
  await page.getByRole('button', { name: `Delete ${jobOnly}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete image' }).click();
  await page.getByText(`${jobOnly} is placed by job ${waiting.id}, which has not finished`).waitFor();
  t.pass('refused while an unfinished job places it, naming the job');
  await server.ctx.store.generations.cancel(testTenant, waiting.id, new Date());
  await page.getByRole('button', { name: `Delete ${jobOnly}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete image' }).click();
  await page.getByText(`Deleted ${jobOnly}.`).waitFor();
  t.pass('and deleted once the job is cancelled');

  await page.getByRole('link', { name: 'Templates' }).click();
  await page.getByRole('heading', { name: 'Templates' }).waitFor();

  const submitted = await call(t, server, 'POST', '/generations', {
    key,
    body: { templateId: tpl.id, text: 'Dear Ida, this letter was written through the dashboard key.' },
  });
  t.equal(submitted.status, 202);
  const job = await jobFinished(t, server, key, submitted.body.id);
  t.equal(job.status, 'completed');
  const preview = await call(t, server, 'POST', '/previews', {
    key,
    body: { templateId: tpl.id, text: 'A preview of the letter.' },
  });
  t.equal((await jobFinished(t, server, key, preview.body.id)).status, 'completed');

  // The jobs page: both jobs, the PDF downloaded through the dashboard, the preview shown.
  await page.getByRole('link', { name: 'Jobs' }).click();
  const row = page.getByRole('row', { name: new RegExp(job.id) });
  await row.waitFor();
  t.match(await row.textContent(), new RegExp(`${job.id}PDFcompleted${job.pages}${job.creditsSpent}`));
  await accessible(t, page, 'jobs');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('link', { name: /Download PDF/ }).click(),
  ]);
  const bytes = readFileSync((await download.path())!);
  const viaApi = Buffer.from(
    await (
      await fetch(`${base}/api/v1/generations/${job.id}/download`, {
        headers: { authorization: `Bearer ${key}` },
      })
    ).arrayBuffer(),
  );
  t.equal(bytes.subarray(0, 5).toString(), '%PDF-');
  t.ok(bytes.equals(viaApi), 'the same PDF as the public API gives');
  await page
    .getByRole('row', { name: new RegExp(preview.body.id) })
    .getByRole('button', { name: /Show preview/ })
    .click();
  const img = page.getByRole('img', { name: 'Page 1 of the preview' });
  await img.waitFor();
  t.ok(
    await img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth > 100),
    'the preview page is drawn',
  );

  // Usage: the job's pages and sheets, in the figures and the chart.
  await page.getByRole('link', { name: 'Usage' }).click();
  await page
    .getByTestId('pages')
    .filter({ hasText: String(job.pages) })
    .waitFor();
  t.equal(
    await page.getByTestId('available').textContent(),
    String(250 - job.creditsSpent),
    'the balance is the sheets the account started with and added, less those spent',
  );
  const bars = await page
    .locator('svg rect.pages')
    .evaluateAll((rects) =>
      rects.map((r) => Number((r as unknown as { getAttribute(n: string): string }).getAttribute('height'))),
    );
  t.equal(bars.length, 30, 'a bar for each of the last 30 days');
  t.ok(bars.at(-1)! > 0, "today's bar is drawn");
  t.ok(
    bars.slice(0, -1).every((h) => h === 0),
    'the other days are empty',
  );
  await accessible(t, page, 'usage');

  // Live data is apart: no jobs there.
  await page.getByText('Live data').click();
  await page.getByRole('link', { name: 'Jobs' }).click();
  await page.getByText('No live jobs yet.').waitFor();
  t.pass('the test jobs are not among the live ones');
});

t.test(
  'the builder: a structured template with a table and an image, its live preview, a job with it',
  async (t) => {
    const { page } = await newPage();
    await signUp(page, { name: 'Mary Somerville', company: 'Somerville Notes', email: 'mary@example.com' });
    const key = await newKeyOf(page, 'builder');
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByLabel('Test sheets to add').fill('100');
    await page.getByRole('button', { name: 'Add test sheets' }).click();
    await page.getByTestId('available').filter({ hasText: '150' }).waitFor();
    const dir = mkdtempSync(join(tmpdir(), 'scriptorium-dash-builder-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const meadow = join(dir, 'meadow.png');
    writeFileSync(meadow, readFileSync(new URL('../../src/app/demo/meadow.png', import.meta.url)));
    await page.getByRole('link', { name: 'Images' }).click();
    const assetId = await uploadImage(page, meadow);

    // A new structured template: every field from the server's schema, the first page drawn beside.
    await page.getByRole('link', { name: 'Templates' }).click();
    await page.getByRole('button', { name: 'New structured template' }).click();
    await page.getByRole('heading', { name: 'New structured template' }).waitFor();
    const preview = page.getByTestId('builder-preview');
    await preview.waitFor();
    const drawn = () => preview.getAttribute('src') as Promise<string>;
    t.match(await drawn(), /^data:image\/png;base64,/, 'the first page is drawn as a PNG');
    t.match(
      await page
        .getByLabel(/^Font size/)
        .first()
        .inputValue(),
      /^\d+$/,
      'defaults filled in',
    );
    t.notOk(await page.getByText('Rotation (0–6 degrees)').isVisible(), 'the handwriting part starts folded');
    await page.getByText('Handwriting', { exact: true }).click();
    t.ok(await page.getByText('Rotation (0–6 degrees)').isVisible(), 'each modifier says its range');
    await page.getByLabel('Name', { exact: true }).fill('Order note');

    // A table with its column keys, and an image from the account's images.
    let shown = await drawn();
    await page.getByLabel('New block').last().selectOption('table');
    await page.getByRole('button', { name: 'Add block' }).last().click();
    const table = page.getByRole('group', { name: /^\d+\. Table/ });
    t.match(await table.locator('legend').first().textContent(), /Table “table1”/, 'a key of its own');
    await table.getByLabel('Column 2 key (in data)').fill('price');
    await table.getByLabel('Column 2 title').fill('Price');
    shown = await redrawn(page, shown);
    // A field name in data used twice is named at its field.
    await table.getByLabel('Field name in data').fill('title');
    await page
      .getByTestId('builder-problem')
      .filter({ hasText: 'blocks[2].key must be unique, got "title" already used at blocks[0]' })
      .waitFor();
    t.equal(await table.getByLabel('Field name in data').getAttribute('aria-invalid'), 'true');
    await table.getByLabel('Field name in data').fill('table1');
    await page.getByTestId('builder-problem').waitFor({ state: 'detached' });
    await page.getByLabel('New block').last().selectOption('image');
    await page.getByRole('button', { name: 'Add block' }).last().click();
    const image = page.getByRole('group', { name: /^\d+\. Image/ });
    await image.getByLabel('Static').check();
    await image.getByLabel('Asset id').selectOption(assetId);
    shown = await redrawn(page, shown);
    t.pass('the preview is drawn again after each change');

    // The form is long; the page it draws stays in view, whole, while the form scrolls.
    const scrolled = await page.evaluate(() => {
      const w = globalThis as unknown as {
        document: { querySelector(s: string): { getBoundingClientRect(): { bottom: number } } };
        scrollTo(x: number, y: number): void;
        scrollY: number;
        innerHeight: number;
      };
      const form = w.document.querySelector('.builder-form').getBoundingClientRect();
      // The form's last lines at the window's bottom.
      w.scrollTo(0, w.scrollY + form.bottom - w.innerHeight);
      return w.scrollY;
    });
    t.ok(scrolled > 500, `the form is long: scrolled ${Math.round(scrolled)} px to its end`);
    const box = await page.getByTestId('builder-preview').boundingBox();
    const viewport = page.viewportSize()!;
    t.ok(
      box && box.y >= 0 && box.y + box.height <= viewport.height,
      `the preview stays in view at the form's end (${JSON.stringify(box)} in ${viewport.height} px)`,
    );
    await page.evaluate(() =>
      (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
    );

    // A refused value is named at its field, and drawing stops until it is mended.
    await page
      .getByLabel(/^Font size/)
      .first()
      .fill('200');
    await page
      .getByTestId('builder-problem')
      .filter({ hasText: 'style.fontSize must be 6-96 pt, got 200' })
      .waitFor();
    t.equal(
      await page
        .getByLabel(/^Font size/)
        .first()
        .getAttribute('aria-invalid'),
      'true',
      'the field is marked',
    );
    await page
      .getByLabel(/^Font size/)
      .first()
      .fill('16');
    await page.getByTestId('builder-problem').waitFor({ state: 'detached' });
    shown = await redrawn(page, shown);

    // Another font: the preview changes, and the font's scripts are said.
    const font = page.getByLabel('Font', { exact: true });
    const fonts = await font
      .locator('option')
      .evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value));
    t.ok(fonts.length > 1, 'several fonts to choose from');
    const other = fonts.find((f) => f && f !== undefined && f !== '')!;
    const current = await font.inputValue();
    await font.selectOption(fonts.find((f) => f !== current && f !== '') ?? other);
    const afterFont = await redrawn(page, shown);
    t.not(afterFont, shown, 'the preview changes when the font changes');
    t.match(await page.getByTestId('font-coverage').textContent(), /^Writes .*Latin/);
    await accessible(t, page, 'builder');

    // Saved: a template of the account with the id to copy; saved again, revision 2.
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByText(/Saved “Order note” as tpl_\w+, revision 1\./).waitFor();
    const templateId = (await page.getByTestId('template-id').textContent())!;
    await page.getByRole('button', { name: 'Copy id' }).click();
    t.equal(await page.evaluate('navigator.clipboard.readText()'), templateId, 'the id is copied');
    const { accounts } = (await page.evaluate(() =>
      fetch('/dashboard/v1/session').then((r) => r.json()),
    )) as {
      accounts: { accountId: string }[];
    };
    const tenant = { accountId: accounts[0]!.accountId, mode: 'test' as const };
    const stored = await server.ctx.store.templates.get(tenant, templateId);
    const model = stored!.model as unknown as { blocks: Record<string, unknown>[] };
    t.same(
      model.blocks.map((b) => b.type),
      ['heading', 'text', 'table', 'image'],
      'the blocks as built, in order',
    );
    t.same(
      (model.blocks[2]!.columns as { key: string }[]).map((c) => c.key),
      ['item', 'price'],
    );
    t.match(model.blocks[3], { static: true, assetId }, 'the image from the account');
    await page.getByLabel('Name', { exact: true }).fill('Order note, signed');
    await page.getByRole('button', { name: 'Save as the next revision' }).click();
    await page.getByText('Saved “Order note, signed” as revision 2.').waitFor();
    t.equal((await server.ctx.store.templates.get(tenant, templateId))!.revision, 2, 'revision 2, same id');

    // A job through the public API with the dashboard's key: the "Use it" curl line, run as it is
    // shown, sends sample data under the template's own block keys.
    const curl = (await page.getByTestId('curl').textContent())!;
    const clientCode = (await page.getByTestId('client-code').textContent())!;
    const sent = JSON.parse(/-d '([\s\S]*)'$/.exec(curl)![1]!) as {
      templateId: string;
      data: Record<string, unknown>;
    };
    t.same(
      JSON.parse(/generate\(\n {2}([\s\S]*),\n {2}\{ to:/.exec(clientCode)![1]!),
      sent,
      'the client call sends the same input',
    );
    t.equal(sent.templateId, templateId);
    t.same(
      Object.keys(sent.data).sort(),
      ['body', 'table1', 'title'],
      "the template's own fields, every one",
    );
    t.match(sent.data.table1, [{ item: String, price: String }], 'the table by its column keys');
    // Run beside the server, which answers from this process: the wait must not block it.
    const ran = await promisify(execFile)('bash', ['-c', curl], {
      env: childEnv({ SCRIPTORIUM_API_KEY: key }),
    });
    const submitted = JSON.parse(ran.stdout) as { id: string; status: string };
    t.match(submitted, { id: /^gen_/, status: 'queued' }, 'the template takes the sample data: a job');
    const job = await jobFinished(t, server, key, submitted.id);
    t.equal(job.status, 'completed');
    await page.getByRole('link', { name: 'Jobs' }).click();
    const row = page.getByRole('row', { name: new RegExp(job.id) });
    await row.waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('link', { name: /Download PDF/ }).click(),
    ]);
    const pdf = readFileSync((await download.path())!);
    t.equal(pdf.subarray(0, 5).toString(), '%PDF-', 'the PDF downloads');
    t.ok(pdf.includes(Buffer.from('/Subtype /Image')), 'with the image placed');
  },
);

t.test(
  'personal fonts: gated by the plan, a sample line written before one is added, then usable',
  async (t) => {
    const { page } = await newPage();
    await signUp(page, { name: 'Emmy Noether', company: 'Noether Hands', email: 'emmy@example.com' });
    const view = (await page.evaluate(() => fetch('/dashboard/v1/session').then((r) => r.json()))) as {
      csrfToken: string;
      accounts: { accountId: string }[];
    };
    const accountId = view.accounts[0]!.accountId;
    const fontFile = createRequire(import.meta.url).resolve(
      '@expo-google-fonts/indie-flower/400Regular/IndieFlower_400Regular.ttf',
    );
    const fontBytes = [...readFileSync(fontFile)];
    const post = (name: string, bytes: number[]) =>
      page.evaluate(
        async ({ url, csrf, bytes }) => {
          const r = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/octet-stream', 'x-csrf-token': csrf },
            body: new Uint8Array(bytes),
          });
          return { status: r.status, body: await r.json() };
        },
        {
          url: `/dashboard/v1/accounts/${accountId}/fonts?name=${encodeURIComponent(name)}`,
          csrf: view.csrfToken,
          bytes,
        },
      );

    // Without an eligible plan: the page says so, and the API refuses.
    await page.getByRole('link', { name: 'Fonts' }).click();
    await page.getByRole('heading', { name: 'Fonts' }).waitFor();
    t.match(
      await page.getByTestId('fonts-gate').textContent(),
      /Personal fonts need a plan that includes premium fonts\. This account's plan: No subscription\. On any plan you can make a font of your own handwriting.*request a plan that includes personal fonts there: Your handwriting\./,
    );
    t.equal(
      await page
        .getByTestId('fonts-gate')
        .getByRole('link', { name: 'Your handwriting' })
        .getAttribute('href'),
      '/dashboard/handwriting',
      'and the way there',
    );
    t.equal(await page.getByLabel('Font file').count(), 0, 'no upload offered');
    const refused = await post('My hand', fontBytes);
    t.match(
      refused,
      { status: 403, body: { error: { code: 'FONT_ACCESS_DENIED' } } },
      'the API refuses it too',
    );
    t.equal(
      (await server.ctx.store.fonts.pageVisible(accountId, { limit: 100 })).data.filter((f) => f.accountId)
        .length,
      0,
    );
    await accessible(t, page, 'fonts-gate');

    // On the Pro plan: a file that is no font is refused saying why; a font is written, then added.
    await server.ctx.store.accounts.setPlan(accountId, 'pro', 30, new Date());
    await page.reload();
    await page.getByLabel('Font file').waitFor();
    const dir = mkdtempSync(join(tmpdir(), 'scriptorium-dash-fonts-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const notFont = join(dir, 'hand.ttf');
    writeFileSync(notFont, 'these bytes are not a font');
    await page.getByLabel('Font name').fill('My hand');
    await page.getByLabel('Font file').setInputFiles(notFont);
    await page.getByRole('button', { name: 'Add font' }).click();
    await page.getByText(/not a usable font: no TrueType or OpenType signature/).waitFor();
    t.pass('a file that is no font is refused, saying why');
    await page.getByLabel('Font name').fill('My hand');
    await page.getByLabel('Font file').setInputFiles(fontFile);
    await page.getByRole('button', { name: 'Add font' }).click();
    await page.getByText(/Added “My hand” as font_\w+\./).waitFor();
    const sample = page.getByTestId('font-sample');
    t.match(await sample.getAttribute('alt'), /written in My hand: Sphinx of black quartz/);
    t.ok(
      await sample.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth > 300),
      'the sample line is drawn',
    );
    const row = page.getByRole('row', { name: /My hand/ });
    t.match(await row.textContent(), /My handLatin.*personal/, 'listed as personal, with its scripts');
    const fontId = /font_\w{22}/.exec((await row.textContent())!)![0];
    await accessible(t, page, 'fonts');

    // The personal font in the builder, and through the public API with a template that uses it.
    await page.getByRole('link', { name: 'Templates' }).click();
    await page.getByRole('button', { name: 'New simple-text template' }).click();
    await page.getByTestId('builder-preview').waitFor();
    const before = await page.getByTestId('builder-preview').getAttribute('src');
    const fontSelect = page.getByLabel('Font', { exact: true });
    t.match(
      await fontSelect.locator(`option[value="${fontId}"]`).textContent(),
      /^My hand \(personal\)$/,
      'offered in the builder, marked personal',
    );
    // From another font to the personal one: the preview follows.
    const shared = await fontSelect
      .locator('option')
      .evaluateAll(
        (os, mine) => os.map((o) => (o as unknown as { value: string }).value).find((v) => v && v !== mine),
        fontId,
      );
    await fontSelect.selectOption(shared!);
    const other = await redrawn(page, before);
    await fontSelect.selectOption(fontId);
    await redrawn(page, other);
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByText(/Saved “New letter” as tpl_\w+, revision 1\./).waitFor();
    const templateId = (await page.getByTestId('template-id').textContent())!;
    const { key } = await createKey(
      { store: server.ctx.store, blobs: server.ctx.blobs, config: server.ctx.config, now: () => new Date() },
      { account: accountId, mode: 'test', name: 'fonts' },
    );
    const rendered = await fetch(`${base}/api/v1/renders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ templateId, text: 'Written in my own hand.', format: 'svg' }),
    });
    t.equal(rendered.status, 200, 'the public API writes with the personal font');
    t.match(await rendered.text(), /^<svg/);

    // Renamed; kept while a template writes with it; deleted once none does, file and all.
    const stored = (await server.ctx.store.fonts.getVisible(accountId, fontId))!;
    t.ok(await server.ctx.blobs.get(stored.location), 'its file is stored');
    await page.getByRole('link', { name: 'Fonts' }).click();
    await page.getByRole('button', { name: 'Rename My hand' }).click();
    await page.getByLabel('New name of My hand').fill('My best hand');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Renamed “My hand” to “My best hand”.').waitFor();
    t.equal((await server.ctx.store.fonts.getVisible(accountId, fontId))?.name, 'My best hand');
    const remove = async () => {
      await page.getByRole('button', { name: 'Delete My best hand' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete font' }).click();
    };
    await remove();
    await page
      .getByText(`${fontId} writes template ${templateId} (“New letter”, test)`, { exact: false })
      .waitFor();
    t.ok(await server.ctx.store.fonts.getVisible(accountId, fontId), 'kept while a template writes with it');
    await page.getByRole('link', { name: 'Templates' }).click();
    await page.getByRole('button', { name: 'Edit New letter' }).click();
    await page.getByTestId('builder-preview').waitFor();
    await page.getByLabel('Font', { exact: true }).selectOption(shared!);
    await page.getByRole('button', { name: 'Save as the next revision' }).click();
    await page.getByText('Saved “New letter” as revision 2.').waitFor();
    await page.getByRole('link', { name: 'Fonts' }).click();
    await remove();
    await page.getByText('Deleted the font “My best hand”.').waitFor();
    t.equal(await page.getByRole('row', { name: /My best hand/ }).count(), 0, 'no longer listed');
    t.equal(await server.ctx.store.fonts.getVisible(accountId, fontId), null, 'its record is gone');
    t.equal(await server.ctx.blobs.get(stored.location), null, 'and its file');
  },
);

t.test('drafts over HTTP: nothing stored, refusals name the field', async (t) => {
  const start = await fetch(`${base}/dashboard/v1/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Ann',
      accountName: 'Drafts',
      email: 'ann@example.com',
      password: 'drafts passphrase',
    }),
  });
  t.equal(start.status, 201);
  const cookie = start.headers.get('set-cookie')!.split(';')[0]!;
  const view = (await start.json()) as { csrfToken: string; accounts: { accountId: string }[] };
  const account = view.accounts[0]!.accountId;
  const draft = (body: unknown) =>
    fetch(`${base}/dashboard/v1/accounts/${account}/drafts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': view.csrfToken },
      body: JSON.stringify(body),
    });
  const fonts = (await (
    await fetch(`${base}/dashboard/v1/accounts/${account}/fonts?mode=test`, { headers: { cookie } })
  ).json()) as { data: { id: string }[] };
  const simple = { version: 2, name: 'Draft', mode: 'simple', style: { fontId: fonts.data[0]!.id } };
  const ok = await draft({ mode: 'test', template: simple });
  t.equal(ok.status, 200);
  const answer = (await ok.json()) as { png: string; sample: { text: string } };
  t.same(Buffer.from(answer.png, 'base64').subarray(1, 4).toString(), 'PNG', 'a PNG');
  t.match(answer.sample.text, /^Dear /, 'drawn with a sample letter');
  const own = await draft({ mode: 'test', template: simple, sample: { data: {} } });
  t.match(await own.json(), {
    error: { code: 'INVALID_REQUEST', field: 'data', message: /simple template takes text, got data/ },
  });
  const bad = await draft({
    mode: 'test',
    template: { ...simple, style: { ...simple.style, modifiers: { lines: { slope: 9 } } } },
  });
  t.equal(bad.status, 400);
  t.match(await bad.json(), {
    error: { field: 'style.modifiers.lines.slope', message: /slope must be 0-3 degrees, got 9/ },
  });
  const asText = await draft({ mode: 'test', template: JSON.stringify(simple) });
  t.equal(asText.status, 400);
  t.match(
    await asText.json(),
    { error: { code: 'INVALID_REQUEST', field: 'template', message: /template must be a JSON object, got/ } },
    'the template travels as a JSON object, not as text inside JSON',
  );
  t.equal(
    (await server.ctx.store.templates.list({ accountId: account, mode: 'test' }, { limit: 10 })).data.length,
    0,
    'no template stored',
  );
  const stranger = await fetch(`${base}/dashboard/v1/accounts/acc_0000000000000000000000/drafts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': view.csrfToken },
    body: JSON.stringify({ mode: 'test', template: simple }),
  });
  t.equal(stranger.status, 404, 'another account does not exist for this user');
});

t.test('over HTTP: the cookie, CSRF, other origins, the sign-in limit, what is stored', async (t) => {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}/dashboard/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const up = await post('/signup', {
    email: 'Lin@Example.com ',
    password: 'correct horse battery staple',
    name: 'Lin',
    accountName: 'Lin Co',
  });
  t.equal(up.status, 201);
  const cookie = up.headers.get('set-cookie')!;
  t.match(
    cookie,
    /^scriptorium_session=[\w-]{43}; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=\d+$/,
  );
  const token = /=([\w-]+);/.exec(cookie)![1]!;
  const me = (await up.json()) as {
    user: { email: string };
    csrfToken: string;
    accounts: { accountId: string }[];
  };
  t.equal(me.user.email, 'lin@example.com', 'the address is kept trimmed and in lower case');
  const jar = { cookie: `scriptorium_session=${token}` };
  const keys = `/accounts/${me.accounts[0]!.accountId}/keys`;

  const noCsrf = await post(keys, { mode: 'test', name: 'x' }, jar);
  t.equal(noCsrf.status, 403);
  t.match(((await noCsrf.json()) as { error: { message: string } }).error.message, /X-CSRF-Token/);
  const crossSite = await post(
    keys,
    { mode: 'test', name: 'x' },
    { ...jar, 'x-csrf-token': me.csrfToken, origin: 'https://evil.example' },
  );
  t.equal(crossSite.status, 403, 'another origin is refused even with the token');
  const fine = await post(keys, { mode: 'test', name: 'x' }, { ...jar, 'x-csrf-token': me.csrfToken });
  t.equal(fine.status, 201);
  t.equal(
    (await fetch(`${base}/api/v1/usage`, { headers: jar })).status,
    401,
    'a session does not open /api/v1',
  );
  const otherAccount = await fetch(
    `${base}/dashboard/v1/accounts/acc_0000000000000000000000/keys?mode=test`,
    {
      headers: jar,
    },
  );
  t.equal(otherAccount.status, 404, "another account's keys do not exist for this user");

  // The store keeps an argon2id hash and the token's SHA-256, never the secrets.
  const db = server.ctx.store.db.kysely;
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', 'lin@example.com')
    .executeTakeFirstOrThrow();
  t.match(user.password_hash, /^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
  const stored = JSON.stringify([
    await db.selectFrom('users').selectAll().execute(),
    await db.selectFrom('sessions').selectAll().execute(),
  ]);
  t.notOk(stored.includes('correct horse battery staple'), 'no password stored');
  t.notOk(stored.includes(token), 'no session token stored');

  // Wrong passwords: refused alike for a known and an unknown address; the 11th try is 429.
  const wrong = await post('/signin', { email: 'lin@example.com', password: 'not the password' });
  t.equal(wrong.status, 401);
  const unknown = await post('/signin', { email: 'nobody@example.com', password: 'not the password' });
  t.equal(unknown.status, 401);
  t.equal(
    ((await wrong.json()) as { error: { message: string } }).error.message,
    ((await unknown.json()) as { error: { message: string } }).error.message,
    'the same answer whether or not the address has a user',
  );
  let last: Response = wrong;
  for (let i = 0; i < 10; i++)
    last = await post('/signin', { email: 'lin@example.com', password: 'still wrong' });
  t.equal(last.status, 429, 'the eleventh try for one address in 15 minutes is refused');
  t.ok(Number(last.headers.get('retry-after')) > 0, 'with Retry-After');
  const right = await post('/signin', { email: 'lin@example.com', password: 'correct horse battery staple' });
  t.equal(right.status, 429, 'even with the right password until the window passes');

  const out = await post('/signout', {}, { ...jar, 'x-csrf-token': me.csrfToken });
  t.equal(out.status, 204);
  t.match(out.headers.get('set-cookie'), /Max-Age=0/);
  t.equal((await fetch(`${base}/dashboard/v1/session`, { headers: jar })).status, 401, 'the session is over');
});

t.test('npm start: the dashboard address and a demo login beside the demo key, which sign in', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-dash-demo-'));
  // Its access lines too: a wait that fails says what the page asked for and what it was answered.
  const served = await startServe({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'info' });
  t.teardown(async () => {
    await served.stop('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });
  const out = served.stdout();
  const login = /dashboard (http:\/\/\S+\/dashboard)\s+sign in as (\S+) with (\S+)\s+\(shown once\)/.exec(
    out,
  );
  t.ok(login, 'the banner gives the dashboard and a demo login');
  t.match(out, /API key\s+hw_test_\w+/, 'beside the demo key');
  t.match(out, /; dashboard on http:\/\/\S+\/dashboard\n/, 'and the listening line names the dashboard');
  const [, url, email, password] = login!;
  const { page } = await newPage();
  await page.goto(url!);
  /**
   * Waits for `what`, up to 90 s: a fresh data directory's first start, on a machine busy with
   * the rest of the suite, was seen to take longer than the default 30 s to show the sign-in form
   * (and once never showed it). If it never shows: what the page showed, and the server's lines.
   */
  const shown = (what: ReturnType<typeof page.getByLabel>) =>
    what.waitFor({ timeout: 90_000 }).catch(async (err: Error) => {
      const body = await page
        .locator('body')
        .innerText({ timeout: 5000 })
        .catch((e: Error) => `(unread: ${e.message})`);
      throw new Error(
        `${err.message}\nthe page at ${page.url()} shows: ${body.slice(0, 500)}\nthe server's last lines:\n${served.stderr().slice(-3000)}`,
      );
    });
  await shown(page.getByLabel('Email'));
  await page.getByLabel('Email').fill(email!);
  await page.getByLabel('Password').fill(password!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await shown(page.getByRole('row', { name: /demo key/ }));
  t.match(await page.locator('header').textContent(), /Demo/, "the demo account's keys");
});
