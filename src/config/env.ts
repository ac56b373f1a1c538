// What needs nothing of the settings' schema: a variable read outside the settings, and the error
// of a bad configuration. The client package's command takes these alone (scripts/pack-client.ts).

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** A variable read outside the settings: the console's token, the integrator commands' key and server, DEBUG. */
export function envValue(
  name: 'ADMIN_TOKEN' | 'DEBUG' | 'SCRIPTORIUM_API_KEY' | 'SCRIPTORIUM_URL' | 'SCRIPTORIUM_FROM_SOURCE',
): string | undefined {
  return process.env[name];
}
