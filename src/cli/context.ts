// Opening the configured store for one command. The store, the use-cases and the service load
// only when a command needs them: `--help`, a refused argument and the integrator's commands
// (which speak HTTP) start without them.
import type { Context } from '../composition.ts';
import { io } from './io.ts';

/** The use-cases an admin command runs over the store (the webhook commands load their own). */
export interface UseCases {
  admin: typeof import('../app/admin.ts');
}

export type WithContext = <T>(
  opts: { json?: boolean },
  work: (ctx: Context, use: UseCases) => Promise<T>,
  human: (result: T) => string,
) => Promise<void>;

/** `--verbose` (before the command): print notes about the services, such as a missing S3 lifecycle rule. */
let verbose = false;

export function setVerbose(on: boolean): void {
  verbose = on;
}

/** The configured store, opened quietly unless --verbose. */
export async function openConfigured(): Promise<Context> {
  const { configFromEnv, openContext } = await import('../composition.ts');
  return openContext(configFromEnv(), { quiet: !verbose });
}

/** Opens the configured store, runs `work`, prints its result, closes. */
export const withContext: WithContext = async (opts, work, human) => {
  const [ctx, admin] = await Promise.all([openConfigured(), import('../app/admin.ts')]);
  try {
    const result = await work(ctx, { admin });
    io.out(`${opts.json ? JSON.stringify(result) : human(result)}\n`);
  } finally {
    await ctx.close();
  }
};
