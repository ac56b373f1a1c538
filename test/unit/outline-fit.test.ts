// The few curves a stroke's outline is written with (render/hand/fit.ts), and the font program
// a PDF carries them in (render/write/cff.ts): within their tolerance, few, and read back as drawn.
import t from 'tap';
import { fitRing } from '../../src/render/hand/fit.ts';
import { charString, cidFont } from '../../src/render/write/cff.ts';
import { simplifyOutline } from '../../src/render/write/simplify.ts';

/** Distance from (x, y) to the polygon's edges. */
function distanceTo(ring: Int32Array, x: number, y: number): number {
  let best = Number.POSITIVE_INFINITY;
  const n = ring.length / 2;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const [ax, ay, bx, by] = [ring[2 * i]!, ring[2 * i + 1]!, ring[2 * j]!, ring[2 * j + 1]!];
    const len2 = (bx - ax) ** 2 + (by - ay) ** 2;
    const u = len2 ? Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / len2)) : 0;
    best = Math.min(best, Math.hypot(ax + u * (bx - ax) - x, ay + u * (by - ay) - y));
  }
  return best;
}

function pathOf(c: number[]): string {
  let d = `M${c[0]} ${c[1]}`;
  for (let i = 2; i < c.length; i += 6) d += `C${c.slice(i, i + 6).join(' ')}`;
  return `${d}Z`;
}

t.test('a ring of points: a few cubics within the tolerance of every point', async (t) => {
  // A stroke's outline: a long side, a round end, the other side back, a round start.
  const ring: number[] = [];
  for (let k = 0; k < 40; k++) ring.push(k * 20, 300 * Math.sin(k / 8));
  for (let k = 1; k < 8; k++)
    ring.push(
      780 + 30 * Math.sin((Math.PI * k) / 8),
      300 * Math.sin(39 / 8) - 30 + 30 * Math.cos((Math.PI * k) / 8),
    );
  for (let k = 39; k >= 0; k--) ring.push(k * 20, 300 * Math.sin(k / 8) - 60);
  for (const tol of [1, 3, 8]) {
    const c = fitRing(ring, tol);
    t.equal((c.length - 2) % 6, 0, `tolerance ${tol}: a start, then whole curves`);
    t.same(c.slice(-2), c.slice(0, 2), `tolerance ${tol}: the last curve ends where the first starts`);
    const curves = (c.length - 2) / 6;
    t.ok(curves < ring.length / 2 / 3, `tolerance ${tol}: ${curves} curves for ${ring.length / 2} points`);
    const flat = simplifyOutline(pathOf(c), 0.2)[0]!;
    let worst = 0;
    for (let i = 0; i < ring.length; i += 2)
      worst = Math.max(worst, distanceTo(flat, ring[i]!, ring[i + 1]!));
    t.ok(worst <= tol + 0.5, `tolerance ${tol}: every point within it (worst ${worst.toFixed(2)})`);
  }
  t.ok(fitRing(ring, 8).length < fitRing(ring, 1).length, 'a looser tolerance, fewer curves');
});

t.test('a charstring: relative steps, one byte for a small one, a cubic for a quadratic', async (t) => {
  // rmoveto 10 20, rlineto 100 0, then the quadratic (110,20)-(160,120)-(210,20) as a cubic.
  const cs = charString('M10 20L110 20Q160 120 210 20Z');
  const num = (v: number) => v + 139;
  t.same(
    [...cs],
    [num(10), num(20), 21, num(100), num(0), 5, num(33), num(67), num(34), num(0), num(33), num(-67), 8, 14],
    'rmoveto, rlineto, rrcurveto, endchar',
  );
  // In units of two font units, the same outline at half the numbers.
  t.same([...charString('M20 40L220 40Z', 2)], [num(10), num(20), 21, num(100), num(0), 5, 14], 'units of 2');
  // Two-byte and three-byte numbers.
  t.same(
    [...charString('M500 -500L-1000 30000Z')].slice(0, 4),
    [248, 136, 252, 136],
    'two bytes for 108-1131',
  );
  t.same([...charString('M0 0L30000 0Z')].slice(3, 6), [28, 0x75, 0x30], 'three for the rest');
});

t.test('the font program: a CFF header, its glyphs in order, offsets that hold', async (t) => {
  const glyphs = [charString('M0 0L100 0L100 100Z'), charString('M0 0L200 0L200 200L0 200Z')];
  const cff = cidFont('Hand', glyphs, [0, 0, 200, 200]);
  t.same([...cff.slice(0, 4)], [1, 0, 4, 4], 'version 1.0, header of 4 bytes');
  // The CharStrings INDEX: three glyphs (the empty one first), each where its offset says.
  const bytes = Buffer.from(cff);
  const at = bytes.indexOf(Buffer.from([0, 3, 1]));
  t.ok(at > 0, 'an INDEX of three charstrings');
  const offsets = [bytes[at + 3]!, bytes[at + 4]!, bytes[at + 5]!, bytes[at + 6]!];
  const data = at + 7 - 1;
  t.same([...bytes.subarray(data + offsets[0]!, data + offsets[1]!)], [14], 'glyph 0: endchar');
  t.same([...bytes.subarray(data + offsets[1]!, data + offsets[2]!)], [...glyphs[0]!], 'glyph 1');
  t.same([...bytes.subarray(data + offsets[2]!, data + offsets[3]!)], [...glyphs[1]!], 'glyph 2');
});
