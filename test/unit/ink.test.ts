// Ink that behaves like ink: pressure within strokes and from letter to letter, a pen that runs
// dry and is dipped again, ink pooled where a stroke starts, edges soaking into the paper, and
// the scanner's blur and noise. Measured from outlines, the display list and the pixels.
import t from 'tap';
import { PNG } from 'pngjs';
import { bundledChain, bundledFontSource } from '../helpers/fonts.ts';
import { EFFECTS_AT_TOP, EFFECTS_OFF, styleOf as style } from '../helpers/specs.ts';
import { solidInk } from '../../src/render/color.ts';
import { renderText } from '../../src/render/page/document.ts';
import { loadFont, shape } from '../../src/render/text/fonts.ts';
import { writePng } from '../../src/render/index.ts';
import { type Drawing, drawingPath } from '../../src/render/hand/variants.ts';
import { resvgRasterizer as raster } from '../../workers/resvg.ts';

const fonts = bundledChain(bundledFontSource('caveat'));
const caveat = loadFont(fonts[0]!);
const gidOf = (ch: string) => shape(caveat, ch, false)[0]!.gid;

/** Contours of path data as x, y pairs (the writer's absolute whole-unit numbers). */
const contours = (d: string) =>
  d
    .split('M')
    .filter(Boolean)
    .map((c) => c.match(/-?\d+/g)!.map(Number));

/** Only ink, no shape deformation: drawing `drawing` of `ch`. */
function inkOnly(ch: string, drawing: number, ink: Partial<Drawing> = {}): number[][] {
  const gid = gidOf(ch);
  return contours(
    drawingPath(caveat.outline(gid), caveat.upem, {
      drawing,
      shapes: 0,
      pressure: 0,
      blots: 0,
      seed: 11,
      key: `${caveat.id}:${gid}`,
      ...ink,
    }),
  );
}

/** The o's stroke width along 16 rays from its middle: where the ray leaves the bowl less where it leaves the counter. */
function ringWidths(o: number[][]): number[] {
  const [outer, inner] = [...o].sort((a, b) => b.length - a.length);
  const xs = outer!.filter((_, i) => i % 2 === 0);
  const ys = outer!.filter((_, i) => i % 2 === 1);
  const [cx, cy] = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
  // The farthest crossing of the ray with the polygon through the contour's points.
  const reach = (p: number[], dx: number, dy: number) => {
    let far = 0;
    for (let i = 0; i < p.length; i += 2) {
      const j = (i + 2) % p.length;
      const [ax, ay, bx, by] = [p[i]! - cx, p[i + 1]! - cy, p[j]! - cx, p[j + 1]! - cy];
      const den = dx * (by - ay) - dy * (bx - ax);
      if (den === 0) continue;
      const r = (ax * (by - ay) - ay * (bx - ax)) / den;
      const s = (ax * dy - ay * dx) / den;
      if (r > 0 && s >= 0 && s <= 1) far = Math.max(far, r);
    }
    return far;
  };
  return Array.from({ length: 16 }, (_, k) => {
    const a = (k / 16) * Math.PI * 2;
    return reach(outer!, Math.cos(a), Math.sin(a)) - reach(inner!, Math.cos(a), Math.sin(a));
  });
}

t.test(
  'pressure: a stroke swells and thins along its length; some letters heavier, some lighter',
  async (t) => {
    const plain = ringWidths(inkOnly('o', 1));
    const changes = [1, 2, 3, 4, 5, 6, 7, 8].map((k) => {
      const w = ringWidths(inkOnly('o', k, { pressure: 1 }));
      const swell = w.map((v, i) => v - plain[i]!);
      return {
        swing: Math.max(...swell) - Math.min(...swell),
        weight: w.reduce((s, v) => s + v) / plain.reduce((s, v) => s + v),
      };
    });
    t.ok(
      changes.every((c) => c.swing > caveat.upem * 0.015),
      `around the o's bowl its stroke swells more in one place than another (by ${changes.map((c) => c.swing.toFixed(0)).join(' ')} of ${caveat.upem} units)`,
    );
    const weights = changes.map((c) => c.weight);
    t.ok(
      Math.max(...weights) > 1.08 && Math.min(...weights) < 0.95,
      `heavier and lighter drawings of the o (${weights.map((w) => w.toFixed(2)).join(' ')})`,
    );
    t.ok(
      Math.min(...changes.map((_, k) => Math.min(...ringWidths(inkOnly('o', k + 1, { pressure: 1 }))))) >
        Math.min(...plain) * 0.45,
      'a light stroke thins, never to nothing',
    );
    t.same(inkOnly('o', 1, { pressure: 0 }), inkOnly('o', 1), 'pressure 0: the outline as it is');
  },
);

t.test('pressure: letters lighter and darker along a line, neighbours alike', async (t) => {
  const text = 'the rain falls softly on the quiet hills while the river runs down to the sea '.repeat(8);
  const ink = { pressure: 1, flow: 0, colorVariation: 0 };
  const list = renderText({ style: style({ modifiers: { ink } }), text, fonts });
  const opacity = list.pages[0]!.items.flatMap((i) => (i.kind === 'glyph' ? [i.opacity] : []));
  t.ok(
    new Set(opacity).size >= 5,
    `${new Set(opacity).size} weights of ink (${[...new Set(opacity)].sort()})`,
  );
  t.ok(Math.min(...opacity) >= 0.65, `never fainter than ${Math.min(...opacity)}`);
  const step = (d: number) => {
    let sum = 0;
    for (let i = d; i < opacity.length; i++) sum += Math.abs(opacity[i]! - opacity[i - d]!);
    return sum / (opacity.length - d);
  };
  t.ok(
    step(1) < step(10) * 0.75,
    `neighbours differ ${step(1).toFixed(3)}, letters ten apart ${step(10).toFixed(3)}`,
  );
});

t.test(
  'no step at word boundaries: the ink changes no more from word to word than from letter to letter',
  async (t) => {
    const text =
      'Peter has booked the cliffs for Saturday, and we will all go home happy and filthy after a long walk by the sea. '.repeat(
        8,
      );
    const lum = (hex: string) =>
      Number.parseInt(hex.slice(1, 3), 16) * 0.2126 +
      Number.parseInt(hex.slice(3, 5), 16) * 0.7152 +
      Number.parseInt(hex.slice(5, 7), 16) * 0.0722;
    // The pen is dipped again only where a line starts (flow), so it is in here too.
    const settings = {
      defaults: {},
      top: { ...EFFECTS_AT_TOP, ink: { colorVariation: 1, pressure: 1, flow: 1, blots: 1, bleed: 1 } },
    };
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    for (const [name, modifiers] of Object.entries(settings)) {
      const [inside, across] = [[] as number[], [] as number[]];
      for (const seed of [1, 2, 3, 4]) {
        const list = renderText({ style: style({ modifiers: { ...modifiers, seed } }), text, fonts });
        const page = list.pages[0]!;
        const glyphs = page.items.filter((i) => i.kind === 'glyph');
        // A letter's weight of ink: its colour at its opacity on the sheet, as the writers fill it.
        const tone = glyphs.map((g) => lum(solidInk(g.color, g.opacity, page.background)));
        for (let i = 1; i < glyphs.length; i++) {
          if (Math.abs(glyphs[i]!.m[5] - glyphs[i - 1]!.m[5]) > 10) continue; // a new line
          (glyphs[i]!.word === glyphs[i - 1]!.word ? inside : across).push(Math.abs(tone[i]! - tone[i - 1]!));
        }
      }
      t.ok(
        mean(across) <= 1.1 * mean(inside),
        `${name}, four seeds: from word to word ${mean(across).toFixed(2)}, from letter to letter ${mean(inside).toFixed(2)} (${across.length} and ${inside.length} steps)`,
      );
    }
  },
);

t.test(
  'flow: the ink runs down over words and comes back when the pen is dipped again, at a line start',
  async (t) => {
    const text = 'a pen that is dipped now and then writes lighter until it is dipped again '.repeat(40);
    const ink = { pressure: 0, flow: 1, colorVariation: 0 };
    const list = renderText({ style: style({ modifiers: { ink } }), text, fonts });
    const glyphs = list.pages.flatMap((p) => p.items.flatMap((i) => (i.kind === 'glyph' ? [i] : [])));
    // A new line: the baseline moves down by more than any letter's own variation (or a new page starts).
    const lineStart = (i: number) => Math.abs(glyphs[i]!.m[5] - glyphs[i - 1]!.m[5]) > 10;
    const dips: number[] = [];
    let rises = 0;
    let steepest = 0;
    for (let i = 1; i < glyphs.length; i++) {
      const d = glyphs[i]!.opacity - glyphs[i - 1]!.opacity;
      if (d >= 0.15) dips.push(i);
      else if (d > 0) rises++;
      if (!lineStart(i)) steepest = Math.max(steepest, Math.abs(d));
    }
    t.ok(dips.length >= 8, `${dips.length} dips in ${glyphs.length} letters`);
    t.ok(
      dips.every(lineStart),
      `every dip at the start of a line (${dips.filter(lineStart).length} of ${dips.length})`,
    );
    t.ok(
      steepest <= 0.05 + 1e-9,
      `inside a line the ink changes at most ${steepest.toFixed(2)} from letter to letter`,
    );
    t.equal(rises, 0, 'between dips the ink only runs down');
    const gaps = dips.slice(1).map((d, i) => d - dips[i]!);
    t.ok(
      Math.min(...gaps) >= 50 && new Set(gaps).size > 3,
      `a dip lasts ${Math.min(...gaps)}-${Math.max(...gaps)} letters`,
    );
    t.ok(Math.min(...glyphs.map((g) => g.opacity)) >= 0.55, 'a dry pen still writes legibly');
    const darkness = (c: string) =>
      765 - [1, 3, 5].reduce((s, k) => s + Number.parseInt(c.slice(k, k + 2), 16), 0);
    const fresh = dips.map((d) => glyphs[d]!.color);
    t.ok(
      fresh.every((c) => darkness(c) > darkness('#1b2a6b')),
      'the letters just after a dip are darker than the ink itself',
    );
    const steady = renderText({ style: style({ modifiers: { ink: { ...ink, flow: 0 } } }), text, fonts });
    t.ok(
      steady.pages.every((p) =>
        p.items.every((i) => i.kind !== 'glyph' || (i.opacity === 1 && i.color === '#1b2a6b')),
      ),
      'flow 0: the pen never runs dry',
    );
  },
);

t.test('blots: now and then ink pools where a stroke starts, in one place of the letter', async (t) => {
  const plain = inkOnly('n', 1);
  const pooled: number[] = [];
  for (let k = 1; k <= 16; k++) {
    const inked = inkOnly('n', k, { blots: 1 });
    const moved: [number, number][] = [];
    inked.forEach((c, ci) => {
      for (let i = 0; i < c.length; i += 2)
        if (Math.hypot(c[i]! - plain[ci]![i]!, c[i + 1]! - plain[ci]![i + 1]!) > 6)
          moved.push([c[i]!, c[i + 1]!]);
    });
    if (moved.length === 0) continue;
    pooled.push(k);
    const xs = moved.map((p) => p[0]);
    const ys = moved.map((p) => p[1]);
    t.ok(
      Math.max(...xs) - Math.min(...xs) < caveat.upem * 0.3 &&
        Math.max(...ys) - Math.min(...ys) < caveat.upem * 0.3,
      `drawing ${k}: the pool is one spot (${moved.length} points)`,
    );
  }
  t.ok(pooled.length >= 2 && pooled.length <= 12, `${pooled.length} of 16 drawings have a pool of ink`);
  for (let k = 1; k <= 16; k++)
    t.same(inkOnly('n', k, { blots: 0 }), plain, `blots 0: drawing ${k} as the font has it`);
});

/** The page of `text` as PNG pixels at 144 DPI. */
function pixels(modifiers: Record<string, unknown>): PNG {
  const list = renderText({
    style: style({
      pageSize: { name: 'strip', width: 120, height: 30, unit: 'mm' },
      margins: { top: 5, right: 5, bottom: 5, left: 5 },
      modifiers,
    }),
    text: 'Ink on paper',
    fonts,
  });
  return PNG.sync.read(Buffer.from(writePng(list, list.pages[0]!, 144, { raster })));
}

/** Pixels between paper and ink: how wide the edges of the letters are. */
function edges(png: PNG): number {
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    const light = png.data[i]! + png.data[i + 1]! + png.data[i + 2]!;
    if (light > 250 && light < 650) n++;
  }
  return n;
}

/** The largest change of lightness between two neighbouring pixels of a row: how sharp the sharpest edge is. */
function steepest(png: PNG): number {
  let most = 0;
  const light = (i: number) => png.data[i]! + png.data[i + 1]! + png.data[i + 2]!;
  for (let y = 0; y < png.height; y++)
    for (let x = 1; x < png.width; x++) {
      const i = (y * png.width + x) * 4;
      most = Math.max(most, Math.abs(light(i) - light(i - 4)));
    }
  return most;
}

t.test(
  'bleed: ink soaks into the paper around it in images, keeping its own edge; off, nothing soaks',
  async (t) => {
    const flat = { paper: { texture: 0 }, ink: { pressure: 0, flow: 0, blots: 0, colorVariation: 0 } };
    const [dry, wet] = [
      pixels({ ...flat, ink: { ...flat.ink, bleed: 0 } }),
      pixels({ ...flat, ink: { ...flat.ink, bleed: 1 } }),
    ];
    const [sharp, soft] = [edges(dry), edges(wet)];
    t.ok(soft > sharp * 1.3, `pixels between ink and paper: ${sharp} without bleed, ${soft} with`);
    let lighter = 0;
    for (let i = 0; i < dry.data.length; i++) if (wet.data[i]! > dry.data[i]!) lighter++;
    t.equal(lighter, 0, 'the bleed only adds ink: no pixel of the letters is lighter (their edge stays)');
    t.ok(
      steepest(wet) >= 0.7 * steepest(dry),
      `and the sharpest step from ink to paper keeps most of its height (${steepest(dry)} → ${steepest(wet)}; blurring the edge halves it)`,
    );
    const off = renderText({
      style: style({ modifiers: { ink: { enabled: false, bleed: 1 } } }),
      text: 'x',
      fonts,
    });
    t.equal(off.pages[0]!.sheet.bleed, 0, 'ink off: no bleed');
  },
);

t.test('scanner: a slight blur and seeded noise over the page', async (t) => {
  const plain = { texture: 0 };
  const still = pixels({ paper: plain });
  const scanned = pixels({ paper: { ...plain, scanner: true } });
  // The top row is paper only: one colour, until the scanner's noise is on it.
  const shades = (png: PNG) => {
    const seen = new Set<number>();
    for (let x = 0; x < png.width; x++) seen.add(png.data.readUInt32BE(x * 4));
    return seen.size;
  };
  t.equal(shades(still), 1, 'a blank row of paper is one colour');
  t.ok(shades(scanned) >= 8, `scanned, it has ${shades(scanned)} shades of noise`);
  t.ok(
    steepest(scanned) < steepest(still) * 0.85,
    `and the letters' edges blur (steepest step ${steepest(still)} → ${steepest(scanned)})`,
  );
  t.same(pixels({ paper: { ...plain, scanner: true } }).data, scanned.data, 'the same seed, the same noise');
});

/** A page of `text` in Caveat at `size` pt, drawn plain but for `ink`, as PNG pixels at 144 DPI (and the list it came from). */
function plainPage(text: string, size: number, ink: Record<string, unknown>, dry?: number, height = 60) {
  const list = renderText({
    style: style({
      pageSize: { name: 'strip', width: 150, height, unit: 'mm' },
      margins: { top: 8, right: 5, bottom: 5, left: 5 },
      fontSize: size,
      modifiers: {
        ...EFFECTS_OFF,
        ink: { colorVariation: 0, pressure: 0, flow: 0, blots: 0, bleed: 0, ...ink },
        paper: { texture: 0 },
      },
    }),
    text,
    fonts,
  });
  const page = list.pages[0]!;
  const drawn = dry === undefined ? page : { ...page, sheet: { ...page.sheet, dry } };
  return { list, png: PNG.sync.read(Buffer.from(writePng(list, drawn, 144, { raster }))) };
}

/** Darkness (0-765 below the paper) of pixel p. */
const darkness = (png: PNG, p: number) =>
  765 - png.data[4 * p]! - png.data[4 * p + 1]! - png.data[4 * p + 2]!;

t.test(
  'in a PNG, ink pools where a downstroke lands and stops: wider and darker there than along its fast middle',
  async (t) => {
    // One l, a downstroke: its rows of ink from top to bottom, their width and darkness.
    const stem = (pressure: number) => {
      const { png } = plainPage('l', 96, { pressure });
      const rows: { width: number; dark: number }[] = [];
      for (let y = 0; y < png.height; y++) {
        let [width, dark] = [0, 0];
        for (let x = 0; x < png.width; x++) {
          const d = darkness(png, y * png.width + x);
          if (d > 300) [width, dark] = [width + 1, dark + d];
        }
        if (width > 0) rows.push({ width, dark: dark / width });
      }
      const part = (from: number, to: number) => {
        const r = rows.slice(Math.floor(from * rows.length), Math.ceil(to * rows.length));
        return {
          width: r.reduce((a, b) => a + b.width, 0) / r.length,
          dark: r.reduce((a, b) => a + b.dark, 0) / r.length,
        };
      };
      // The ends leave out the round tips (a twentieth each way).
      return { top: part(0.05, 0.15), middle: part(0.4, 0.6), bottom: part(0.85, 0.95) };
    };
    const [plain, inked] = [stem(0), stem(1)];
    for (const end of ['top', 'bottom'] as const) {
      const [was, now] = [plain[end].width / plain.middle.width, inked[end].width / inked.middle.width];
      t.ok(
        now > was * 1.1,
        `the ${end} end against the middle: ${was.toFixed(2)} times as wide without pressure, ${now.toFixed(2)} with`,
      );
      t.ok(
        inked[end].dark > inked.middle.dark + 10 && plain[end].dark < plain.middle.dark + 5,
        `and darker (${inked[end].dark.toFixed(0)} against ${inked.middle.dark.toFixed(0)}; without pressure ${plain[end].dark.toFixed(0)} against ${plain.middle.dark.toFixed(0)})`,
      );
    }
  },
);

t.test(
  'in a PNG, a pen running dry leaves the paper bare inside its pale strokes, never at their edges',
  async (t) => {
    const text = 'a pen that is dipped now and then writes lighter until it is dipped again '.repeat(4);
    // Large enough for the inside of a stroke to show, long enough for the pen to run dry.
    const [wet, dry] = [
      plainPage(text, 40, { flow: 1 }, 0, 240),
      plainPage(text, 40, { flow: 1 }, undefined, 240),
    ];
    t.equal(dry.list.pages[0]!.sheet.dry, 1, 'the page knows how dry the pen runs');
    const { png } = dry;
    const [w, h] = [png.width, png.height];
    const paper = (p: number) => darkness(wet.png, p) < 60;
    let [bare, darker, atEdge] = [0, 0, 0];
    const changed: number[] = [];
    for (let p = 0; p < w * h; p++) {
      const d = darkness(png, p) - darkness(wet.png, p);
      if (d === 0) continue;
      if (d > 0) darker++;
      else bare++;
      changed.push(p);
      const [x, y] = [p % w, Math.floor(p / w)];
      if ([p - 1, p + 1, p - w, p + w].some((q) => q < 0 || q >= w * h || paper(q)) || x === 0 || y === 0)
        atEdge++;
    }
    t.ok(bare > 200, `${bare} pixels inside the strokes show the paper's tooth`);
    t.equal(darker, 0, 'none is darker');
    t.equal(atEdge, 0, "none lies at a stroke's edge");
    // Where they are: by the letter nearest each one, pale letters against fresh ones.
    const glyphs = dry.list.pages[0]!.items.flatMap((i) => (i.kind === 'glyph' ? [i] : []));
    const perLetter = new Map<number, number>();
    for (const p of changed) {
      const [x, y] = [((p % w) / 144) * 72, (Math.floor(p / w) / 144) * 72];
      let [best, k] = [Number.POSITIVE_INFINITY, -1];
      glyphs.forEach((g, i) => {
        const d = Math.hypot(g.m[4] + 10 - x, g.m[5] - 12 - y); // about the middle of a letter of 40 pt
        if (d < best) [best, k] = [d, i];
      });
      perLetter.set(k, (perLetter.get(k) ?? 0) + 1);
    }
    const share = (keep: (o: number) => boolean) => {
      const of = glyphs.map((g, i) => [g, i] as const).filter(([g]) => keep(g.opacity));
      return of.reduce((s, [, i]) => s + (perLetter.get(i) ?? 0), 0) / Math.max(1, of.length);
    };
    const [pale, fresh] = [share((o) => o <= 0.75), share((o) => o >= 0.95)];
    t.ok(
      glyphs.some((g) => g.opacity <= 0.75),
      'the pen ran dry on the page',
    );
    t.ok(
      pale > 5 * Math.max(1, fresh),
      `bare pixels a letter: ${pale.toFixed(1)} in the palest, ${fresh.toFixed(1)} in fresh ink`,
    );
  },
);

t.test(
  'a connected hand keeps its joins: drawings and ink leave the joins where the font has them',
  async (t) => {
    const dancing = loadFont(bundledFontSource('dancing-script'));
    const m = shape(dancing, 'mmm', false)[1]!; // a joined m, inside a word
    const advance = dancing.font.glyphHAdvance(m.gid);
    const [x0, , x1] = dancing.box(m.gid);
    t.ok(x0 <= 0 && x1 >= advance, 'its ink reaches the letters before and after it');
    const points = (drawing: number, strength: number) =>
      drawingPath(dancing.outline(m.gid), dancing.upem, {
        drawing,
        shapes: drawing ? 0.75 : 0,
        pressure: strength,
        blots: strength,
        seed: 3,
        key: `${dancing.id}:${m.gid}`,
        advance,
      })
        .match(/-?\d+/g)!
        .map(Number);
    const plain = points(0, 0);
    for (let k = 1; k <= 16; k++) {
      const drawn = points(k, 1);
      let [joins, inside, moved] = [0, 0, 0];
      for (let i = 0; i < plain.length; i += 2) {
        const x = plain[i]!;
        const shift = Math.hypot(drawn[i]! - x, drawn[i + 1]! - plain[i + 1]!);
        if (x <= 0 || x >= advance) {
          joins++;
          if (shift > 1) moved++;
        } else if (shift > 4) inside++;
      }
      t.ok(
        joins > 0 && moved === 0 && inside > 10,
        `drawing ${k}: ${joins} points at the joins stay, ${inside} inside move`,
      );
    }
  },
);
