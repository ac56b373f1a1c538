// The owner's webhook page in real Chromium against the real server and a real receiver: an
// endpoint added (a URL refused by the form's words first), its secret shown once and then gone,
// a test event signed with that secret and seen delivered, a job's event listed with its job, an
// endpoint that does not answer shown retrying with why, live and test apart, a delete after a
// confirmation; a member sees no endpoints and the dashboard API refuses them with 403.
import { createServer } from 'node:net';
import t from 'tap';
import { readExample } from '../../src/app/demo.ts';
import {
  accessible,
  accountOf,
  addTestTemplate,
  dashboardTest,
  newKeyOf,
  signUp,
} from '../helpers/dashboard.ts';
import { startReceiver, until } from '../helpers/receiver.ts';
import { call, jobFinished } from '../helpers/server.ts';

// The receivers are on this machine: private targets are allowed here (webhook-targets.test.ts
// shows them refused by default).
const { server, base, newPage } = await dashboardTest(t, 'the dashboard webhooks test', {
  webhookPollMs: 100,
  webhookPrivateTargets: true,
});

/** A port nothing listens on: a connection to it is refused at once. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as { port: number };
  await new Promise((r) => probe.close(r));
  return port;
}

t.test('an owner adds an endpoint, sends a test event, sees deliveries, deletes it', async (t) => {
  const { page } = await newPage();
  await signUp(page, base, { name: 'Ada Lovelace', company: 'Analytical Letters', email: 'ada@example.com' });
  const key = await newKeyOf(page, 'hooks');
  const accountId = await accountOf(page);
  let secret = '';
  const receiver = await startReceiver(t, () => secret);

  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
  await page.getByText('No test endpoints yet.').waitFor();
  await page.getByText('No test deliveries yet.').waitFor();
  await accessible(t, page, 'webhooks-empty');

  // A URL that is none is refused under the field's label, and nothing is added.
  await page.getByLabel('Endpoint URL').fill('ftp://example.com/hooks');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.getByText(/^Endpoint URL must be an http:\/\/ or https:\/\/ URL/).waitFor();
  t.equal((await server.ctx.store.webhooks.listEndpoints(accountId)).length, 0, 'nothing added');

  // Added: the secret is shown once, copied, then gone from the page.
  await page.getByLabel('Endpoint URL').fill(receiver.url);
  await page.getByLabel('Description (optional)').fill('order system');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  secret = (await page.getByTestId('new-secret').textContent())!;
  t.match(secret, /^whsec_[0-9A-Za-z]{32}$/, 'the whole secret, shown once');
  await page.getByRole('button', { name: 'Copy secret' }).click();
  t.equal(await page.evaluate('navigator.clipboard.readText()'), secret, 'the copy button copies it');
  await accessible(t, page, 'webhooks-new');
  await page.getByRole('button', { name: 'I have saved it' }).click();
  t.notOk((await page.content()).includes(secret), 'the secret is nowhere on the page any more');
  const row = page.getByRole('row', { name: /order system/ });
  t.match(await row.textContent(), new RegExp(`${receiver.url}order systemAll${secret.slice(0, 12)}…`));

  // A test event: signed with the secret the page showed, delivered, listed as delivered.
  await row.getByRole('button', { name: `Send test event to ${receiver.url}` }).click();
  await page.getByText(`Sent a test event to ${receiver.url}; its delivery is listed below.`).waitFor();
  await until('the test event arrives', () => receiver.tests.length === 1);
  const [endpoint] = await server.ctx.store.webhooks.listEndpoints(accountId);
  t.match(receiver.tests[0]!.event, {
    id: /^evt_/,
    type: 'webhook.test',
    data: { endpoint: { id: endpoint!.id, url: receiver.url, mode: 'test' } },
  });
  t.same(receiver.refused, [], 'its signature verifies under the secret shown');
  const delivered = page.getByTestId('delivery').filter({ hasText: 'webhook.test' });
  await delivered.filter({ hasText: 'Delivered' }).waitFor();
  t.match(await delivered.textContent(), /webhook\.test.*Delivered1HTTP 200/, 'delivered, one try, HTTP 200');

  // A job made with a test key: its event is listed with the job.
  const templateId = await addTestTemplate(page, accountId, JSON.parse(readExample('letter', {}).template));
  const submitted = await call(t, server, 'POST', '/generations', {
    key,
    body: { templateId, text: 'Dear Charles, the engine works.' },
  });
  t.equal(submitted.status, 202);
  t.equal((await jobFinished(t, server, key, submitted.body.id)).status, 'completed');
  await until('the job event arrives', () => receiver.processed.length === 1);
  await page.reload();
  const jobRow = page.getByTestId('delivery').filter({ hasText: submitted.body.id });
  await jobRow.filter({ hasText: 'Delivered' }).waitFor();
  t.match(await jobRow.textContent(), /generation\.completed/, "the job's event, with its job");

  // An endpoint that does not answer: its test delivery waits for its next try, saying why.
  const dead = `http://127.0.0.1:${await closedPort()}/hooks`;
  await page.getByLabel('Endpoint URL').fill(dead);
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.getByRole('button', { name: 'I have saved it' }).click();
  await page.getByRole('button', { name: `Send test event to ${dead}` }).click();
  const retrying = page.getByTestId('delivery').filter({ hasText: dead });
  await retrying.filter({ hasText: /Retrying at \d\d:\d\d UTC/ }).waitFor();
  t.match(
    await retrying.textContent(),
    /Retrying at.*1connect ECONNREFUSED/,
    'one try, and the error it met',
  );
  await accessible(t, page, 'webhooks');

  // Live data is apart: none of the test endpoints or deliveries; a live endpoint stays there.
  await page.getByText('Live data').click();
  await page.getByText('No live endpoints yet.').waitFor();
  await page.getByText('No live deliveries yet.').waitFor();
  await page.getByLabel('Endpoint URL').fill('https://example.com/live-hooks');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.getByRole('button', { name: 'I have saved it' }).click();
  await page.getByRole('row', { name: /example\.com\/live-hooks/ }).waitFor();
  await page.getByText('Test data', { exact: true }).click();
  await page.getByRole('heading', { name: 'Test endpoints' }).waitFor();
  await page.getByRole('row', { name: /order system/ }).waitFor();
  t.equal(
    await page.getByRole('row', { name: /live-hooks/ }).count(),
    0,
    'the live endpoint is not among the test ones',
  );
  const other = await server.tenant();
  const theirs = await fetch(`${base}/dashboard/v1/accounts/${other.accountId}/webhooks?mode=test`, {
    headers: { cookie: (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ') },
  });
  t.equal(theirs.status, 404, "another account's endpoints do not exist for this user");

  // Deleted after a confirmation: gone from the list, and a test event to it is refused.
  await page.getByRole('button', { name: `Delete ${receiver.url}` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete the endpoint ${receiver.url}?` });
  await dialog.getByRole('button', { name: 'Delete endpoint' }).click();
  await page.getByText(`Deleted the endpoint ${receiver.url}.`).waitFor();
  // The list is loaded again after the answer: its row leaves once it is.
  await page.getByRole('row', { name: /order system/ }).waitFor({ state: 'detached' });
  t.equal(await page.getByRole('row', { name: /order system/ }).count(), 0, 'not listed any more');
  t.same(
    (await server.ctx.store.webhooks.listEndpoints(accountId)).map((e) => e.url).sort(),
    [dead, 'https://example.com/live-hooks'].sort(),
    'the store keeps the other two',
  );
  const again = await page.evaluate(
    async ({ accountId, id }) => {
      const { csrfToken } = (await (await fetch('/dashboard/v1/session')).json()) as { csrfToken: string };
      const res = await fetch(`/dashboard/v1/accounts/${accountId}/webhooks/${id}/test?mode=test`, {
        method: 'POST',
        headers: { 'x-csrf-token': csrfToken },
      });
      return { status: res.status, body: await res.json() };
    },
    { accountId, id: endpoint!.id },
  );
  t.match(
    again,
    { status: 404, body: { error: { code: 'NOT_FOUND' } } },
    'a deleted endpoint takes no test event',
  );

  // A member: the page says only owners manage endpoints; the dashboard API refuses with 403.
  await page.getByRole('link', { name: 'Members' }).click();
  await page.getByLabel('Their email').fill('charles@example.com');
  await page.getByRole('button', { name: 'Create invitation' }).click();
  const link = (await page.getByTestId('invite-link').textContent())!;
  const member = await newPage();
  await member.page.goto(link);
  await member.page.getByLabel('Your name').fill('Charles Babbage');
  await member.page.getByLabel('Choose a password').fill('a difference engine passphrase');
  await member.page.getByRole('button', { name: 'Join Analytical Letters' }).click();
  await member.page.getByRole('heading', { name: 'API keys' }).waitFor();
  await member.page.getByRole('link', { name: 'Webhooks' }).click();
  await member.page.getByText('Only an owner of this account manages its webhook endpoints.').waitFor();
  const refused = await member.page.evaluate(
    (accountId) => fetch(`/dashboard/v1/accounts/${accountId}/webhooks?mode=test`).then((r) => r.status),
    accountId,
  );
  t.equal(refused, 403, 'a member is refused');
});
