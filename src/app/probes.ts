// Liveness and readiness (docs/operations.md, "Probes"): a process is alive while it answers;
// it is ready when every service it needs answers within a deadline: the store, the blob store
// and, in a farm, Redis. A process that is stopping is no longer ready.

export type Check = () => Promise<unknown>;

export interface Readiness {
  ready: boolean;
  /** Each service: `ok`, or why not (the error, or the deadline it missed). */
  checks: Record<string, string>;
}

/** Runs every check at once, each within `deadlineMs`. */
export async function readiness(checks: Record<string, Check>, deadlineMs: number): Promise<Readiness> {
  const results = await Promise.all(
    Object.entries(checks).map(async ([name, check]): Promise<[string, string]> => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`no answer within ${deadlineMs} ms`), deadlineMs);
      });
      const answer = check().then(
        () => 'ok',
        (err: unknown) => ((err as Error)?.message ?? String(err)).slice(0, 200),
      );
      try {
        return [name, await Promise.race([answer, late])];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const out = Object.fromEntries(results);
  return { ready: results.every(([, r]) => r === 'ok'), checks: out };
}
