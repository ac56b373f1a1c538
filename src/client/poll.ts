// Waiting for a job or a batch: each read is held by the service (`?wait=`) until what it shows
// changes or the work ends, so the wait ends within a moment of the work and costs a request a
// change, not a request a look. While the key's window is short of requests (two or fewer left)
// a read waits for the end alone, and the key's last request is kept for what comes next (the
// download). After a 429 or 503 it waits as long as the service says. A service that answers
// at once (no held reads) is polled at a polite pace: 500 ms growing by half each poll to 10 s.
import { ScriptoriumError } from './errors.ts';
import { type Http, sleep } from './http.ts';

export interface PollOptions {
  signal?: AbortSignal;
  /** Give up after this long (default 10 minutes); the work goes on. */
  timeoutMs?: number;
  /** First pause between polls of a service that does not hold reads (default 500 ms); it grows by half each poll up to `maxIntervalMs`. */
  intervalMs?: number;
  /** Longest pause between such polls (default 10 s, the spec's polling pace). */
  maxIntervalMs?: number;
}

/** What a read asks the service to hold it for (`?wait=` seconds, `?waitFor=`). */
export interface Hold {
  wait: number;
  waitFor: 'change' | 'end';
}

/** The longest hold asked for, in seconds (the service takes up to 30). */
const HOLD_SECONDS = 25;
/** Requests of the key's window below which a read waits for the end alone. */
const SPARE_REQUESTS = 2;

/**
 * Reads `read()` until `ended` says so and answers the last read. `onPoll` hears every read
 * that has not ended and shows something new, `onWait` every refusal waited out. Throws TIMEOUT
 * (naming `what`) after `timeoutMs`, ABORTED on the signal.
 */
export async function pollUntil<T extends { id: string; status: string }>(
  http: Http,
  read: (hold?: Hold) => Promise<T>,
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
  let told = '';
  const timedOut = () => {
    const message = `${what} is still ${last?.status ?? 'unknown'} after ${Math.round((Date.now() - started) / 1000)} s; it goes on: wait again or cancel it`;
    return opts.timeoutError?.(last, message) ?? new ScriptoriumError('TIMEOUT', message);
  };
  let waitedForReset = false;
  for (;;) {
    if (opts.signal?.aborted) throw new ScriptoriumError('ABORTED', 'the wait was aborted by its signal');
    let pause = 0;
    try {
      // The first read answers at once; the next ones are held, within the wait and a request's time.
      const limit = http.rateLimit;
      if (last && limit && limit.remaining <= 1 && !waitedForReset) {
        // The key's last request is kept for what comes next: the window's reset is waited for,
        // then a read tells where the window stands.
        pause = limit.resetSeconds * 1000 + 100;
        waitedForReset = true;
      } else {
        waitedForReset = false;
        const seconds = Math.floor(
          Math.min(HOLD_SECONDS, (http.timeoutMs - 5000) / 1000, (deadline - Date.now()) / 1000),
        );
        const hold: Hold | undefined =
          last && seconds >= 1
            ? { wait: seconds, waitFor: limit && limit.remaining <= SPARE_REQUESTS ? 'end' : 'change' }
            : undefined;
        const asked = Date.now();
        const before = last;
        last = await read(hold);
        if (ended(last)) return last;
        const shown = JSON.stringify(last);
        if (shown !== told) opts.onPoll?.(last, Date.now() - started);
        // Answered at once with nothing new (a service that does not hold reads), or no time
        // left to hold one: polled at a pace.
        const atOnce = hold ? Date.now() - asked < (hold.wait * 1000) / 2 && shown === told : true;
        if (before && atOnce) {
          pause = interval * (0.9 + Math.random() * 0.2);
          interval = Math.min(maxInterval, interval * 1.5);
        }
        told = shown;
      }
    } catch (err) {
      // The client's own retries gave up on a refusal: the wait goes on after the service's pause.
      if (!(err instanceof ScriptoriumError) || err.retryAfter === undefined) throw err;
      if (err.status !== 429 && err.code !== 'SERVICE_UNAVAILABLE') throw err;
      pause = err.retryAfter * 1000;
      opts.onWait?.(last, pause, err.status === 429 ? 'rate-limit' : 'service-unavailable');
    }
    const left = deadline - Date.now();
    if (left <= 0 || pause > left) throw timedOut();
    if (pause > 0) await sleep(pause, opts.signal);
  }
}
