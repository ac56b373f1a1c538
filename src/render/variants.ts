// Glyph variants: the same letter written twice is never the same shape. Each variant is the
// outline under a smooth, seeded warp (a few percent of the em), defined once per document and
// reused; per-instance transforms vary it further.
import type { PathCommand } from './fonts.ts';
import { Random } from './prng.ts';

const round = (v: number) => Math.round(v); // font units: 1/1000 em or finer is invisible

const made = new Map<string, string>();

/** Path data of `outline` (font units, y up) under variant `variant`'s warp (0 = the outline itself); remembered per thread. */
export function variantPath(
  outline: readonly PathCommand[],
  upem: number,
  variant: number,
  strength: number,
  seed: number,
  key: string,
): string {
  const id = `${key}/${variant}/${strength}/${seed}`;
  let d = made.get(id);
  if (d === undefined) {
    d = warpedPath(outline, upem, variant, strength, seed, key);
    if (made.size >= 50_000) made.clear();
    made.set(id, d);
  }
  return d;
}

function warpedPath(
  outline: readonly PathCommand[],
  upem: number,
  variant: number,
  strength: number,
  seed: number,
  key: string,
): string {
  let warp = (x: number, y: number): [number, number] => [x, y];
  if (variant > 0 && strength > 0) {
    const r = new Random(seed, `${key}/${variant}`);
    const amp = upem * 0.018 * strength;
    const [ax, ay] = [amp * (0.5 + r.next()), amp * (0.5 + r.next())];
    const [kx, ky] = [(Math.PI * (1 + r.next())) / upem, (Math.PI * (1 + r.next())) / upem];
    const [px, py] = [r.next() * Math.PI * 2, r.next() * Math.PI * 2];
    const lean = r.signed() * 0.035 * strength;
    warp = (x, y) => [x + ax * Math.sin(ky * y + px) + lean * y, y + ay * Math.sin(kx * x + py)];
  }
  let d = '';
  for (const c of outline) {
    d += c.type;
    for (let i = 0; i + 1 < c.values.length; i += 2) {
      const [x, y] = warp(c.values[i]!, c.values[i + 1]!);
      d += `${i ? ' ' : ''}${round(x)} ${round(y)}`;
    }
  }
  return d;
}
