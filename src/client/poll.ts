// Polling a job or a batch until it ends, at a polite pace: 500 ms growing by half each poll to
// 10 s, never spending the key's last request of a window (it waits for the RateLimit reset
// instead), and after a 429 or 503 as long as the service says.
import { ScriptoriumError } from './errors.ts';
import { type Http, sleep } from './http.ts';

export interface PollOptions {
  signal?: AbortSignal;
  /** Give up after this long (default 10 minutes); the work goes on. */
  timeoutMs?: number;
  /** First pause between polls (default 500 ms); it grows by half each poll up to `maxIntervalMs`. */
  intervalMs?: number;
  /** Longest pause between polls (default 10 s, the spec's polling pace). */
  maxIntervalMs?: number;
}

/**
 * Reads `read()` until `ended` says so and answers the last read. `onPoll` hears every read that
 * has not ended, `onWait` every refusal waited out. Throws TIMEOUT (naming `what`) after
 * `timeoutMs`, ABORTED on the signal.
 */
export async function pollUntil<T extends { id: string; status: string }>(
  http: Http,
  read: () => Promise<T>,
  ended: (t: T) => boolean,
  opts: PollOptions & {
    onPoll?: (t: T, waitedMs: number) => void;
    onWait?: (last: T | null, waitMs: number, reason: 'rate-limit' | 'service-unavailable') => void;
    timeoutError?: (last: T | null, message: string) => ScriptoriumError;
  },
  what: string,
): Promise<T> {
  const started = Date.now();
  const deadline = started + (opts.timeoutMs ?? 600_000);
  const maxInterval = opts.maxIntervalMs ?? 10_000;
  let interval = opts.intervalMs ?? 500;
  let last: T | null = null;
  for (;;) {
    if (opts.signal?.aborted) throw new ScriptoriumError('ABORTED', 'the wait was aborted by its signal');
    let pause: number;
    try {
      last = await read();
      if (ended(last)) return last;
      opts.onPoll?.(last, Date.now() - started);
      pause = interval * (0.9 + Math.random() * 0.2);
      interval = Math.min(maxInterval, interval * 1.5);
      // Keep the key's last request of the window for what comes next (the download).
      const limit = http.rateLimit;
      if (limit && limit.remaining <= 1) pause = Math.max(pause, limit.resetSeconds * 1000 + 100);
    } catch (err) {
      // The client's own retries gave up on a refusal: the wait goes on after the service's pause.
      if (!(err instanceof ScriptoriumError) || err.retryAfter === undefined) throw err;
      if (err.status !== 429 && err.code !== 'SERVICE_UNAVAILABLE') throw err;
      pause = err.retryAfter * 1000;
      opts.onWait?.(last, pause, err.status === 429 ? 'rate-limit' : 'service-unavailable');
    }
    const left = deadline - Date.now();
    if (left <= 0 || pause > left) {
      const message = `${what} is still ${last?.status ?? 'unknown'} after ${Math.round((Date.now() - started) / 1000)} s; it goes on: wait again or cancel it`;
      throw opts.timeoutError?.(last, message) ?? new ScriptoriumError('TIMEOUT', message);
    }
    await sleep(pause, opts.signal);
  }
}
