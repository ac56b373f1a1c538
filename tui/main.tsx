// `scriptorium tui`: the operator console in the terminal.
import { render } from 'ink';
import { App } from './app.tsx';
import { AdminClient } from './client.ts';

export async function runTui(opts: { url: string; token: string }): Promise<void> {
  const client = new AdminClient(opts.url.replace(/\/+$/, ''), opts.token);
  const app = render(<App client={client} />, { exitOnCtrlC: true });
  await app.waitUntilExit();
}
