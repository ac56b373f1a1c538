// Simple text → pages of positioned glyphs. Stages: paragraphs → bidi levels (bidi-js) →
// runs of one font and one direction (a per-character fallback chain) → HarfBuzz shaping →
// break opportunities (UAX #14, the `linebreak` library) → greedy lines → pages; then the
// handwriting (handwriting.ts) moves every glyph a little. Lengths in pt, y down.
import bidiFactory from 'bidi-js';
import LineBreaker from 'linebreak';
import { characterName, isSpace } from './characters.ts';
import { composedBases, composition, withMarks } from './compose.ts';
import { type LoadedFont, type ShapedWord, shapedWords, shapeWords } from './fonts.ts';

// The package is CommonJS whose module.exports is the factory; its types describe an ES default.
const bidi = (bidiFactory as unknown as typeof bidiFactory.default)();

export type RenderErrorCode =
  | 'UNSUPPORTED_CHARACTERS'
  | 'TOO_MANY_PAGES'
  | 'TOO_MANY_LINES'
  | 'OUTPUT_TOO_LARGE'
  | 'MISSING_ASSET'
  | 'UNSUPPORTED_IMAGE';

/** A refusal of the input (characters no font has, too many pages, too large): not a crash. */
export class RenderError extends Error {
  constructor(
    readonly code: RenderErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RenderError';
  }
}

export interface LineGlyph {
  font: LoadedFont;
  gid: number;
  /** The first character of the glyph's cluster. */
  cp: number;
  /** Pen position on the line (pt, from the line start) and offsets (pt). */
  x: number;
  dx: number;
  dy: number;
  /** Index of the word in the document, for per-word effects; -1 for spaces. */
  word: number;
  /** The glyph's size against the line's: 1 in the line's own hand, a fallback's sized to its x-height. */
  fit: number;
}

export interface Line {
  /** The line's glyphs, made anew at each call (layoutParagraph). */
  glyphs(): LineGlyph[];
  /**
   * The glyphs written over the first of `into`'s (reused, more made as needed), for a writer
   * that writes line after line: how many.
   */
  glyphsInto(into: LineGlyph[]): number;
  width: number;
  text: string;
  /** The same text in visual (left-to-right display) order, for layers that expect it. */
  visual: string;
  /** x of the line start within the content box (indent, alignment). */
  offset: number;
  /** Extra pt per space for justified lines. */
  justify: number;
  /**
   * How much further the line's end may run before it meets its measure (pt): what a line set
   * to the left, left to right, leaves free at its end; 0 for a line aligned otherwise or justified.
   */
  slack: number;
  /** Whether the paragraph runs right to left. */
  rtl: boolean;
}

export interface TextMetrics {
  /** Font size in pt, width of the content box in pt. */
  size: number;
  width: number;
  letterSpacing: number;
  wordSpacing: number;
  firstLineIndent: number;
  align: 'left' | 'right' | 'center' | 'justify';
  /** The share of `width` a line that starts at this character (of the paragraph) may fill: a tired hand's lines run longer. */
  share?: (at: number) => number;
}

interface Run {
  start: number;
  end: number;
  font: LoadedFont;
  level: number;
}

const MARK = /^(?:\p{M}|\u200c|\u200d)$/u;
const isMark = (cp: number) => cp >= 0x300 && MARK.test(String.fromCodePoint(cp));

/**
 * The script of a letter, where a font may have it only in type (FontPlan.typeset); null for any
 * other character. The digits, punctuation and symbols of Latin type (ASCII's, Latin-1's, general
 * punctuation and currency) go with Latin: a hand that has Latin only in type leaves all of them
 * to the hand that writes its Latin letters (its companion, the next in the chain), so quotes,
 * figures and £ € & are written by the same pen as the words beside them.
 */
function typesetScriptOf(cp: number): string | null {
  if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return 'Latin';
  if (
    (cp >= 0x21 && cp <= 0x7e) ||
    (cp >= 0xa1 && cp <= 0xbf) ||
    cp === 0xd7 ||
    cp === 0xf7 ||
    (cp >= 0x2010 && cp <= 0x205e) ||
    (cp >= 0x20a0 && cp <= 0x20cf)
  )
    return 'Latin';
  if ((cp >= 0xc0 && cp <= 0x24f && cp !== 0xd7 && cp !== 0xf7) || (cp >= 0x1e00 && cp <= 0x1eff))
    return 'Latin Extended';
  return null;
}

/** Whether `font` writes `cp` by hand: it has it, and not only in type. */
function writes(font: LoadedFont, cp: number): boolean {
  if (!font.covers(cp)) return false;
  if (font.typeset.length === 0) return true;
  const script = typesetScriptOf(cp);
  return script === null || !font.typeset.includes(script);
}

/**
 * The font character `cp` takes before any hand of the chain past the first is asked: the one
 * before's (`prev`) for a space, a control or a mark it writes; else the hand's own where it
 * writes the character, or its base letter (one it writes by hand, not only in type) and mark
 * where the character is composed (compose.ts); undefined where the chain must be asked.
 */
function ownFont(cp: number, prev: LoadedFont, hand: LoadedFont): LoadedFont | undefined {
  if (isSpace(cp) || cp < 0x20 || (isMark(cp) && prev.covers(cp))) {
    if (writes(prev, cp) || isSpace(cp)) return prev;
  }
  if (writes(hand, cp)) return hand;
  const plan = composition(hand, cp);
  return plan && writes(hand, plan.base) ? hand : undefined;
}

/**
 * Whether the hand writes every character of `text` itself (ownFont), lines apart: then no
 * other hand of the chain is asked for any, and the chain's others need not be opened.
 */
export function writesAll(hand: LoadedFont, text: string): boolean {
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    i += cp > 0xffff ? 2 : 1;
    if (cp === 0x0a || cp === 0x0d) continue;
    if (ownFont(cp, hand, hand) !== hand) return false;
  }
  return true;
}

/** Splits a paragraph into runs of one font and one bidi level; names characters no font has. */
function itemize(text: string, levels: Uint8Array, fonts: LoadedFont[], missing: Set<string>): Run[] {
  const runs: Run[] = [];
  const hand = fonts[0]!;
  let prev: LoadedFont = hand;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const len = cp > 0xffff ? 2 : 1;
    let font = ownFont(cp, prev, hand);
    font ??= fonts.find((f) => writes(f, cp)) ?? fonts.find((f) => f.covers(cp));
    if (!font) {
      missing.add(characterName(cp));
      font = prev;
    }
    const level = levels[i]!;
    const last = runs[runs.length - 1];
    if (last && last.font === font && last.level === level) last.end = i + len;
    else runs.push({ start: i, end: i + len, font, level });
    prev = font;
    i += len;
  }
  return runs;
}

/** Characters a..b (inclusive) in display order, mirrored where right to left, pairs kept whole. */
function visualOrder(
  text: string,
  embedding: ReturnType<typeof bidi.getEmbeddingLevels>,
  a: number,
  b: number,
): string {
  // The library returns indices for the whole string, flipped within a..b only.
  const out = bidi
    .getReorderedIndices(text, embedding, a, b)
    .slice(a, b + 1)
    .map((i) => {
      const ch = text[i]!;
      return embedding.levels[i]! % 2 === 1 ? (bidi.getMirroredCharacter(ch) ?? ch) : ch;
    })
    .join('');
  return out.replace(/([\udc00-\udfff])([\ud800-\udbff])/g, '$2$1');
}

/**
 * How much larger a fallback hand's letters are written than its font's size (within 0.75-1.5
 * times): Latin, Greek and Cyrillic as large that their x-height is the line's own hand's, so
 * that an é or a ç another font supplies stands as tall as its neighbours; other scripts (no
 * x-height of their own) so that the two hands' ascenders reach alike.
 */
function fitOf(run: Run, text: string, main: LoadedFont): number {
  const { font } = run;
  if (font === main) return 1;
  let cased = false;
  for (let i = run.start; i < run.end; i++) {
    const cp = text.charCodeAt(i);
    if (isSpace(cp)) continue;
    cased = (cp >= 0x41 && cp <= 0x24f) || (cp >= 0x370 && cp <= 0x52f) || (cp >= 0x1e00 && cp <= 0x1fff);
    break;
  }
  const [mine, theirs] =
    cased && font.reach.x && main.reach.x
      ? [main.reach.x, font.reach.x]
      : [main.reach.ascent, font.reach.ascent];
  return Math.min(1.5, Math.max(0.75, mine / main.upem / (theirs / font.upem)));
}

/** A run shaped: the letters the font composes shaped as their bases, their marks added (compose.ts). */
function shapeRun(font: LoadedFont, text: string, rtl: boolean): ShapedWord[] {
  const bases = composedBases(font, text);
  return bases === null
    ? shapedWords(font, text, rtl)
    : [{ glyphs: withMarks(font, text, shapeWords(font, bases, rtl)), at: 0 }];
}

/**
 * The glyphs whose cluster lies in [a, end), as a range of `s`'s indices, found by bisection,
 * since a run's clusters rise (left to right) or fall (right to left) along it. Filtering the
 * whole paragraph's glyphs for each line made long paragraphs quadratic.
 */
function clusterRange(s: Shaped, a: number, end: number): [number, number] {
  const { n, cluster } = s;
  if (n === 0) return [0, 0];
  const falling = cluster[0]! > cluster[n - 1]!;
  // The first index from which on every cluster is past `bound` in the run's order.
  const from = (bound: number) => {
    let [lo, hi] = [0, n];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = cluster[mid]!;
      if (falling ? c >= bound : c < bound) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return falling ? [from(end), from(a)] : [from(a), from(end)];
}

/**
 * A run's glyphs as shaped, one array a figure. A paragraph's are kept until the last of its
 * lines is written, and a document's lines are all laid out before the first is written: as an
 * object a glyph they were copied by young-generation collections on their way to the old
 * generation; the numbers of typed arrays are not.
 */
interface Shaped {
  run: Run;
  fit: number;
  n: number;
  gid: Int32Array;
  /** Index of the first character of the glyph's cluster, in the paragraph. */
  cluster: Int32Array;
  /** Advance and offsets in font units. */
  advance: Float64Array;
  dx: Float64Array;
  dy: Float64Array;
  /** A composed letter's mark's size against its letter's (NaN: not a mark); null when the run has none. */
  size: Float64Array | null;
}

/** The `words` of a run shaped from the paragraph's `start`th character, packed. */
function packed(run: Run, fit: number, words: ShapedWord[], start: number): Shaped {
  let n = 0;
  let marks = false;
  for (const w of words) {
    n += w.glyphs.length;
    marks ||= w.glyphs.some((g) => g.size !== undefined);
  }
  const s: Shaped = {
    run,
    fit,
    n,
    gid: new Int32Array(n),
    cluster: new Int32Array(n),
    advance: new Float64Array(n),
    dx: new Float64Array(n),
    dy: new Float64Array(n),
    size: marks ? new Float64Array(n).fill(Number.NaN) : null,
  };
  let i = 0;
  for (const { glyphs, at } of words)
    for (const g of glyphs) {
      s.gid[i] = g.gid;
      s.cluster[i] = g.cluster + at + start;
      s.advance[i] = g.advance;
      s.dx[i] = g.dx;
      s.dy[i] = g.dy;
      if (g.size !== undefined) s.size![i] = g.size;
      i++;
    }
  return s;
}

/**
 * The least clear space between the ink of two words, in font sizes, for a hand whose x-height is
 * `xHeight` font sizes: INK_GAP, and never less than WORD_INK of the x-height (a hand with a large
 * x-height needs the wider space; docs/handwriting.md, "Space between words").
 */
export function leastWordSpace(xHeight: number): number {
  return Math.max(INK_GAP, WORD_INK * xHeight);
}

const INK_GAP = 0.12;
const WORD_INK = 0.45;

/** Lays out one paragraph into lines of `m.width` pt. */
export function layoutParagraph(
  text: string,
  fonts: LoadedFont[],
  m: TextMetrics,
  wordBase: number,
  missing: Set<string>,
): { lines: Line[]; words: number } {
  if (text.length === 0)
    return {
      lines: [
        {
          glyphs: () => [],
          glyphsInto: () => 0,
          width: 0,
          text: '',
          visual: '',
          offset: 0,
          justify: 0,
          slack: 0,
          rtl: false,
        },
      ],
      words: 0,
    };
  // Bidi only where a right-to-left character could change something.
  const hasRtl =
    /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]|\ud802|\ud803|\ud83a|\u200f|\u202b|\u202e|\u2067/.test(text);
  const embedding = hasRtl
    ? bidi.getEmbeddingLevels(text, 'auto')
    : { levels: new Uint8Array(text.length), paragraphs: [{ start: 0, end: text.length - 1, level: 0 }] };
  const { levels, paragraphs } = embedding;
  const rtl = (paragraphs[0]?.level ?? 0) % 2 === 1;
  const runs = itemize(text, levels, fonts, missing);
  const shaped: Shaped[] = runs.map((run) =>
    packed(
      run,
      fitOf(run, text, fonts[0]!),
      shapeRun(run.font, text.slice(run.start, run.end), run.level % 2 === 1),
      run.start,
    ),
  );

  // Width of each character position (advances land on their cluster's first character).
  const advance = new Float64Array(text.length + 1);
  /** At a space: how far the letters either side of it reach into it (pt). */
  const overhang = new Float64Array(text.length + 1);
  for (const s of shaped) {
    const scale = (m.size / s.run.font.upem) * s.fit;
    const { font } = s.run;
    for (let j = 0; j < s.n; j++) {
      if (s.size !== null && !Number.isNaN(s.size[j]!)) continue; // a composed letter's mark: no advance
      const cluster = s.cluster[j]!;
      advance[cluster]! += s.advance[j]! * scale + m.letterSpacing;
      // A space keeps at least 40 % of its width clear of ink: a swash that reaches back over
      // it (Homemade Apple's capitals) or a tail that runs on past its letter widens it.
      if (!isSpace(text.charCodeAt(cluster))) continue;
      const over =
        (j > 0 ? Math.max(0, font.box(s.gid[j - 1]!)[2] - s.advance[j - 1]!) : 0) +
        (j + 1 < s.n ? Math.max(0, -font.box(s.gid[j + 1]!)[0]) : 0);
      advance[cluster]! += Math.max(0, over - 0.6 * s.advance[j]!) * scale;
      overhang[cluster] = over * scale;
    }
  }
  // A space narrowed by the template's word spacing keeps at least the clear space the pen keeps
  // between two words' ink, past what the letters either side reach into it: the line is wrapped
  // for the space it will take.
  const hand = fonts[0]!;
  const least = leastWordSpace((hand.reach.x ?? hand.upem / 2) / hand.upem) * m.size;
  for (let i = 0; i < text.length; i++) {
    if (!isSpace(text.charCodeAt(i))) continue;
    const floor = Math.min(advance[i]!, overhang[i]! + least);
    advance[i] = Math.max(advance[i]! + m.wordSpacing, floor);
  }
  // Prefix sums: the width of any stretch in O(1), so long paragraphs stay linear.
  const before = new Float64Array(text.length + 1);
  for (let i = 0; i < text.length; i++) before[i + 1] = before[i]! + advance[i]!;
  const widthOf = (a: number, b: number) => before[b]! - before[a]!;
  const trimEnd = (a: number, b: number) => {
    while (b > a && isSpace(text.charCodeAt(b - 1))) b--;
    return b;
  };

  // Greedy lines over UAX #14 break opportunities; a word longer than a line breaks between
  // characters (never mid surrogate pair or before a mark).
  const ranges: [number, number][] = [];
  const breaker = new LineBreaker(text);
  let lineStart = 0;
  let lastFit = -1;
  const avail = (start: number) => m.width * (m.share?.(start) ?? 1);
  const limit = (start: number) => avail(start) - (start === 0 ? m.firstLineIndent : 0);
  const pushLongWord = (from: number, to: number) => {
    let s = from;
    while (s < to && widthOf(s, trimEnd(s, to)) > limit(s)) {
      let e = s + 1;
      while (e < to && widthOf(s, e + 1) <= limit(s)) e++;
      while (e < to && (isMark(text.codePointAt(e)!) || (text.charCodeAt(e) & 0xfc00) === 0xdc00)) e++;
      ranges.push([s, e]);
      s = e;
    }
    return s;
  };
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) {
    const pos = bk.position;
    if (widthOf(lineStart, trimEnd(lineStart, pos)) > limit(lineStart)) {
      if (lastFit > lineStart) {
        ranges.push([lineStart, lastFit]);
        lineStart = lastFit;
      }
      if (widthOf(lineStart, trimEnd(lineStart, pos)) > limit(lineStart))
        lineStart = pushLongWord(lineStart, pos);
    }
    lastFit = pos;
    if (bk.required && pos < text.length) {
      ranges.push([lineStart, pos]);
      lineStart = pos;
    }
  }
  if (lineStart < text.length || ranges.length === 0) ranges.push([lineStart, text.length]);

  // Words: maximal non-space stretches, numbered through the document.
  const wordAt = new Int32Array(text.length).fill(-1);
  let words = 0;
  for (let i = 0; i < text.length; i++) {
    if (isSpace(text.charCodeAt(i))) continue;
    if (i === 0 || isSpace(text.charCodeAt(i - 1))) words++;
    wordAt[i] = wordBase + words - 1;
  }

  const lines = ranges.map(([a, b], li) => {
    const end = trimEnd(a, b);
    // Runs of this line in visual order (UAX #9 L2: reverse sequences at each level from the highest).
    const parts = shaped
      .filter((s) => s.run.start < end && s.run.end > a)
      .map((s) => {
        const [from, to] = clusterRange(s, a, end);
        return { level: s.run.level, s, from, to };
      });
    const maxLevel = Math.max(0, ...parts.map((p) => p.level));
    const minOdd = Math.max(1, Math.min(...parts.map((p) => p.level)) | 1);
    for (let lvl = maxLevel; lvl >= minOdd; lvl--) {
      for (let i = 0; i < parts.length; ) {
        if (parts[i]!.level < lvl) {
          i++;
          continue;
        }
        let j = i;
        while (j < parts.length && parts[j]!.level >= lvl) j++;
        parts.splice(i, j - i, ...parts.slice(i, j).reverse());
        i = j;
      }
    }
    // The line's glyphs, placed along it; its width alone when `out` is null.
    // The line's glyphs, placed along it, written over `into`'s from its start (its objects
    // reused, more made as needed; `count` of them); the line's width alone when `into` is null.
    let count = 0;
    const walk = (into: LineGlyph[] | null): number => {
      let x = 0;
      let k = 0;
      for (const { s, from, to } of parts) {
        const scale = (m.size / s.run.font.upem) * s.fit;
        let baseX = x;
        for (let j = from; j < to; j++) {
          const cluster = s.cluster[j]!;
          // A composed letter's mark stands where its base does (its offsets are from there).
          const size = s.size === null ? Number.NaN : s.size[j]!;
          const mark = !Number.isNaN(size);
          if (!mark) baseX = x;
          if (into !== null) {
            let g = into[k];
            if (g === undefined) {
              g = { font: s.run.font, gid: 0, cp: 0, x: 0.5, dx: 0.5, dy: 0.5, word: 0, fit: 0.5 };
              into[k] = g;
            }
            g.font = s.run.font;
            g.gid = s.gid[j]!;
            g.cp = text.codePointAt(cluster)!;
            g.x = baseX;
            g.dx = s.dx[j]! * scale;
            g.dy = s.dy[j]! * scale;
            g.word = wordAt[cluster]!;
            g.fit = s.fit * (mark ? size : 1);
          }
          k++;
          if (mark) continue;
          x += isSpace(text.charCodeAt(cluster))
            ? advance[cluster]!
            : s.advance[j]! * scale + m.letterSpacing;
        }
      }
      count = k;
      return x;
    };
    const width = walk(null);
    const indent = li === 0 ? m.firstLineIndent : 0;
    const room = avail(a) - indent - width;
    const align =
      m.align === 'justify' ? (li === ranges.length - 1 ? (rtl ? 'right' : 'left') : 'justify') : m.align;
    let spaces = 0;
    for (let i = a; i < end; i++) if (isSpace(text.charCodeAt(i))) spaces++;
    const offset =
      align === 'right' || (rtl && align === 'left')
        ? room + (rtl ? 0 : indent)
        : align === 'center'
          ? indent + room / 2
          : rtl
            ? room
            : indent;
    const visual = hasRtl && end > a ? visualOrder(text, embedding, a, end - 1) : text.slice(a, end);
    return {
      // Made when the line is written, not kept: a document's lines are all laid out before the
      // first is written (its page count, its closing lines), and a glyph object a letter held
      // that long was copied by every young-generation collection on the way to the old one.
      // (A method, not a getter: V8 keeps an object literal with a getter as a dictionary.)
      glyphs() {
        const glyphs: LineGlyph[] = [];
        walk(glyphs);
        return glyphs;
      },
      glyphsInto(into: LineGlyph[]) {
        walk(into);
        return count;
      },
      width,
      text: text.slice(a, end),
      visual,
      offset,
      justify: align === 'justify' && spaces > 0 ? room / spaces : 0,
      slack: align === 'left' && !rtl ? Math.max(0, room) : 0,
      rtl,
    };
  });
  return { lines, words };
}
