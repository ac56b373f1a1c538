// The dashboard on a phone's window (390 x 844) in real Chromium against the real server: every
// page, with rows in its tables, fits the width (nothing scrolls sideways), its navigation can be
// reached whole, and it passes axe-core's WCAG 2.1 A and AA checks.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import t from 'tap';
import { readExample } from '../../src/app/demo.ts';
import { accessible, accountOf, dashboardTest, fits, newKeyOf, signUp } from '../helpers/dashboard.ts';
import { call, jobFinished } from '../helpers/server.ts';

const { server, base, newPage } = await dashboardTest(t, 'the narrow dashboard test');
const PHONE = { width: 390, height: 844 };

/** A call of the dashboard API from the signed-in page, with the session's CSRF token. */
function dashboardCall(page: Page, path: string, body: unknown, type = 'application/json') {
  return page.evaluate(
    async ({ path, body, type }) => {
      const { csrfToken } = (await (await fetch('/dashboard/v1/session')).json()) as { csrfToken: string };
      const res = await fetch(`/dashboard/v1${path}`, {
        method: 'POST',
        headers: { 'content-type': type, 'x-csrf-token': csrfToken },
        body: type === 'application/json' ? JSON.stringify(body) : new Uint8Array(body as number[]),
      });
      return (await res.json()) as { id: string };
    },
    { path, body, type },
  );
}

t.test('every page at 390 x 844: no sideways scroll, the whole navigation, no axe violation', async (t) => {
  const { page } = await newPage(PHONE);
  await page.goto(`${base}/dashboard/signin`);
  await page.getByRole('heading', { name: 'Sign in to Scriptorium' }).waitFor();
  await fits(t, page, 'sign-in');
  await accessible(t, page, 'phone-sign-in');
  await page.goto(`${base}/dashboard/signup`);
  await page.getByRole('heading', { name: 'Create your Scriptorium account' }).waitFor();
  await fits(t, page, 'sign-up');
  await accessible(t, page, 'phone-sign-up');

  await signUp(page, base, {
    name: 'Katherine Johnson',
    company: 'Trajectory Notes',
    email: 'kj@example.com',
  });
  const key = await newKeyOf(page, 'phone');
  const accountId = await accountOf(page);
  const at = `/accounts/${accountId}`;
  // Something in every table: a template, an image, a job, sheets spent, a webhook endpoint.
  await dashboardCall(page, `${at}/topups`, { sheets: 50 });
  const template = await dashboardCall(page, `${at}/templates`, {
    mode: 'test',
    template: JSON.parse(readExample('letter', {}).template),
  });
  const meadow = [...readFileSync(new URL('../../src/app/demo/meadow.png', import.meta.url))];
  await dashboardCall(page, `${at}/assets?mode=test`, meadow, 'image/png');
  await dashboardCall(page, `${at}/webhooks`, {
    mode: 'test',
    url: 'https://hooks.example.com/a-rather-long-path/for-the-scriptorium-events?account=trajectory-notes',
  });
  const submitted = await call(t, server, 'POST', '/generations', {
    key,
    body: { templateId: template.id, text: 'Dear Dorothy, the orbit checks out.' },
  });
  t.equal((await jobFinished(t, server, key, submitted.body.id)).status, 'completed');
  await server.service.counter.flush();
  // On a plan with personal fonts, so that the handwriting page shows its forms, not its gate.
  await server.ctx.store.accounts.setPlan(accountId, 'pro', 30, new Date());

  const pages: { link: string; heading: string; name: string; open?: string; rows?: false }[] = [
    { link: 'API keys', heading: 'API keys', name: 'keys' },
    { link: 'Templates', heading: 'Templates', name: 'templates' },
    { link: 'Images', heading: 'Images', name: 'images' },
    { link: 'Fonts', heading: 'Fonts', name: 'fonts' },
    { link: 'Your handwriting', heading: 'Your handwriting', name: 'handwriting', rows: false },
    { link: 'Jobs', heading: 'Jobs', name: 'jobs' },
    { link: 'Batches', heading: 'Batches', name: 'batches', rows: false },
    { link: 'Usage', heading: 'Usage', name: 'usage', open: 'The figures of each day with use' },
    { link: 'Webhooks', heading: 'Webhooks', name: 'webhooks' },
    { link: 'Members', heading: 'Members', name: 'members' },
  ];
  for (const p of pages) {
    const link = page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: p.link });
    const box = (await link.boundingBox())!;
    t.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `the "${p.link}" link is inside the window`);
    await link.click();
    await page.getByRole('heading', { name: p.heading, exact: true }).waitFor();
    if (p.open) await page.getByText(p.open).click();
    if (p.rows !== false) await page.getByRole('row').nth(1).waitFor();
    await fits(t, page, p.name);
    await accessible(t, page, `phone-${p.name}`);
  }

  // The snippets of a template, and the builder.
  await page.getByRole('link', { name: 'Templates' }).click();
  await page.getByRole('button', { name: /^Use it/ }).click();
  await page.getByTestId('curl').waitFor();
  await fits(t, page, 'templates, its snippets open');
  await accessible(t, page, 'phone-use-it');
  await page.getByRole('button', { name: 'New structured template' }).click();
  await page.getByTestId('builder-preview').waitFor({ timeout: 30_000 });
  await fits(t, page, 'the builder');

  // An invitation, answered on a phone.
  await page.getByRole('link', { name: 'Members' }).click();
  await page.getByLabel('Their email').fill('dorothy@example.com');
  await page.getByRole('button', { name: 'Create invitation' }).click();
  const link = (await page.getByTestId('invite-link').textContent())!;
  await fits(t, page, 'members, an invitation made');
  const guest = await newPage(PHONE);
  await guest.page.goto(link);
  await guest.page.getByRole('heading', { name: 'Join Trajectory Notes' }).waitFor();
  await fits(t, guest.page, 'the invitation');
  await accessible(t, guest.page, 'phone-invite');

  // The live data switch changes nothing of the width.
  await page.getByText('Live data').click();
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByText('No live keys yet.').waitFor();
  await fits(t, page, 'live keys');
});
