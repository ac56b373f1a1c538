// Fonts and shaping. HarfBuzz objects are created once per font per thread and kept in a cache
// bounded by the bytes of the fonts it holds (least recently used first out); a font dropped from
// it is freed when nothing holds it any longer (harfbuzzjs frees on garbage collection, and its
// wasm heap reuses what it freed but never shrinks). One Buffer is reused for every shaping call,
// and outlines are cached per glyph. Font bytes come in as arguments: no I/O here.
import * as hb from 'harfbuzzjs';
import type { PathCommand, PenStroke } from '../geometry.ts';
import { centrelines, joinsLetters, strokeFit } from './centrelines.ts';
import { forgetDrawings } from '../display-list.ts';

/**
 * A private table of a personal font built from a sample sheet (hand-build.ts): each drawing's
 * pen strokes, read from the scanned ink when the font was built, as JSON by glyph id. A thread
 * loading the font takes them from there rather than reading them again.
 */
export const PEN_TABLE = 'PENS';

/**
 * One glyph's strokes in PEN_TABLE or read ahead (StrokesAhead): whether they carry its shape, and
 * each stroke's points, widths, closure and joins (`e` entry, `x` exit: a connected hand's).
 */
export interface StoredStrokes {
  c: boolean;
  s: { p: number[]; w: number[]; z?: true; e?: true; x?: true }[];
}

/**
 * A font file's strokes read ahead of time, as a thread would read them (a release reads the
 * bundled hands' when it is built): `file` names the file they were read from (its fingerprint),
 * `glyphs` holds them by glyph id. A glyph not in it is read when it is first written.
 */
export interface StrokesAhead {
  file: string;
  /** Whether the hand joins its letters (LoadedFont.joined). */
  joined: boolean;
  glyphs: Record<string, StoredStrokes>;
}

/** Where this thread finds strokes read ahead of time for a font, by id (strokesReadAhead). */
let ahead: (id: string) => StrokesAhead | undefined = () => undefined;

/**
 * Tells the engine where strokes read ahead of time are (by font id): a font whose file is the one
 * they were read from takes its glyphs' strokes from there rather than reading them again.
 */
export function strokesReadAhead(lookup: (id: string) => StrokesAhead | undefined): void {
  ahead = lookup;
}

/**
 * The strokes of `text`'s glyphs in `source` and of their other drawings (the alternates a hand
 * deals), read as a thread reads them: what StrokesAhead keeps.
 */
export function readStrokesAhead(source: FontSource, text: string): StrokesAhead {
  const font = openFont(source);
  const gids = new Set<number>();
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (!font.covers(cp)) continue;
    for (const { gid } of shape(font, ch, false)) {
      gids.add(gid);
      for (const other of font.alternates(cp, gid)) gids.add(other.gid);
    }
  }
  const glyphs: Record<string, StoredStrokes> = {};
  for (const gid of gids) glyphs[gid] = toStored(font.centrelines(gid), font.strokes(gid) !== null);
  return { file: fingerprint(source.bytes), joined: font.joined, glyphs };
}

/** Strokes as they are kept (PEN_TABLE, StrokesAhead), and whether they carry the glyph's shape. */
export function toStored(read: readonly PenStroke[], carries: boolean): StoredStrokes {
  return {
    c: carries,
    s: read.map((k) => ({
      p: k.points,
      w: k.widths,
      ...(k.closed ? { z: true as const } : {}),
      ...(k.entry ? { e: true as const } : {}),
      ...(k.exit ? { x: true as const } : {}),
    })),
  };
}

/** Strokes as a thread reads them, from where they were kept. */
function fromStored(kept: StoredStrokes): { read: readonly PenStroke[]; carries: boolean } {
  const read = kept.s.map((k) => ({
    points: k.p,
    widths: k.w,
    closed: k.z === true,
    entry: k.e === true,
    exit: k.x === true,
  }));
  return { read, carries: kept.c };
}

/** The least share of a glyph's ink its strokes must give back for the pen to write it along them. */
export const STROKES_CARRY = 0.75;
/** Pairs of letters without dots or bars that a connected hand joins. */
const JOIN_PAIRS = ['an', 'nu', 'em', 'ca', 'mo', 'un', 'ha'];

export interface FontSource {
  id: string;
  bytes: Uint8Array;
  /** Scripts the font has only in type (FontPlan.typeset). */
  typeset?: readonly string[] | undefined;
}

export interface LoadedFont {
  id: string;
  upem: number;
  /** Ascender and descender in font units (descender negative). */
  ascender: number;
  descender: number;
  covers(codepoint: number): boolean;
  /** Scripts it has only in type: their letters are left to another hand where one has them. */
  typeset: readonly string[];
  /** Outline as path commands in font units, y up (cached). */
  outline(gid: number): readonly PathCommand[];
  /**
   * The other drawings the font has of character `cp` (stylistic alternates and sets), when
   * `gid` is one of its drawings; found once per character and thread.
   */
  alternates(cp: number, gid: number): readonly Alternate[];
  /** The glyph's ink box in font units, y up: [xMin, yMin, xMax, yMax] (cached). */
  box(gid: number): readonly [number, number, number, number];
  /** The glyph's advance in font units (cached: the pen asks for it a few times a letter). */
  advance(gid: number): number;
  /**
   * How far the hand's letters reach above and below the baseline, in font units: its tallest
   * ascender (b d f h k l t) and deepest descender (g j p q y), or the font's own metrics where it
   * has none of them; and its x-height (the tallest of x v w z), null where it has none of them.
   */
  readonly reach: { ascent: number; descent: number; x: number | null };
  /** A connected hand: its letters' ink runs into the next letter's (found once per thread). */
  readonly joined: boolean;
  /**
   * How heavy the hand's pen is: its strokes' mean width against the x-height, over the letters
   * of PEN_LETTERS it has (found once per thread); null where it has none of them.
   */
  readonly pen: number | null;
  /**
   * A hand built from a filled sample sheet (it keeps its pen strokes, PEN_TABLE): its ligatures
   * are letters the person wrote joined, not type's, and are written.
   */
  readonly fromSheet: boolean;
  /**
   * The glyph as pen strokes (centrelines.ts), read once per thread; null where strokes do not
   * carry its shape (they give back less than STROKES_CARRY of its ink: strong thick-thin
   * calligraphy) or it has no ink: it is written as its outline.
   */
  strokes(gid: number): readonly PenStroke[] | null;
  /** The glyph's centrelines as read, whether or not they carry its shape (pen plotters write every letter along them). */
  centrelines(gid: number): readonly PenStroke[];
  font: hb.Font;
  /** Shaped words, by direction and text (prose repeats its words: shaping is the costly part). */
  words: Map<string, ShapedGlyph[]>;
}

/** Another drawing of a letter, and how far to move it so that it sits centred in the letter's advance. */
export interface Alternate {
  gid: number;
  /** Font units along the baseline. */
  shift: number;
}

export interface ShapedGlyph {
  gid: number;
  /** Index of the first character (UTF-16) of the glyph's cluster in the shaped text. */
  cluster: number;
  /** Advance and offsets in font units. */
  advance: number;
  dx: number;
  dy: number;
  /** A composed letter's mark (compose.ts): its size against the letter's; offsets from the base's pen position. */
  size?: number;
}

interface Cached {
  font: LoadedFont;
  bytes: number;
  /** The same font with some scripts left to other hands, by those scripts. */
  variants: Map<string, LoadedFont>;
}

/** Loaded fonts by id, least recently used first. */
const loaded = new Map<string, Cached>();
/** The file each font id was last loaded from (fingerprint()), kept past the cache. */
const filesSeen = new Map<string, string>();
const FILES_SEEN_MAX = 10_000;
let loadedBytes = 0;
/** Default bound of the cache: the bundled hands and a few large personal fonts. */
export const FONT_CACHE_DEFAULT_BYTES = 64 * 1024 * 1024;
let cacheMaxBytes = FONT_CACHE_DEFAULT_BYTES;
let sharedBuffer: hb.Buffer | null = null;

/**
 * Bounds this thread's font cache by the bytes of the font files it holds. The fonts of the
 * document being written stay whatever the bound: a font is only dropped from the cache, never
 * from a document that holds it.
 */
export function setFontCacheBytes(maxBytes: number): void {
  cacheMaxBytes = maxBytes;
  evict(null);
}

/** Drops a font from this thread's cache (a deleted font, or one loaded for a single check); whether it held it. */
export function forgetFont(id: string): boolean {
  const entry = loaded.get(id);
  if (!entry) return false;
  loaded.delete(id);
  loadedBytes -= entry.bytes;
  return true;
}

/** What the cache holds: how many fonts, and the bytes of their files. */
export function fontCacheState(): { fonts: number; bytes: number; maxBytes: number } {
  return { fonts: loaded.size, bytes: loadedBytes, maxBytes: cacheMaxBytes };
}

/** Drops least recently used fonts (but `keep`) until the cache is within its bound. */
function evict(keep: string | null): void {
  for (const id of loaded.keys()) {
    if (loadedBytes <= cacheMaxBytes) return;
    if (id !== keep) forgetFont(id);
  }
}

/**
 * A chain of fonts, loaded (loadFont), in an array that is always of one kind to V8. Made by
 * `map`, it came out packed for some documents and holey for others, and the layout code
 * optimised for the one was thrown away and compiled again at the other: about 30 ms of a
 * thread's time a document.
 */
export function loadFonts(sources: readonly FontSource[]): LoadedFont[] {
  const fonts: LoadedFont[] = [];
  for (const source of sources) fonts.push(loadFont(source));
  return fonts;
}

/** The font with this id, loaded from `bytes` when this thread's cache does not hold it. */
export function loadFont(source: FontSource): LoadedFont {
  let entry = loaded.get(source.id);
  const file = fingerprint(source.bytes);
  // A personal font rebuilt keeps its id: another file under the same id is loaded afresh, and
  // what was drawn from the one before is forgotten (even once the font left the cache).
  const seen = filesSeen.get(source.id);
  if (seen !== undefined && seen !== file) {
    forgetFont(source.id);
    forgetDrawings();
    entry = undefined;
  }
  if (filesSeen.size >= FILES_SEEN_MAX) {
    // Forgetting which file an id was, the drawings made from them go too.
    filesSeen.clear();
    forgetDrawings();
  }
  filesSeen.set(source.id, file);
  if (entry) {
    // Most recently used: to the end of the order.
    loaded.delete(source.id);
    loaded.set(source.id, entry);
  } else {
    entry = { font: openFont(source), bytes: source.bytes.byteLength, variants: new Map() };
    loaded.set(source.id, entry);
    loadedBytes += entry.bytes;
    evict(source.id);
  }
  if (!source.typeset?.length) return entry.font;
  // The same font with some scripts left to other hands: its own object (documents key their
  // drawings by font), sharing the HarfBuzz objects and caches.
  const key = source.typeset.join(',');
  let variant = entry.variants.get(key);
  if (!variant) {
    variant = Object.create(entry.font, { typeset: { value: [...source.typeset] } }) as LoadedFont;
    entry.variants.set(key, variant);
  }
  return variant;
}

/**
 * Which file a font's bytes are, cheaply: their length and the whole-file checksum every sfnt
 * keeps in its `head` table (checkSumAdjustment), which any change of the file changes.
 */
function fingerprint(bytes: Uint8Array): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 12) return `${bytes.byteLength}`;
  const tables = view.getUint16(4);
  for (let t = 0; t < tables && 12 + 16 * t + 16 <= bytes.byteLength; t++) {
    const at = 12 + 16 * t;
    if (view.getUint32(at) !== 0x68656164) continue; // 'head'
    const offset = view.getUint32(at + 8);
    if (offset + 12 <= bytes.byteLength) return `${bytes.byteLength}:${view.getUint32(offset + 8)}`;
  }
  return `${bytes.byteLength}`;
}

function openFont(source: FontSource): LoadedFont {
  const face = new hb.Face(new hb.Blob(source.bytes), 0);
  const font = new hb.Font(face);
  const cmap = new Set(face.collectUnicodes());
  const outlines = new Map<number, readonly PathCommand[]>();
  const drawings = new Map<number, Map<number, Alternate[]>>();
  let features: hb.Feature[] | undefined;
  const extents = font.hExtents();
  // By glyph id, found once each: a lookup in an array, not a call into the shaper's memory.
  const boxes: (readonly [number, number, number, number])[] = [];
  let advances = new Float64Array(0);
  let reach: LoadedFont['reach'] | undefined;
  let joined: boolean | undefined;
  let pen: number | null | undefined;
  const strokes = new Map<number, { read: readonly PenStroke[]; carries: boolean }>();
  let pens: Record<string, StoredStrokes> | null | undefined;
  const stored = (gid: number) => {
    if (pens === undefined) {
      const table = face.referenceTable(PEN_TABLE);
      pens = table?.length
        ? (JSON.parse(new TextDecoder().decode(table)) as Record<string, StoredStrokes>)
        : null;
    }
    const kept = pens?.[gid];
    return kept && fromStored(kept);
  };
  let readAhead: StrokesAhead | null | undefined;
  const aheadOf = () => {
    if (readAhead === undefined) {
      const found = ahead(source.id);
      readAhead = found?.file === fingerprint(source.bytes) ? found : null;
    }
    return readAhead;
  };
  const strokesOf = (gid: number) => {
    let s = strokes.get(gid);
    if (s === undefined) {
      // Strokes the font keeps were read for letters that stand alone: a connected hand reads its own.
      const kept = aheadOf()?.glyphs[gid];
      s = (f.joined ? undefined : stored(gid)) ?? (kept && fromStored(kept));
      if (!s) {
        const outline = f.outline(gid);
        const read = centrelines(
          outline,
          face.upem,
          f.joined ? { advance: font.glyphHAdvance(gid) } : undefined,
        );
        s = { read, carries: read.length > 0 && strokeFit(outline, face.upem, read).iou >= STROKES_CARRY };
      }
      strokes.set(gid, s);
    }
    return s;
  };
  const own: Omit<LoadedFont, 'reach' | 'joined' | 'pen' | 'fromSheet'> = {
    id: source.id,
    upem: face.upem,
    ascender: extents.ascender,
    descender: extents.descender,
    covers: (cp) => cmap.has(cp),
    typeset: [],
    outline(gid) {
      let o = outlines.get(gid);
      if (!o) {
        o = font.glyphToJson(gid).map((c) => ({ type: c.type, values: [...c.values] }));
        outlines.set(gid, o);
      }
      return o;
    },
    alternates(cp, gid) {
      let found = drawings.get(cp);
      if (!found) {
        features ??= ALTERNATE_FEATURES.filter((t) => face.getTableFeatureTags('GSUB').includes(t)).map(
          (t) => hb.Feature.fromString(t)!,
        );
        found = features.length ? drawingsOf(font, cp, features) : new Map<number, Alternate[]>();
        drawings.set(cp, found);
      }
      return found.get(gid) ?? [];
    },
    box(gid) {
      let b = boxes[gid];
      if (!b) {
        const e = font.glyphExtents(gid);
        b = e ? [e.xBearing, e.yBearing + e.height, e.xBearing + e.width, e.yBearing] : [0, 0, 0, 0];
        boxes[gid] = b;
      }
      return b;
    },
    advance(gid) {
      if (gid >= advances.length) {
        const grown = new Float64Array(Math.max(gid + 1, 2 * advances.length, 256)).fill(Number.NaN);
        grown.set(advances);
        advances = grown;
      }
      let a = advances[gid]!;
      if (Number.isNaN(a)) {
        a = font.glyphHAdvance(gid);
        advances[gid] = a;
      }
      return a;
    },
    strokes(gid) {
      const s = strokesOf(gid);
      return s.carries ? s.read : null;
    },
    centrelines: (gid) => strokesOf(gid).read,
    font,
    words: new Map(),
  };
  const f = own as LoadedFont;
  // Worked out on first use. Defined on the object made, not as getters of the literal: V8 keeps
  // an object literal with getters as a dictionary, and every read of the font (a few dozen a
  // letter) was a lookup in it.
  Object.defineProperties(f, {
    reach: { enumerable: true, get: () => (reach ??= reachOf(f, extents)) },
    joined: {
      enumerable: true,
      get: () => {
        joined ??= aheadOf()?.joined;
        joined ??= joinsLetters(
          JOIN_PAIRS.filter((p) => [...p].every((c) => cmap.has(c.codePointAt(0)!))).map((p) => {
            const [a, b] = shape(f, p, false);
            return { first: f.outline(a!.gid), second: f.outline(b!.gid), shift: a!.advance + b!.dx - a!.dx };
          }),
          face.upem,
        );
        return joined;
      },
    },
    pen: { enumerable: true, get: () => (pen ??= penOf(f, cmap)) },
    fromSheet: {
      enumerable: true,
      get: () => {
        stored(0);
        return pens !== null;
      },
    },
  });
  return f;
}

/** Letters every Latin hand has whose strokes show its pen's width (LoadedFont.pen). */
const PEN_LETTERS = 'noe';

function penOf(f: LoadedFont, cmap: ReadonlySet<number>): number | null {
  const x = f.reach.x;
  if (!x) return null;
  let [sum, n] = [0, 0];
  for (const c of PEN_LETTERS) {
    if (!cmap.has(c.codePointAt(0)!)) continue;
    for (const s of f.centrelines(shape(f, c, false)[0]!.gid))
      for (const w of s.widths) [sum, n] = [sum + w, n + 1];
  }
  return n ? sum / n / x : null;
}

function reachOf(f: LoadedFont, metrics: { ascender: number; descender: number }): LoadedFont['reach'] {
  const most = (letters: string, edge: (b: readonly number[]) => number) => {
    let m = -Infinity;
    for (const ch of letters)
      if (f.covers(ch.codePointAt(0)!))
        for (const g of shape(f, ch, false)) m = Math.max(m, edge(f.box(g.gid)));
    return m;
  };
  const ascent = most('bdfhklt', (b) => b[3]!);
  const descent = most('gjpqy', (b) => -b[1]!);
  const x = most('xvwz', (b) => b[3]!);
  return {
    ascent: Number.isFinite(ascent) ? ascent : metrics.ascender,
    descent: Number.isFinite(descent) ? descent : -metrics.descender,
    x: Number.isFinite(x) && x > 0 ? x : null,
  };
}

const ALTERNATE_FEATURES = [
  'salt',
  ...Array.from({ length: 20 }, (_, i) => `ss${String(i + 1).padStart(2, '0')}`),
];

/**
 * The drawings of one character under the stylistic-alternates and stylistic-set features
 * (`aalt` is left out: it also holds superscripts, fractions and small forms), each with the
 * others it can be swapped for. A drawing whose advance differs from the usual one's by more than
 * a tenth is left out: it would not fit the letter's place in the line.
 */
function drawingsOf(font: hb.Font, cp: number, features: hb.Feature[]): Map<number, Alternate[]> {
  sharedBuffer ??= new hb.Buffer();
  const buf = sharedBuffer;
  const single = (with_: hb.Feature[]) => {
    buf.reset();
    buf.addCodePoints([cp]);
    buf.guessSegmentProperties();
    hb.shape(font, buf, with_);
    const glyphs = buf.getGlyphInfos();
    buf.clearContents();
    return glyphs.length === 1 ? glyphs[0]!.codepoint : -1;
  };
  const found = new Map<number, Alternate[]>();
  const usual = single([]);
  if (usual < 0 || cp <= 0x20) return found;
  const advance = font.glyphHAdvance(usual);
  const members = new Set([usual]);
  for (const feature of features) {
    const alt = single([feature]);
    if (alt >= 0 && Math.abs(font.glyphHAdvance(alt) - advance) <= advance * 0.1) members.add(alt);
  }
  if (members.size < 2 || advance <= 0) return found;
  for (const m of members) {
    const others = [...members].filter((o) => o !== m).sort((a, b) => a - b);
    found.set(
      m,
      others.map((o) => ({ gid: o, shift: (font.glyphHAdvance(m) - font.glyphHAdvance(o)) / 2 })),
    );
  }
  return found;
}

/**
 * `read(font, key)` remembered per font (for as long as the font is loaded) and key: what is
 * worked out once per glyph or character and thread.
 */
export function perFont<T>(read: (font: LoadedFont, key: number) => T): (font: LoadedFont, key: number) => T {
  const byFont = new WeakMap<LoadedFont, Map<number, T>>();
  return (font, key) => {
    let known = byFont.get(font);
    if (!known) {
      known = new Map();
      byFont.set(font, known);
    }
    if (!known.has(key)) known.set(key, read(font, key));
    return known.get(key)!;
  };
}

/**
 * Features turned off in every run: a hand does not join f and i into a typeset `fi` (whose i
 * loses its dot in most of these fonts), nor th, ff or fl. What a script needs stays: required
 * ligatures (`rlig`: Arabic's lam-alef), joining forms, and contextual alternates (`calt`: the
 * joins of a connected hand). A hand built from a sample sheet keeps its ligatures: they are
 * the person's own joined letters (docs/personal-hands.md).
 */
let handFeatures: hb.Feature[] | undefined;

/** Shapes `text` (one run: one font, one direction) with the font's default features (kerning, contextual alternates, required ligatures) but its typographic ligatures. */
export function shape(font: LoadedFont, text: string, rtl: boolean): ShapedGlyph[] {
  handFeatures ??= [hb.Feature.fromString('-liga')!];
  sharedBuffer ??= new hb.Buffer();
  const buf = sharedBuffer;
  buf.reset();
  buf.addText(text);
  buf.guessSegmentProperties();
  buf.setDirection(rtl ? hb.Direction.RTL : hb.Direction.LTR);
  hb.shape(font.font, buf, font.fromSheet ? [] : handFeatures);
  const out = buf.getGlyphInfosAndPositions().map((g) => ({
    gid: g.codepoint,
    cluster: g.cluster,
    advance: g.xAdvance ?? 0,
    dx: g.xOffset ?? 0,
    dy: g.yOffset ?? 0,
  }));
  buf.clearContents();
  return out;
}

const WORD_CACHE_MAX = 50_000;

/** A word as shaped (each word once per thread, kept): its glyphs' clusters count from `at`. */
export interface ShapedWord {
  glyphs: readonly ShapedGlyph[];
  at: number;
}

/**
 * Shapes a run word by word (spaces are their own words), each word once per thread. Nothing
 * that shaping does crosses a space in these scripts (joining, reordering, ligatures), so the
 * result is the run's; the words come back in visual order like HarfBuzz's glyphs (right to left,
 * the last first), each as kept, not copied.
 */
export function shapedWords(font: LoadedFont, text: string, rtl: boolean): ShapedWord[] {
  const out: ShapedWord[] = [];
  for (let at = 0; at < text.length; ) {
    const space = text.charCodeAt(at) === 0x20;
    let end = at + 1;
    while (end < text.length && (text.charCodeAt(end) === 0x20) === space) end++;
    const word = text.slice(at, end);
    const key = (rtl ? 'r' : 'l') + word;
    let glyphs = font.words.get(key);
    if (!glyphs) {
      glyphs = shape(font, word, rtl);
      if (font.words.size >= WORD_CACHE_MAX) font.words.clear();
      font.words.set(key, glyphs);
    }
    out.push({ glyphs, at });
    at = end;
  }
  return rtl ? out.reverse() : out;
}

/** The glyphs of `shapedWords`, each its own, its cluster counted from the start of `text`. */
export function shapeWords(font: LoadedFont, text: string, rtl: boolean): ShapedGlyph[] {
  const out: ShapedGlyph[] = [];
  for (const { glyphs, at } of shapedWords(font, text, rtl))
    for (const g of glyphs)
      out.push({ gid: g.gid, cluster: g.cluster + at, advance: g.advance, dx: g.dx, dy: g.dy });
  return out;
}
