// Lines drawn by hand: a pen pulled from one point to another never runs straight. The path
// bows a little, wanders slowly (two low waves of random phase), starts a touch late or early
// and stops short or overshoots; pressure sets its width. Seeded, like every other effect.
import type { Item } from '../display-list.ts';
import type { Random } from '../prng.ts';
import { hypot } from '../numbers.ts';

export interface StrokeStyle {
  width: number;
  color: string;
  opacity: number;
  /** 0 draws a ruler-straight line; 1 is an everyday hand. */
  wobble: number;
}

/** Points every few pt along the line, enough for the waves to read as curves. */
const STEP = 6;

export function handLine(
  rnd: Random,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  style: StrokeStyle,
): Extract<Item, { kind: 'stroke' }> {
  const len = hypot(x2 - x1, y2 - y1);
  const [ux, uy] = len > 0 ? [(x2 - x1) / len, (y2 - y1) / len] : [1, 0];
  const [nx, ny] = [-uy, ux];
  const w = style.wobble;
  // Ends: up to 1.5 pt along the line either way, 0.8 pt across.
  const start = 1.5 * w * rnd.signed();
  const end = 1.5 * w * rnd.signed();
  const across0 = 0.8 * w * rnd.signed();
  const across1 = 0.8 * w * rnd.signed();
  // A bow of up to 0.4 % of the length (at most 2.5 pt), and two slow waves.
  const bow = Math.min(2.5, len * 0.004) * w * rnd.signed();
  const waves = [0, 1].map((i) => ({
    amp: (0.35 / (i + 1)) * w * (0.5 + rnd.next()),
    freq: (1.2 + rnd.next() * 1.5) * (i + 1),
    phase: rnd.next() * Math.PI * 2,
  }));
  const n = Math.max(2, Math.ceil(len / STEP) + 1);
  const points: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = i / (n - 1);
    const along = -start + t * (len + start + end);
    let off = across0 + (across1 - across0) * t + bow * Math.sin(Math.PI * t);
    for (const wave of waves)
      off += wave.amp * Math.sin(wave.phase + wave.freq * Math.PI * 2 * t * (len / 200));
    points.push(round(x1 + ux * along + nx * off), round(y1 + uy * along + ny * off));
  }
  return {
    kind: 'stroke',
    points,
    width: style.width * (1 + 0.15 * w * rnd.signed()),
    color: style.color,
    opacity: style.opacity,
  };
}

const round = (v: number) => Math.round(v * 100) / 100;
