// Arithmetic the engine does a hundred thousand times a document, where V8's own is slow.

/**
 * Math.round(x) (the nearest integer, halves up), for |x| < 2^31, as a small integer (no -0):
 * the floor of x + ½, one step down where that sum came out a whole number too high, which only
 * the double just below ½ does (0.49999999999999994 + 0.5 is 1 in doubles). V8's Math.round
 * was a third of the time of loops that round each letter's numbers, and a ceiling found by
 * truncation and a step down (a branch either way half the time) a tenth of a page's writing.
 */
export function round(x: number): number {
  const r = Math.floor(x + 0.5);
  return (r - 0.5 > x ? r - 1 : r) | 0;
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

/**
 * The length of (x, y), as Math.hypot(x, y) to the last bit or so: V8 calls its own as a
 * function of any number of arguments and boxes each answer on the heap (some 25 ns and 16 bytes
 * a call, 35,000 calls a caption in a new hand), where a square root is one instruction. The
 * engine's lengths are of font units and pixels, far from where squaring overflows.
 */
export function hypot(x: number, y: number): number {
  return Math.sqrt(x * x + y * y);
}
