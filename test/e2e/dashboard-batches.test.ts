// The batch page in real Chromium against the real server: a CSV chosen, its columns mapped to the
// envelope template's fields (those whose names say so already mapped, one mapped by hand, one
// kept as a label), the first row drawn, the batch sent and followed to its end, its ZIP and its
// merged PDF downloaded from the page and opened.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { readExample } from '../../src/app/demo.ts';
import { accessible, accountOf, addTestTemplate, dashboardTest, signUp } from '../helpers/dashboard.ts';

const { server, base, newPage } = await dashboardTest(t, 'the dashboard batches test');
const dir = mkdtempSync(join(tmpdir(), 'scriptorium-dashboard-batch-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

t.test('a CSV mapped, its first row previewed, the batch followed to its ZIP and merged PDF', async (t) => {
  const { page } = await newPage();
  await signUp(page, base, { name: 'Mary Hale', company: 'Helstone Letters', email: 'mary@example.com' });
  const accountId = await accountOf(page);
  const templateId = await addTestTemplate(page, accountId, JSON.parse(readExample('envelope', {}).template));

  await page.getByRole('link', { name: 'Batches' }).click();
  await page.getByRole('heading', { name: 'Batches' }).waitFor();
  await page.getByLabel('Template').selectOption(templateId);
  const csv = [
    'Name,Street,Town,Email',
    'Mrs Margaret Hale,14 Rosemary Lane,Helstone,margaret@example.com',
    'Mr John Thornton,Marlborough Mills,Milton,john@example.com',
    'Mr Nicholas Higgins,Princeton Street,Milton,nicholas@example.com',
  ].join('\n');
  // Saved by a spreadsheet in Latin-1: refused as not UTF-8, where it stops being so.
  const latin1 = join(dir, 'latin1.csv');
  writeFileSync(latin1, Buffer.from('Name,Town\nMme Ren\xe9e Hale,Helstone\n', 'latin1'));
  await page.getByLabel('CSV file').setInputFiles(latin1);
  await page
    .getByText('latin1.csv is not UTF-8: line 2, byte 17 (0xe9) does not start a UTF-8 character.')
    .waitFor();
  const file = join(dir, 'addresses.csv');
  writeFileSync(file, csv);
  await page.getByLabel('CSV file').setInputFiles(file);
  await page.getByRole('heading', { name: 'Columns of addresses.csv (3 rows)' }).waitFor();
  t.equal(
    await page.getByLabel('Name', { exact: true }).inputValue(),
    'name',
    'a column named as a field is mapped',
  );
  t.equal(await page.getByLabel('Street', { exact: true }).inputValue(), 'street');
  t.equal(
    await page.getByLabel('Town', { exact: true }).inputValue(),
    '',
    'one no field is named after is left out',
  );
  t.same(
    await page.getByLabel('Town', { exact: true }).locator('option').allTextContents(),
    ['(left out)', 'name', 'street', 'city', 'country', 'label: metadata.Town', 'seed of the hand'],
    "the template's fields to choose from",
  );
  await page.getByLabel('Town', { exact: true }).selectOption('city');
  await page.getByLabel('Email', { exact: true }).selectOption('metadata.Email');

  // The first row, drawn as the batch will draw it.
  const preview = page.getByRole('img', { name: "The first row's first page as the batch will write it" });
  await preview.waitFor();
  const png = Buffer.from(
    (await preview.getAttribute('src'))!.replace(/^data:image\/png;base64,/, ''),
    'base64',
  );
  t.equal(png.subarray(1, 4).toString(), 'PNG', 'a PNG of the first row');
  await accessible(t, page, 'batches-mapped');

  await page.getByRole('button', { name: 'Make 3 documents' }).click();
  await page.getByRole('heading', { name: /^Batch bat_\w+: completed$/ }).waitFor({ timeout: 120_000 });
  t.match(
    await page.getByText(/rows completed/).textContent(),
    /3 of 3 rows completed; 3 pages, 4\.5 sheets/,
  );
  t.equal(await page.getByRole('progressbar', { name: 'Rows ended' }).getAttribute('value'), '3');
  await accessible(t, page, 'batches-done');

  const zipDownload = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download ZIP' }).click();
  const zip = join(dir, 'letters.zip');
  await (await zipDownload).saveAs(zip);
  t.same(execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n'), [
    '0.pdf',
    '1.pdf',
    '2.pdf',
  ]);

  const mergedDownload = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download merged PDF' }).click();
  const merged = join(dir, 'merged.pdf');
  await (await mergedDownload).saveAs(merged);
  t.match(execFileSync('pdfinfo', [merged], { encoding: 'utf8' }), /Pages:\s+3\n/, 'one page a row');
  t.match(
    execFileSync('pdftotext', [merged, '-'], { encoding: 'utf8' }),
    /Margaret Hale[\s\S]*Helstone[\s\S]*John Thornton[\s\S]*Milton[\s\S]*Nicholas Higgins/,
    'the mapped columns written, row after row',
  );

  // The batch as the API has it: the label kept, each row its own seed.
  const [batch] = await server.ctx.store.batches
    .list({ accountId, mode: 'test' }, { limit: 1 })
    .then((p) => p.data);
  t.ok(batch?.merge, 'sent with merge');
  const rows = await server.ctx.store.batches.rows(batch!.id, { limit: 10 });
  t.same(
    rows.data.map((r) => r.letter.metadata),
    [{ Email: 'margaret@example.com' }, { Email: 'john@example.com' }, { Email: 'nicholas@example.com' }],
  );
  t.equal(new Set(rows.data.map((r) => r.letter.seed)).size, 3, 'a seed a row');
  await page.getByRole('heading', { name: 'Recent batches' }).waitFor();
  t.ok(await page.getByRole('link', { name: `PDF of ${batch!.id}` }).isVisible(), 'listed with its links');
});

t.test('envelopes: a letter and its envelope for every row, the columns of both mapped', async (t) => {
  const { page } = await newPage();
  await signUp(page, base, { name: 'Fanny Price', company: 'Mansfield Letters', email: 'fanny@example.com' });
  const accountId = await accountOf(page);
  const letterId = await addTestTemplate(page, accountId, JSON.parse(readExample('letter', {}).template));
  const envelopeId = await addTestTemplate(page, accountId, JSON.parse(readExample('envelope', {}).template));

  await page.getByRole('link', { name: 'Batches' }).click();
  await page.getByRole('heading', { name: 'Batches' }).waitFor();
  await page.getByLabel('Template').selectOption(letterId);
  await page.getByLabel('Envelopes').selectOption(envelopeId);
  const file = join(dir, 'addressed.csv');
  writeFileSync(
    file,
    [
      'text,envelope.name,envelope.street,envelope.city',
      '"Dear Margaret, thank you for the roses.",Mrs Margaret Hale,14 Rosemary Lane,Helstone',
      '"Dear John, thank you for the tour of the mill.",Mr John Thornton,Marlborough Mills,Milton',
    ].join('\n'),
  );
  await page.getByLabel('CSV file').setInputFiles(file);
  await page.getByRole('heading', { name: 'Columns of addressed.csv (2 rows)' }).waitFor();
  for (const column of ['text', 'envelope.name', 'envelope.street', 'envelope.city'])
    t.equal(await page.getByLabel(column, { exact: true }).inputValue(), column, `${column} is mapped`);
  await page.getByRole('img', { name: "The first row's first page as the batch will write it" }).waitFor();
  await accessible(t, page, 'batches-envelopes');
  await page.getByRole('button', { name: 'Make 2 documents' }).click();
  await page.getByRole('heading', { name: /^Batch bat_\w+: completed$/ }).waitFor({ timeout: 120_000 });

  const zipDownload = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download ZIP' }).click();
  const zip = join(dir, 'addressed.zip');
  await (await zipDownload).saveAs(zip);
  t.same(
    execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n'),
    ['0.pdf', '0-envelope.pdf', '1.pdf', '1-envelope.pdf'],
    'each row its letter and its envelope',
  );
  const [batch] = await server.ctx.store.batches
    .list({ accountId, mode: 'test' }, { limit: 1 })
    .then((p) => p.data);
  t.equal(batch?.envelopeTemplateId, envelopeId, 'the batch names its envelope template');
});
