// Reads that wait for the work they show (`?wait=N` on a generation or a batch, an extension):
// the answer comes as soon as what it shows changes (or only once the work ended, when asked),
// the work ends, N seconds pass, or the client leaves. One request of the key's limit for what
// polling spent a request a look on; the look is a read of the store, every LOOK_MS, so that it
// works the same embedded and in a farm, where the work changes in another process.

/** How often a held read looks again: an answer comes within this of the change. */
export const LOOK_MS = 250;

export interface Hold {
  /** Seconds to hold the read for; 0 answers at once. */
  seconds: number;
  /** `change`: anything the answer shows (a status, a count); `end`: only the work's end. */
  until: 'change' | 'end';
}

/**
 * `read()` again every LOOK_MS until its answer differs from the first (as JSON), the work has
 * `ended`, `hold.seconds` pass or `left()` says the answer is no longer wanted; the last answer.
 */
export async function heldRead<T>(
  read: () => Promise<T>,
  hold: Hold,
  ended: (t: T) => boolean,
  left: () => boolean = () => false,
): Promise<T> {
  const first = await read();
  if (hold.seconds <= 0 || ended(first)) return first;
  const seen = JSON.stringify(first);
  // The looks are set from the start (every LOOK_MS, the last at the hold's end), not each from the
  // one before: a slow read or a timer a millisecond early adds no look.
  const start = Date.now();
  const until = start + hold.seconds * 1000;
  let last = first;
  for (let look = 1; ; look++) {
    if (left()) return last;
    const at = Math.min(start + look * LOOK_MS, until);
    const wait = at - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (left()) return last;
    last = await read();
    if (ended(last) || (hold.until === 'change' && JSON.stringify(last) !== seen)) return last;
    if (at >= until) return last;
  }
}
