// `scriptorium tui`: the operator console in the terminal.
import { render } from 'ink';
import { App } from './app.tsx';
import { AdminClient } from './client.ts';

/** How often the console sets the terminal's raw mode again (docs/decisions.md: the console keeps its keyboard). */
const KEYBOARD_MS = 1000;

export async function runTui(opts: { url: string; token: string }): Promise<void> {
  const client = new AdminClient(opts.url.replace(/\/+$/, ''), opts.token);
  const app = render(<App client={client} />, { exitOnCtrlC: true });
  // A program sharing the terminal that puts it back in line mode (one that restores its own
  // saved settings as it exits) would leave the console deaf to keys. While the console holds
  // raw mode it sets it again each second; Node caches the mode, so it goes off and on.
  const { stdin } = process;
  const keyboard = setInterval(() => {
    if (!stdin.isTTY || !stdin.isRaw) return;
    stdin.setRawMode(false);
    stdin.setRawMode(true);
  }, KEYBOARD_MS);
  keyboard.unref();
  try {
    await app.waitUntilExit();
  } finally {
    clearInterval(keyboard);
  }
}
