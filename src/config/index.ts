// Configuration: the spec's defaults, then the environment, then validation that reports every
// bad variable at once (a service that dies on the first of three typos wastes two restarts).
import { type Config, type Descriptor, descriptors } from './descriptors.ts';

export { type Config, descriptors } from './descriptors.ts';

export { ConfigError, envValue } from './env.ts';
import { ConfigError } from './env.ts';

/** The settings of this process, from its environment (the one place that reads it). */
export function configFromEnv(overrides: Partial<Config> = {}): Config {
  return loadConfig(process.env, overrides);
}

/**
 * Ink writes only its last frame when it believes it runs in CI; the interactive console (which
 * requires a TTY) drops that belief before Ink is loaded.
 */
export function forgetCiForConsole(): void {
  delete process.env.CI;
}

/** Reads settings from `env`. */
export function loadConfig(env: Record<string, string | undefined>, overrides: Partial<Config> = {}): Config {
  const problems: string[] = [];
  const config: Record<string, unknown> = {};
  for (const [key, d] of Object.entries(descriptors) as [keyof Config, Descriptor][]) {
    if (key in overrides) {
      config[key] = overrides[key];
      continue;
    }
    const raw = env[d.env];
    if (raw === undefined) {
      config[key] = d.default;
      continue;
    }
    try {
      config[key] = d.parse(raw);
    } catch (err) {
      const message = (err as Error).message;
      // A secret's value is never repeated, not even a wrong one: it may be a real one mistyped.
      problems.push(
        `${d.env} ${d.secret ? `${message.replace(/, got .*$/s, '')}, got ${raw.length} characters (not shown: it is a secret)` : message}`,
      );
    }
  }
  const c = config as Config;
  if (problems.length === 0 && c.textMaxCharsFree > c.textMaxChars) {
    problems.push(
      `TEXT_MAX_CHARS_FREE must not exceed TEXT_MAX_CHARS (${c.textMaxChars}), got ${c.textMaxCharsFree}`,
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return c;
}

/** The database the store opens: PostgreSQL when DATABASE_URL says so, else a SQLite file. */
export function databaseTarget(
  config: Config,
): { dialect: 'postgres'; url: string } | { dialect: 'sqlite'; file: string } {
  const url = config.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) return { dialect: 'postgres', url };
  const file = url ?? `${config.dataDir.replace(/\/+$/, '')}/scriptorium.db`;
  return { dialect: 'sqlite', file: file.replace(/^sqlite:(\/\/)?/, '') };
}

/** Whether HOST takes this machine's clients only: 127.0.0.0/8, ::1, localhost. */
export function isLoopback(host: string): boolean {
  return /^127(\.\d{1,3}){3}$/.test(host) || host === '::1' || host === 'localhost';
}

/** Whether the framing check stands in front of the transport (FRAMING_CHECK, `auto` by HOST). */
export function framingCheckOn(config: Config): boolean {
  return config.framingCheck === 'auto' ? !isLoopback(config.host) : config.framingCheck;
}

/** Farm mode: any of the shared services configured. Embedded mode needs none. */
export function isFarm(config: Config): boolean {
  return databaseTarget(config).dialect === 'postgres' || !!config.redisUrl || !!config.s3Endpoint;
}

/** The README's table of variables, generated from the descriptors. */
export function configTable(): string {
  const rows = Object.values(descriptors).map((d: Descriptor) => {
    const shown = d.shown ?? (d.default === undefined ? 'unset' : `\`${String(d.default)}\``);
    return `| \`${d.env}\` | ${shown} | ${d.doc} |`;
  });
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

/**
 * The image renderer's allocator (mimalloc inside resvg) keeps freed pages for a second instead
 * of 10 ms (workers/native-memory.ts). It reads the process's environment when the addon first
 * loads, so the process calls this before any render thread starts.
 */
export function tuneImageAllocator(env: Record<string, string | undefined> = process.env): void {
  env.MIMALLOC_PURGE_DELAY ??= '1000';
}
