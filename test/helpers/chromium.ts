// Debian's headless Chromium through playwright-core, as the browser tests and the Chromium
// benchmark launch it (DEPENDENCIES.md: the flags that keep it offline and quiet).
import { execFileSync } from 'node:child_process';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether Chromium runs here. */
export const chromiumAvailable = (() => {
  try {
    execFileSync(CHROMIUM, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/**
 * The test files load through tsx, whose esbuild keeps functions' names by wrapping them in a
 * `__name(fn, "name")` helper. A function handed to `page.evaluate` is sent as its source, helper
 * calls and all: every page of these browsers has the helper, doing nothing.
 */
const KEEP_NAMES = 'globalThis.__name = (fn) => fn;';

export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // browser.newPage() opens its page in a context of its own, made by newContext() too.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    await context.addInitScript(KEEP_NAMES);
    return context;
  };
  return browser;
}
