// Arithmetic the engine does a hundred thousand times a document, where V8's own is slow.

/**
 * Math.round(x) (the nearest integer, halves up), for |x| < 2^31: ceil by truncation, then one
 * step down where the ceiling is more than half above (as V8 itself rounds). V8's Math.round
 * was a third of the time of loops that round each letter's numbers.
 */
export function round(x: number): number {
  const t = x | 0;
  const up = t < x ? t + 1 : t;
  return up - 0.5 > x ? up - 1 : up;
}

/** Steps of the sine's table over a whole turn. */
const STEPS = 4096;
const TURN = 2 * Math.PI;
const SINES = Float64Array.from({ length: STEPS + 1 }, (_, i) => Math.sin((TURN * i) / STEPS));

/**
 * Math.sin(x) within 3e-7, from a table of 4096 steps a turn with a straight line between them:
 * for the hand's slow waves and a letter's turn (a dozen a letter), where V8's own took about a
 * twelfth of a document's time.
 */
export function sin(x: number): number {
  const u = x * (STEPS / TURN);
  const f = Math.floor(u);
  if (!(f < 2 ** 31 && f >= -(2 ** 31))) return Math.sin(x);
  const i = f & (STEPS - 1);
  const a = SINES[i]!;
  return a + (SINES[i + 1]! - a) * (u - f);
}

/** Math.cos(x) within 3e-7 (sin a quarter turn on). */
export function cos(x: number): number {
  return sin(x + TURN / 4);
}
