// Letters written along their strokes: each drawing builds the letter afresh (what is left of the
// difference between two drawings once the best affine map between them is taken out stays above
// a floor at the default shapes, and is nothing with shapes off); the pen presses harder down
// than up, tapers where it lands and lifts, never past a counter-closing weight; joins stay where
// the font has them, at full weight; the outline is closed rings, one way round.
import t from 'tap';
import type { PenStroke } from '../../src/render/geometry.ts';
import { centrelines } from '../../src/render/text/centrelines.ts';
import { type LoadedFont, loadFont, shape } from '../../src/render/text/fonts.ts';
import {
  built,
  pressed,
  reshaped,
  type StrokeDrawing,
  strokesPath,
  varied,
} from '../../src/render/hand/writing.ts';
import { simplifyOutline } from '../../src/render/write/simplify.ts';
import { bundledFontSource } from '../helpers/fonts.ts';

/** What is left of two drawings' difference after the best affine map (RMS, in ems), at the template default shapes (0.5). */
const CONSTRUCTION_FLOOR = 0.004;
const LETTERS = [...'aehtgdk'];
const HANDS = ['caveat', 'kalam', 'indie-flower', 'dancing-script', 'homemade-apple'];

const gidOf = (font: LoadedFont, c: string) => shape(font, c, false)[0]!.gid;
function read(slug: string, c: string) {
  const font = loadFont(bundledFontSource(slug));
  const gid = gidOf(font, c);
  const joined = font.joined;
  const strokes = centrelines(
    font.outline(gid),
    font.upem,
    joined ? { advance: font.font.glyphHAdvance(gid) } : undefined,
  );
  const how = (drawing: number, shapes = 0.5, pressure = 0.3): StrokeDrawing => ({
    drawing,
    shapes,
    pressure,
    seed: 11,
    key: `${slug}:${gid}`,
    upem: font.upem,
    xHeight: font.reach.x ?? font.upem / 2,
    fontWidth: joined,
  });
  return { font, strokes, how };
}

/** RMS distance between corresponding points after the least-squares affine map from `a` onto `b`. */
function affineResidual(a: number[], b: number[]): number {
  const n = a.length / 2;
  // Normal equations of [x y 1] · p = target, once for x and once for y.
  const m = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  const rx = [0, 0, 0];
  const ry = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const row = [a[2 * i]!, a[2 * i + 1]!, 1];
    for (let j = 0; j < 3; j++) {
      for (let k = 0; k < 3; k++) m[3 * j + k]! += row[j]! * row[k]!;
      rx[j]! += row[j]! * b[2 * i]!;
      ry[j]! += row[j]! * b[2 * i + 1]!;
    }
  }
  const px = solve3(m, rx);
  const py = solve3(m, ry);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const [x, y] = [a[2 * i]!, a[2 * i + 1]!];
    const fx = px[0]! * x + px[1]! * y + px[2]!;
    const fy = py[0]! * x + py[1]! * y + py[2]!;
    sum += (fx - b[2 * i]!) ** 2 + (fy - b[2 * i + 1]!) ** 2;
  }
  return Math.sqrt(sum / n);
}

function solve3(m: number[], r: number[]): number[] {
  const det = (q: number[]) =>
    q[0]! * (q[4]! * q[8]! - q[5]! * q[7]!) -
    q[1]! * (q[3]! * q[8]! - q[5]! * q[6]!) +
    q[2]! * (q[3]! * q[7]! - q[4]! * q[6]!);
  const d = det(m);
  return [0, 1, 2].map((c) => {
    const q = m.slice();
    for (let row = 0; row < 3; row++) q[3 * row + c] = r[row]!;
    return det(q) / d;
  });
}

const allPoints = (strokes: PenStroke[]) => strokes.flatMap((s) => s.points);

t.test(
  'each drawing builds the letter afresh: more than an affine map apart; nothing with shapes off',
  async (t) => {
    for (const slug of HANDS) {
      let [sum, count] = [0, 0];
      for (const c of LETTERS) {
        const { font, strokes, how } = read(slug, c);
        for (let d = 1; d <= 8; d++) {
          const a = allPoints(reshaped(strokes, how(d)));
          const b = allPoints(reshaped(strokes, how(d + 1)));
          sum += affineResidual(a, b) / font.upem;
          count++;
          const off = allPoints(varied(strokes, how(d, 0)));
          if (affineResidual(off, allPoints(strokes)) > 1e-9)
            t.fail(`${slug} ${c}: shapes off changes drawing ${d}`);
        }
      }
      const mean = sum / count;
      t.ok(
        mean >= CONSTRUCTION_FLOOR,
        `${slug}: ${mean.toFixed(4)} em left after the best affine map (floor ${CONSTRUCTION_FLOOR})`,
      );
    }
  },
);

t.test(
  'each hand builds letters differently: hooks left short, bowls run past their start, bars turned; never an ascender or a descender cut',
  async (t) => {
    const kinds = new Map<string, Set<string>>();
    for (const slug of [...HANDS, 'patrick-hand', 'kalam']) {
      const seen = new Set<string>();
      kinds.set(slug, seen);
      for (const c of [...'aehtgdknmfbo']) {
        const { strokes, how } = read(slug, c);
        const xh = how(1).xHeight;
        for (let d = 1; d <= 16; d++) {
          const before = reshaped(strokes, how(d));
          const after = built(before, how(d));
          after.forEach((s, i) => {
            const b = before[i]!;
            if (s.points.length === b.points.length && s.points.every((v, k) => v === b.points[k])) return;
            if (b.closed) {
              seen.add('bowl run past its start');
              if (s.points.length <= b.points.length) t.fail(`${slug} ${c} ${d}: a bowl left open`);
              return;
            }
            if (s.points.length === b.points.length) {
              seen.add('bar turned');
              return;
            }
            seen.add('hook left short');
            // A cut end lies where the font's lay in the body of the letter, never past it.
            for (const [end, was] of [
              [s.points[1]!, b.points[1]!],
              [s.points.at(-1)!, b.points.at(-1)!],
            ] as const)
              if (end !== was && (was > 1.08 * xh || was < -0.05 * xh))
                t.fail(`${slug} ${c} ${d}: an ascender or a descender cut`);
          });
        }
        const plain = read(slug, c);
        const off = built(reshaped(plain.strokes, plain.how(3, 0)), plain.how(3, 0));
        if (JSON.stringify(off) !== JSON.stringify(plain.strokes.map((s) => ({ ...s }))))
          t.fail(`${slug} ${c}: shapes off builds the letter otherwise`);
      }
    }
    for (const [slug, seen] of kinds)
      t.ok(seen.size >= 1, `${slug}: ${[...seen].join(', ')} in sixteen drawings of twelve letters`);
    const all = new Set([...kinds.values()].flatMap((seen) => [...seen]));
    t.equal(all.size, 3, `every way among the hands (${[...all].join(', ')})`);
  },
);

/**
 * The font's width under each point of `drawn`, a stroke the pen wrote along `font`'s centreline
 * (the pen adds points on it, near its ends and turns): the width where the point lies, between
 * the two of the font's points it lies between.
 */
function fontWidths(font: PenStroke, drawn: PenStroke): number[] {
  return drawn.widths.map((_, i) => {
    const [x, y] = [drawn.points[2 * i]!, drawn.points[2 * i + 1]!];
    let [best, width] = [Number.POSITIVE_INFINITY, font.widths[0]!];
    for (let k = 0; k + 1 < font.widths.length; k++) {
      const [ax, ay, bx, by] = font.points.slice(2 * k, 2 * k + 4) as [number, number, number, number];
      const len2 = (bx - ax) ** 2 + (by - ay) ** 2 || 1;
      const f = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / len2));
      const d = Math.hypot(ax + f * (bx - ax) - x, ay + f * (by - ay) - y);
      if (d < best) [best, width] = [d, font.widths[k]! + f * (font.widths[k + 1]! - font.widths[k]!)];
    }
    return width;
  });
}

t.test('the pen presses down, eases up, and never closes a counter', async (t) => {
  const { strokes, how } = read('caveat', 'o');
  const [o] = strokes;
  const [p] = pressed(strokes, how(0, 0, 1));
  const under = fontWidths(o!, p!);
  let [down, up] = [0, 0];
  let [nd, nu] = [0, 0];
  for (let i = 1; i < p!.widths.length - 1; i++) {
    const dy = p!.points[2 * i + 3]! - p!.points[2 * i - 1]!;
    const ratio = p!.widths[i]! / under[i]!;
    if (dy < 0) [down, nd] = [down + ratio, nd + 1];
    if (dy > 0) [up, nu] = [up + ratio, nu + 1];
  }
  t.ok(
    down / nd > up / nu,
    `heavier going down (${(down / nd).toFixed(2)}) than up (${(up / nu).toFixed(2)})`,
  );
  let heaviest = 0;
  for (const slug of HANDS)
    for (const c of LETTERS) {
      const r = read(slug, c);
      const heavy = pressed(r.strokes, r.how(3, 0.5, 1));
      for (const [k, s] of heavy.entries()) {
        const font = fontWidths(r.strokes[k]!, s);
        // Away from an open stroke's ends (two widths), where ink may pool past it.
        const ends = [0, s.widths.length - 1].map((i) => [s.points[2 * i]!, s.points[2 * i + 1]!] as const);
        for (const [i, w] of s.widths.entries()) {
          const [x, y] = [s.points[2 * i]!, s.points[2 * i + 1]!];
          if (!s.closed && ends.some(([ex, ey]) => Math.hypot(x - ex, y - ey) < 2 * font[i]!)) continue;
          heaviest = Math.max(heaviest, w / font[i]!);
        }
      }
    }
  t.ok(
    heaviest <= 1.2 * 1.001,
    `away from its ends, never past 1.2 times the font's width (at most ${heaviest.toFixed(4)})`,
  );
});

t.test(
  'the pen pools ink where a downstroke lands and stops and where it turns sharply, thins on a fast run, flicks an upstroke off',
  async (t) => {
    // Each point's width against the font's, by kind of place, over the letters of three hands.
    // A downstroke's ends against the point beside them; turns and fast runs in the same stroke.
    const at = {
      downEnds: [] as number[],
      upEnds: [] as number[],
      turns: [] as number[],
      runs: [] as number[],
    };
    for (const slug of ['caveat', 'kalam', 'indie-flower'])
      for (const c of [...'lhntkmMN']) {
        const r = read(slug, c);
        const drawn = pressed(r.strokes, r.how(0, 0, 1));
        for (const [k, s] of drawn.entries()) {
          const font = r.strokes[k]!;
          if (font.closed || font.entry || font.exit || s.widths.length < 4) continue;
          const under = fontWidths(font, s);
          const ratio = s.widths.map((w, i) => w / under[i]!);
          const n = s.widths.length;
          const dy = (i: number, j: number) =>
            (s.points[2 * j + 1]! - s.points[2 * i + 1]!) /
            (Math.hypot(s.points[2 * j]! - s.points[2 * i]!, s.points[2 * j + 1]! - s.points[2 * i + 1]!) ||
              1);
          // An end on another stroke (the pen does not lift there) is neither.
          const free = (i: number) =>
            drawn.every(
              (o, q) =>
                q === k ||
                o.points.every(
                  (_, m) =>
                    m % 2 === 1 ||
                    Math.hypot(o.points[m]! - s.points[2 * i]!, o.points[m + 1]! - s.points[2 * i + 1]!) >
                      s.widths[i]! * 1.5,
                ),
            );
          const along = [0];
          for (let i = 1; i < n; i++)
            along.push(
              along[i - 1]! +
                Math.hypot(
                  s.points[2 * i]! - s.points[2 * i - 2]!,
                  s.points[2 * i + 1]! - s.points[2 * i - 1]!,
                ),
            );
          // The first point two and a half widths or more from the end.
          const inside = (end: number) =>
            end === 0
              ? along.findIndex((a) => a >= 2.5 * s.widths[0]!)
              : along.findLastIndex((a) => along[n - 1]! - a >= 2.5 * s.widths[n - 1]!);
          for (const end of [0, n - 1]) {
            const next = inside(end);
            if (!free(end) || next < 0 || next === end) continue;
            // Down at this end: the stroke leaves the start downwards, or reaches its end going down.
            const down = end === 0 ? dy(0, 1) < -0.5 : dy(n - 2, n - 1) < -0.5;
            const up = end === 0 ? dy(0, 1) > 0.3 : dy(n - 2, n - 1) > 0.3;
            if (down) at.downEnds.push(ratio[end]! / ratio[next]!);
            if (up) at.upEnds.push(ratio[end]!);
          }
          // A sharp turn: an original point of the font's where the centreline turns by more than 60°.
          const turns: number[] = [];
          for (let q = 1; q + 1 < font.widths.length; q++) {
            const [ax, ay] = [
              font.points[2 * q]! - font.points[2 * q - 2]!,
              font.points[2 * q + 1]! - font.points[2 * q - 1]!,
            ];
            const [bx, by] = [
              font.points[2 * q + 2]! - font.points[2 * q]!,
              font.points[2 * q + 3]! - font.points[2 * q + 1]!,
            ];
            const cos = (ax * bx + ay * by) / (Math.hypot(ax, ay) * Math.hypot(bx, by) || 1);
            const i = s.points.findIndex(
              (v, m) => m % 2 === 0 && v === font.points[2 * q] && s.points[m + 1] === font.points[2 * q + 1],
            );
            if (i >= 0 && cos < 0.5) turns.push(ratio[i / 2]!);
          }
          // A fast run: the middle of a stroke's longest straight segment.
          let [longest, mid] = [0, -1];
          for (let i = 1; i + 2 < n; i++) {
            const len = Math.hypot(
              s.points[2 * i + 2]! - s.points[2 * i]!,
              s.points[2 * i + 3]! - s.points[2 * i + 1]!,
            );
            if (len > longest) [longest, mid] = [len, i];
          }
          if (mid < 0 || longest < 3 * font.widths[0]! || turns.length === 0) continue;
          at.turns.push(...turns);
          at.runs.push((ratio[mid]! + ratio[mid + 1]!) / 2);
        }
      }
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    const say = (v: number[]) => `${mean(v).toFixed(2)} over ${v.length}`;
    t.ok(
      at.downEnds.length >= 8 && at.upEnds.length >= 3 && at.turns.length >= 3 && at.runs.length >= 3,
      `places of every kind (${at.downEnds.length}, ${at.upEnds.length}, ${at.turns.length}, ${at.runs.length})`,
    );
    t.ok(
      mean(at.downEnds) > 1.05,
      `a downstroke's ends pool: ${say(at.downEnds)} times the width beside them`,
    );
    t.ok(mean(at.upEnds) < 0.9, `an upstroke's ends flick off, thinner: ${say(at.upEnds)}`);
    t.ok(
      mean(at.turns) > mean(at.runs) + 0.1,
      `heavier at a sharp turn (${say(at.turns)}) than on a fast run (${say(at.runs)})`,
    );
  },
);

t.test('joins stay where the font has them, at full weight', async (t) => {
  for (const slug of ['dancing-script', 'homemade-apple']) {
    const { strokes, how } = read(slug, 'n');
    const entry = strokes.find((s) => s.entry)!;
    const exit = strokes.find((s) => s.exit)!;
    for (let d = 1; d <= 6; d++) {
      const drawn = pressed(varied(strokes, how(d, 1)), how(d, 1, 1));
      const [e, x] = [drawn[strokes.indexOf(entry)]!, drawn[strokes.indexOf(exit)]!];
      t.same(
        e.points.slice(0, 2),
        entry.points.slice(0, 2),
        `${slug} n, drawing ${d}: the way in starts where the font has it`,
      );
      t.same(
        x.points.slice(-2),
        exit.points.slice(-2),
        `${slug} n, drawing ${d}: the way out ends where the font has it`,
      );
      t.ok(e.widths[0]! >= 0.85 * entry.widths[0]!, `${slug} n, drawing ${d}: no taper at the join`);
    }
  }
});

t.test('the outline: closed rings of whole font units', async (t) => {
  const { strokes, how } = read('kalam', 'e');
  const d = strokesPath(pressed(varied(strokes, how(2)), how(2)), 3);
  t.match(d, /^(M-?\d+ -?\d+(C-?\d+ -?\d+ -?\d+ -?\d+ -?\d+ -?\d+)+Z)+$/, 'M, C and Z only, whole numbers');
  t.equal(
    d.split('M').length - 1,
    strokes.reduce((n, s) => n + (s.closed ? 2 : 1), 0),
    'a ring a stroke, two for a closed one',
  );
});

t.test(
  'the outline in few curves: every letter of every hand within the tolerance of the exact one',
  async (t) => {
    // The ink's box of path data, its curves flattened finely.
    const box = (d: string) => {
      const p = simplifyOutline(d, 0.2).flatMap((r) => [...r]);
      const xs = p.filter((_, i) => i % 2 === 0);
      const ys = p.filter((_, i) => i % 2 === 1);
      return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    };
    const curves = (d: string) => d.split(/[CQ]/).length - 1;
    let [fitted, exact] = [0, 0];
    for (const slug of [...HANDS, 'patrick-hand', 'gochi-hand', 'reenie-beanie']) {
      for (const c of 'abdefghklmnopqrstuwy') {
        const { font, strokes, how } = read(slug, c);
        for (const d of [1, 5, 9, 13]) {
          const drawn = pressed(varied(strokes, how(d, 1, 1)), how(d, 1, 1));
          const tol = 0.003 * font.upem;
          const [few, all] = [strokesPath(drawn, tol), strokesPath(drawn, 0.01)];
          const [a, b] = [box(few), box(all)];
          const off = Math.max(...a.map((v, i) => Math.abs(v - b[i]!)));
          if (off > tol + 1)
            t.fail(`${slug} ${c}, drawing ${d}: the ink's box moved ${off.toFixed(1)} units`);
          fitted += curves(few);
          exact += curves(all);
        }
      }
    }
    t.pass('every box within the tolerance');
    t.ok(fitted < 0.6 * exact, `${fitted} curves where the exact outline takes ${exact}`);
  },
);
