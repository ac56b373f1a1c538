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

export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
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
}
