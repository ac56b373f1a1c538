// The dashboard in real Chromium, as the browser tests drive it: a page that fails its test on
// any script error, axe-core's WCAG 2.1 A and AA checks, and a customer signing up and making a
// key. DASHBOARD_SCREENSHOTS=1 writes each checked page to docs/dashboard/.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Test } from 'tap';
import type { Config } from '../../src/config/index.ts';
import { CHROMIUM, chromiumAvailable, launchChromium } from './chromium.ts';
import { startTestServer } from './server.ts';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS =
  process.env.DASHBOARD_SCREENSHOTS === '1' ? new URL('../../docs/dashboard/', import.meta.url) : null;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

/** Ends the file (skipped) where Chromium is missing, except in CI, where that is a failure. */
export function needChromium(t: Test, what: string): void {
  if (!chromiumAvailable && process.env.CI) throw new Error(`${what} needs Chromium at ${CHROMIUM}`);
  if (!chromiumAvailable) {
    t.comment(`${what}: skipped, no Chromium at ${CHROMIUM}`);
    process.exit(0);
  }
}

export interface DashboardBrowser {
  browser: Browser;
  /** A fresh context and page (1200 x 800 unless told); any script error fails `t` at its end. */
  newPage(viewport?: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }>;
}

export async function dashboardBrowser(t: Test, base: string): Promise<DashboardBrowser> {
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  return {
    browser,
    async newPage(viewport = { width: 1200, height: 800 }) {
      const context = await browser.newContext({ viewport });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) errors.push(m.text());
      });
      t.teardown(() => {
        if (errors.length) t.fail(`the page reported errors: ${errors.join(' | ')}`);
      });
      return { context, page };
    },
  };
}

/** A dashboard test's start: Chromium (or the file skipped without it), the real server, a browser. */
export async function dashboardTest(t: Test, what: string, overrides: Partial<Config> = {}) {
  needChromium(t, what);
  const server = await startTestServer(t, overrides);
  const { newPage } = await dashboardBrowser(t, server.base);
  return { server, base: server.base, newPage };
}

/**
 * axe-core's WCAG 2.1 A and AA checks on the page as it is: no violation. axe is loaded once a
 * document (the dashboard moves between its pages without loading a new one), and gathers the
 * violations alone (`resultTypes`: the passes' and the incomplete checks' nodes are not collected).
 */
export async function accessible(t: Test, page: Page, name: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(o: unknown): Promise<{ violations: unknown[] }> } })
      .axe;
    const r = await axe.run({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return r.violations as { id: string; help: string; nodes: { target: string[] }[] }[];
  });
  t.same(
    violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    [],
    `${name}: no accessibility violations`,
  );
  if (SHOTS) await page.screenshot({ path: new URL(`${name}.png`, SHOTS).pathname, fullPage: true });
}

/** A new customer signs up and lands on their keys. */
export async function signUp(
  page: Page,
  base: string,
  who: { name: string; company: string; email: string },
): Promise<void> {
  await page.goto(`${base}/dashboard/signup`);
  await page.getByLabel('Your name').fill(who.name);
  await page.getByLabel('Company or project').fill(who.company);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(`a passphrase of ${who.name}`);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
}

/** A key made on the keys page (in the mode shown), as the customer copies it. */
export async function newKeyOf(page: Page, name: string): Promise<string> {
  await page.getByLabel('Key name').fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.getByTestId('new-key').textContent())!;
  await page.getByRole('button', { name: 'I have saved it' }).click();
  return key;
}

/** The account the page is signed in to (its first). */
export async function accountOf(page: Page): Promise<string> {
  const { accounts } = (await page.evaluate(() => fetch('/dashboard/v1/session').then((r) => r.json()))) as {
    accounts: { accountId: string }[];
  };
  return accounts[0]!.accountId;
}

/** Test sheets topped up and a test template saved through the dashboard's API, as the page would; its id. */
export async function addTestTemplate(page: Page, accountId: string, template: unknown): Promise<string> {
  return page.evaluate(
    async ({ accountId, template }) => {
      const { csrfToken } = (await (await fetch('/dashboard/v1/session')).json()) as { csrfToken: string };
      const post = (path: string, body: unknown) =>
        fetch(`/dashboard/v1/accounts/${accountId}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
          body: JSON.stringify(body),
        }).then((r) => r.json());
      await post('/topups', { sheets: 50 });
      return ((await post('/templates', { mode: 'test', template })) as { id: string }).id;
    },
    { accountId, template },
  );
}

/** The page's width against the window's: the widest element that reaches past the right edge, if any. */
export async function fits(t: Test, page: Page, name: string): Promise<void> {
  const m = await page.evaluate(() => {
    const doc = (globalThis as unknown as { document: DomDocument }).document;
    const width = doc.documentElement.clientWidth;
    const over = [...doc.querySelectorAll('body *')]
      .map((el) => ({ el, right: el.getBoundingClientRect().right }))
      .filter((x) => x.right > width + 0.5 && !x.el.closest('thead, .visually-hidden'))
      .map(
        (x) =>
          `${x.el.tagName.toLowerCase()}${x.el.className ? `.${x.el.className}` : ''} to ${Math.round(x.right)} px`,
      );
    return { scroll: doc.documentElement.scrollWidth, width, over: over.slice(0, 5) };
  });
  t.ok(
    m.scroll <= m.width,
    `${name}: ${m.scroll} px wide in a ${m.width} px window${m.over.length ? ` (${m.over.join(', ')})` : ''}`,
  );
}

interface DomDocument {
  documentElement: { clientWidth: number; scrollWidth: number };
  querySelectorAll(s: string): Iterable<{
    tagName: string;
    className: string;
    getBoundingClientRect(): { right: number };
    closest(s: string): unknown;
  }>;
}
