// A personal font built from filled sample sheets (docs/personal-hands.md): every box's ink, as the
// sheet reader cut it out, is judged (empty, smudged), traced to curves, set on the baseline the
// person wrote to and scaled so that their x-height is the font's, then spaced; the drawings of
// one character become its glyph and its stylistic alternates (ss01, ss02 and salt), which the
// engine deals out like any hand's drawings. The pen model reads its strokes from these outlines,
// so they are the strokes of the scanned ink. The file is written with opentype.js (CFF outlines)
// and is the same bytes for the same sheets, edits and date. The tracer (Potrace) comes in as an
// argument, like the PNG writer's rasteriser.
import {
  centrelines,
  PEN_TABLE,
  type PathCommand,
  STROKES_CARRY,
  type StoredStrokes,
  toStored,
  strokeFit,
} from '../render/index.ts';
import type { GrayImage, ScannedBox, SheetScan } from './sheet-scan.ts';
import { SCAN_PX_PER_MM } from './sheet-scan.ts';
import { SHEET_GEOMETRY, SHEET_SETS, type SheetSet } from './sheet.ts';

/** Outlines of a bitmap's ink (0) as closed paths, in its pixels, y down. */
export type Tracer = (ink: GrayImage) => Promise<PathCommand[]>;

export const HAND_UNITS_PER_EM = 1000;
/** The person's x-height becomes this many font units. */
export const HAND_X_HEIGHT = 450;
/** Room on each side of a letter's ink, in font units (a tenth of the x-height, as hands are spaced). */
export const HAND_SIDE = 30;
/** The space's advance: 0.6 x-height. */
const SPACE = 270;
/** A box with less ink than this (mm²) is empty: a fine pen's full stop is about 0.25 mm². */
const EMPTY_MM2 = 0.15;
/** A box more than this share ink is smudged (a letter written in a box covers a tenth at most). */
const SMUDGED_SHARE = 0.3;
/** A sitting letter whose bottom is farther than this (mm) from the baseline written to is set on that baseline. */
const SIT_TOLERANCE = 1.2;
/** Letters set on their own bottom: those that sit on the baseline (no descender). */
const DESCENDERS = new Set([...'gjpqyçþÿQ']);
/** Letters whose top is the x-height. */
const X_LETTERS = [...'acemnorsuvwxz'];

/** One drawing's edit: moved (up, and right; negative the other way), scaled, or left out. */
export interface DrawingEdit {
  /** Font units to raise it (negative lowers). */
  raise?: number;
  /** Font units to move it right (negative moves it left) in its place. */
  shift?: number;
  /** Its size in per cent of the size written (100), about the middle of its foot on the baseline. */
  scale?: number;
  removed?: boolean;
}

/** What a person may change before building: a drawing moved, scaled or left out; a character spaced. */
export interface HandEdits {
  /** By drawing (`a/2`: the second box of a). */
  drawings?: Record<string, DrawingEdit>;
  /** By character: font units added on each side of its drawings (negative tightens). */
  spacing?: Record<string, number>;
}

/** Why some characters are not in the font as written, or not at all. */
export interface HandWarning {
  reason: 'empty' | 'smudged' | 'missing-page' | 'duplicate-page';
  /** The drawings affected, as `a/2`. */
  drawings: string[];
  message: string;
}

/** A character of the font: which of its boxes became drawings, in order (the first is the glyph, the rest alternates). */
export interface HandCharacter {
  char: string;
  drawings: number[];
  advance: number;
}

export interface HandBuild {
  /** The OpenType file (CFF outlines). */
  bytes: Uint8Array;
  set: SheetSet;
  characters: HandCharacter[];
  /** Each drawing's outline as SVG path data, by drawing (`a/2`): font units, y up, on the baseline, in its advance. */
  paths: Record<string, string>;
  warnings: HandWarning[];
  /** What was measured of the writing: x-height in mm, and how far the person wrote above (+) or below the printed baseline, in mm. */
  measured: { xHeight: number; baselineOffset: number };
}

/** Why sheets do not make a font: nothing half-built is written. */
export class HandBuildError extends Error {
  override name = 'HandBuildError';
  constructor(
    readonly reason: 'no-pages' | 'mixed-sheets' | 'missing-letters',
    message: string,
  ) {
    super(message);
  }
}

interface Judged {
  box: ScannedBox;
  key: string;
  /** Ink bounds in the box's pixels: left, top, right, bottom (exclusive). */
  ink: [number, number, number, number];
  state: 'ink' | 'empty' | 'smudged';
}

const keyOf = (char: string, variant: number) => `${char}/${variant}`;
const median = (values: number[]): number | null => {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function judge(box: ScannedBox): Judged {
  const { width, height, data } = box.ink;
  let [x0, y0, x1, y1] = [width, height, 0, 0];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (data[y * width + x] === 0) {
        if (x < x0) x0 = x;
        if (x >= x1) x1 = x + 1;
        if (y < y0) y0 = y;
        if (y >= y1) y1 = y + 1;
      }
  const px2 = SCAN_PX_PER_MM * SCAN_PX_PER_MM;
  const state =
    box.inkPixels < EMPTY_MM2 * px2
      ? 'empty'
      : box.inkPixels > SMUDGED_SHARE * width * height
        ? 'smudged'
        : 'ink';
  return { box, key: keyOf(box.char, box.variant), ink: [x0, y0, x1, y1], state };
}

/** A page written again for some of its drawings (`a/2`): those boxes are taken from it. */
export interface RedonePage {
  page: SheetScan;
  drawings: string[];
}

/** The pages given, one per page of one sheet: the boxes to build from, and what is missing. */
function gather(
  pages: SheetScan[],
  redone: RedonePage[],
): { set: SheetSet; boxes: ScannedBox[]; warnings: HandWarning[] } {
  const first = pages[0];
  if (!first) throw new HandBuildError('no-pages', 'no page of a sample sheet was given');
  const other = [...pages, ...redone.map((r) => r.page)].find((p) => p.layout.code !== first.layout.code);
  if (other)
    throw new HandBuildError(
      'mixed-sheets',
      `the pages are of different sheets (${first.layout.code} and ${other.layout.code}): build from the pages of one sheet`,
    );
  const warnings: HandWarning[] = [];
  const byPage = new Map<number, SheetScan>();
  for (const p of pages) {
    if (byPage.has(p.code.page))
      warnings.push({
        reason: 'duplicate-page',
        drawings: [],
        message: `page ${p.code.page} was given more than once: the last one given is used`,
      });
    byPage.set(p.code.page, p);
  }
  for (let page = 1; page <= first.layout.pages; page++)
    if (!byPage.has(page)) {
      const missing = first.layout.boxes.filter((b) => b.page === page).map((b) => keyOf(b.char, b.variant));
      warnings.push({
        reason: 'missing-page',
        drawings: missing,
        message: `page ${page} of ${first.layout.pages} was not given: its ${missing.length} boxes are not in the font`,
      });
    }
  const boxes = new Map(
    [...byPage.values()].flatMap((p) => p.boxes).map((b) => [keyOf(b.char, b.variant), b] as const),
  );
  for (const r of redone) {
    const on = new Map(r.page.boxes.map((b) => [keyOf(b.char, b.variant), b] as const));
    const absent = r.drawings.filter((key) => !on.has(key));
    if (absent.length)
      throw new HandBuildError(
        'mixed-sheets',
        `page ${r.page.code.page} has no box ${absent.join(' ')}: a drawing is redone on the page that has its box`,
      );
    for (const key of r.drawings) boxes.set(key, on.get(key)!);
  }
  return { set: first.layout.set, boxes: [...boxes.values()], warnings };
}

/** The box's printed baseline and x-height guide, in its pixels (from the top of its writing room). */
function guides(): { baseline: number; xHeight: number } {
  const g = SHEET_GEOMETRY.box;
  return {
    baseline: (g.baseline - g.label) * SCAN_PX_PER_MM,
    xHeight: (g.xHeight - g.label) * SCAN_PX_PER_MM,
  };
}

/** Letters and digits without a descender: they sit on the baseline. */
const sits = (char: string) =>
  (char.toLowerCase() !== char.toUpperCase() || /\d/.test(char)) && !DESCENDERS.has(char);

/**
 * Builds a font from the pages of one filled sheet. Throws a HandBuildError when they do not
 * make one (pages of different sheets, a lowercase letter with no drawing); what is only missing
 * or left out comes back as warnings.
 */
export async function buildHand(input: {
  name: string;
  pages: SheetScan[];
  /** Pages written again for some drawings, applied in order (a later one wins). */
  redone?: RedonePage[];
  edits?: HandEdits;
  createdAt: Date;
  trace: Tracer;
  /** Read and keep the pen's strokes in the file (PEN_TABLE); a preview that is only looked at needs none. */
  strokes?: boolean;
}): Promise<HandBuild> {
  const { set, boxes, warnings } = gather(input.pages, input.redone ?? []);
  const edits = input.edits ?? {};
  const judged = boxes.map(judge);
  for (const state of ['empty', 'smudged'] as const) {
    const drawings = judged.filter((j) => j.state === state).map((j) => j.key);
    if (drawings.length)
      warnings.push({
        reason: state,
        drawings,
        message: `${drawings.length} ${drawings.length === 1 ? 'box is' : 'boxes are'} ${state === 'empty' ? 'empty' : 'smudged (more ink than a letter)'} and left out: ${drawings.join(' ')}`,
      });
  }
  const used = judged.filter((j) => j.state === 'ink' && !edits.drawings?.[j.key]?.removed);
  const missing = [...'abcdefghijklmnopqrstuvwxyz'].filter((c) => !used.some((j) => j.box.char === c));
  if (missing.length)
    throw new HandBuildError(
      'missing-letters',
      `a font needs a drawing of every lowercase letter; none of ${missing.join(' ')}`,
    );

  // Where the person wrote: their baseline against the printed one, and their x-height.
  const guide = guides();
  const sitting = used.filter((j) => sits(j.box.char));
  const offset = median(sitting.map((j) => j.ink[3] - guide.baseline)) ?? 0;
  const written = guide.baseline + offset;
  const baselineOf = (j: Judged) =>
    sits(j.box.char) && Math.abs(j.ink[3] - written) <= SIT_TOLERANCE * SCAN_PX_PER_MM ? j.ink[3] : written;
  const xHeightPx =
    median(used.filter((j) => X_LETTERS.includes(j.box.char)).map((j) => baselineOf(j) - j.ink[1])) ??
    guide.baseline - guide.xHeight;
  const k = HAND_X_HEIGHT / xHeightPx;

  // Loaded when a font is built, not with the engine. Node.js loads its CommonJS build: the
  // module's default export.
  const mod = (await import('opentype.js')) as typeof import('opentype.js') & {
    default?: typeof import('opentype.js');
  };
  const { Font, Glyph, Path } = mod.default ?? mod;
  const glyphs = [
    new Glyph({ name: '.notdef', advanceWidth: SPACE, path: new Path() }),
    new Glyph({ name: 'space', unicode: 0x20, advanceWidth: SPACE, path: new Path() }),
    new Glyph({ name: 'uni00A0', unicode: 0xa0, advanceWidth: SPACE, path: new Path() }),
  ];
  const characters: HandCharacter[] = [];
  const paths: Record<string, string> = {};
  const pens: Record<number, StoredStrokes> = {};
  const alternates: { first: number; others: number[] }[] = [];
  /** Each character's first drawing, and the ligatures made of them. */
  const firstDrawing = new Map<string, number>();
  const ligatures: { sub: number[]; by: number }[] = [];
  for (const char of SHEET_SETS[set].chars) {
    const drawings = used.filter((j) => j.box.char === char).sort((a, b) => a.box.variant - b.box.variant);
    if (!drawings.length) continue;
    const side = HAND_SIDE + (edits.spacing?.[char] ?? 0);
    const advance = Math.max(
      1,
      Math.round(drawings.reduce((s, j) => s + (j.ink[2] - j.ink[0]) * k, 0) / drawings.length + 2 * side),
    );
    // A ligature's drawing (`th`) has no code point of its own: `liga` makes it from its letters.
    const letters = [...char];
    const cp = letters.length === 1 ? char.codePointAt(0)! : null;
    // Named as the glyph list names them: uni0066, and a ligature's letters in a row (uni00660069).
    const hex = letters.map((l) => l.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')).join('');
    const gids: number[] = [];
    for (const [i, j] of drawings.entries()) {
      const outline = await input.trace(j.box.ink);
      const edit = edits.drawings?.[j.key] ?? {};
      // Scaled about the middle of its place, its foot staying on the baseline.
      const size = k * ((edit.scale ?? 100) / 100);
      const left = (advance - (j.ink[2] - j.ink[0]) * size) / 2 + (edit.shift ?? 0);
      const base = baselineOf(j);
      const raise = edit.raise ?? 0;
      const path = new Path();
      const X = (x: number) => Math.round((x - j.ink[0]) * size + left);
      const Y = (y: number) => Math.round((base - y) * size + raise);
      const data: string[] = [];
      const cmds: PathCommand[] = [];
      for (const c of outline) {
        const v = c.values;
        const at: number[] = [];
        for (let p = 0; p + 1 < v.length; p += 2) at.push(X(v[p]!), Y(v[p + 1]!));
        const [a, b, c2, d, e, f] = at as [number, number, number, number, number, number];
        if (c.type === 'M') path.moveTo(a, b);
        else if (c.type === 'L') path.lineTo(a, b);
        else if (c.type === 'Q') path.quadraticCurveTo(a, b, c2, d);
        else if (c.type === 'C') path.curveTo(a, b, c2, d, e, f);
        else if (c.type === 'Z') path.close();
        else continue;
        data.push(`${c.type}${at.join(' ')}`);
        cmds.push({ type: c.type, values: at });
      }
      paths[j.key] = data.join('');
      if (input.strokes !== false) pens[glyphs.length] = penStrokes(cmds);
      gids.push(glyphs.length);
      glyphs.push(
        new Glyph({
          name: i === 0 ? `uni${hex}` : `uni${hex}.ss${String(i).padStart(2, '0')}`,
          ...(i === 0 && cp !== null ? { unicode: cp } : {}),
          advanceWidth: advance,
          path,
        }),
      );
    }
    characters.push({ char, drawings: drawings.map((j) => j.box.variant), advance });
    if (gids.length > 1) alternates.push({ first: gids[0]!, others: gids.slice(1) });
    firstDrawing.set(char, gids[0]!);
    const components = letters.map((l) => firstDrawing.get(l));
    if (cp === null && components.every((g) => g !== undefined))
      ligatures.push({ sub: components as number[], by: gids[0]! });
  }
  let [ascender, descender] = [HAND_X_HEIGHT * 1.6, -HAND_X_HEIGHT * 0.6];
  for (const g of glyphs.slice(3)) {
    const b = g.getBoundingBox();
    ascender = Math.max(ascender, Math.ceil(b.y2));
    descender = Math.min(descender, Math.floor(b.y1));
  }
  const seconds = Math.floor(input.createdAt.getTime() / 1000);
  const font = new Font({
    familyName: input.name,
    styleName: 'Regular',
    unitsPerEm: HAND_UNITS_PER_EM,
    ascender: Math.round(ascender),
    descender: Math.round(descender),
    glyphs,
    createdTimestamp: seconds,
  });
  addAlternates(font, alternates, ligatures, glyphs.length);
  const otf = new Uint8Array(font.toArrayBuffer());
  const file =
    input.strokes === false ? otf : withTable(otf, PEN_TABLE, new TextEncoder().encode(JSON.stringify(pens)));
  const bytes = datedHead(file, seconds);
  return {
    bytes,
    set,
    characters,
    paths,
    warnings,
    measured: {
      xHeight: Math.round((xHeightPx / SCAN_PX_PER_MM) * 100) / 100,
      baselineOffset: Math.round((-offset / SCAN_PX_PER_MM) * 100) / 100,
    },
  };
}

/** The parts of opentype.js's GSUB writer this file uses. */
interface GsubWriter {
  substitution: {
    add(feature: string, sub: { sub: number | number[]; by: number | number[] }): void;
    getFeatureTable(
      script: string,
      language: string,
      feature: string,
      create: boolean,
    ): { lookupListIndexes: number[] };
  };
  tables: { gsub: { lookups: unknown[] } };
}

/**
 * The drawings of each character in the font's GSUB, so that any application reaches them:
 * `salt` (all of them), `ss01` and `ss02` (the second and third drawing of every character), and
 * a rotation under `calt` and `ss03`: in a run of letters, a letter after one in its first
 * drawing takes its second, after one in its second drawing its third, else its first, so that
 * repeated letters change as a pen's do (applications turn `calt` on by default; `ss03` is the
 * same for those that leave it off). opentype.js takes features in alphabetical order.
 */
function addAlternates(
  font: unknown,
  alternates: { first: number; others: number[] }[],
  ligatures: { sub: number[]; by: number }[],
  glyphCount: number,
): void {
  const f = font as GsubWriter;
  const sub = f.substitution;
  // Lookups run in the order they are listed: the letters a pen joins first (`liga`), then the
  // rotation, which then deals the ligatures' drawings too. Features are listed alphabetically.
  const calt = alternates.length ? sub.getFeatureTable('DFLT', 'dflt', 'calt', true) : null;
  for (const l of ligatures) sub.add('liga', l);
  const rotation = calt ? { lookupType: 6, lookupFlag: 0, subtables: [] as unknown[] } : null;
  if (calt && rotation) calt.lookupListIndexes.push(f.tables.gsub.lookups.push(rotation) - 1);
  for (const { first, others } of alternates) sub.add('salt', { sub: first, by: others });
  for (let i = 0; i < 2; i++)
    for (const { first, others } of alternates)
      if (others[i] !== undefined)
        sub.add(`ss${String(i + 1).padStart(2, '0')}`, { sub: first, by: others[i]! });
  if (!rotation) return;
  const lookupOf = (feature: string) =>
    sub.getFeatureTable('DFLT', 'dflt', feature, false).lookupListIndexes[0]!;
  const coverage = (glyphs: number[]) => ({ format: 1, glyphs: [...new Set(glyphs)].sort((a, b) => a - b) });
  // Glyphs 0-2 are .notdef and the spaces: a word's first letter keeps its first drawing.
  const alternateGids = new Set(alternates.flatMap((a) => a.others));
  const firsts = Array.from({ length: glyphCount }, (_, g) => g).filter(
    (g) => g > 2 && !alternateGids.has(g),
  );
  const rule = (after: number[], input: number[], feature: string) => ({
    substFormat: 3,
    backtrackCoverage: [coverage(after)],
    inputCoverage: [coverage(input)],
    lookaheadCoverage: [],
    lookupRecords: [{ sequenceIndex: 0, lookupListIndex: lookupOf(feature) }],
  });
  rotation.subtables.push(
    rule(
      firsts,
      alternates.map((a) => a.first),
      'ss01',
    ),
  );
  const third = alternates.filter((a) => a.others.length > 1);
  if (third.length)
    rotation.subtables.push(
      rule(
        alternates.map((a) => a.others[0]!),
        third.map((a) => a.first),
        'ss02',
      ),
    );
  sub
    .getFeatureTable('DFLT', 'dflt', 'ss03', true)
    .lookupListIndexes.push(f.tables.gsub.lookups.indexOf(rotation));
}

/** A drawing's pen strokes as the font keeps them (PEN_TABLE), and whether they carry its shape. */
function penStrokes(outline: PathCommand[]): StoredStrokes {
  const read = centrelines(outline, HAND_UNITS_PER_EM);
  const carries = read.length > 0 && strokeFit(outline, HAND_UNITS_PER_EM, read).iou >= STROKES_CARRY;
  // Whole font units and tenths of a width: the file stays small.
  const rounded = read.map((k) => ({
    ...k,
    points: k.points.map(Math.round),
    widths: k.widths.map((w) => Math.round(w * 10) / 10),
  }));
  return toStored(rounded, carries);
}

/** The font with a table added (the directory rebuilt, sorted by tag; checksums but the whole file's made good). */
function withTable(font: Uint8Array, tag: string, data: Uint8Array): Uint8Array {
  return rebuilt(font, (tables) => [...tables, { tag, checksum: checksumOf(data), data }]);
}

/**
 * A built hand's font as it is given to be used elsewhere (GET /fonts/{id}/file): the engine's
 * own table of pen strokes left out, every other table as built, the head's checksum made good.
 */
export function exportedFont(font: Uint8Array): Uint8Array {
  const out = rebuilt(font, (tables) => tables.filter((t) => t.tag !== PEN_TABLE));
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (let t = 0; t < view.getUint16(4); t++) {
    const record = 12 + 16 * t;
    if (String.fromCharCode(...out.subarray(record, record + 4)) !== 'head') continue;
    const offset = view.getUint32(record + 8);
    view.setUint32(offset + 8, 0);
    view.setUint32(offset + 8, (0xb1b0afba - checksumOf(out)) >>> 0);
  }
  return out;
}

type Table = { tag: string; checksum: number; data: Uint8Array };

/** The font's tables changed by `edit`, in a file written again (the directory sorted by tag). */
function rebuilt(font: Uint8Array, edit: (tables: Table[]) => Table[]): Uint8Array {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const count = view.getUint16(4);
  const tables = Array.from({ length: count }, (_, t) => {
    const at = 12 + 16 * t;
    const offset = view.getUint32(at + 8);
    const length = view.getUint32(at + 12);
    return {
      tag: String.fromCharCode(...font.subarray(at, at + 4)),
      checksum: view.getUint32(at + 4),
      data: font.subarray(offset, offset + length),
    };
  });
  const kept = edit(tables).sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  const pad = (n: number) => (n + 3) & ~3;
  const head = 12 + 16 * kept.length;
  const out = new Uint8Array(head + kept.reduce((n, t) => n + pad(t.data.byteLength), 0));
  const o = new DataView(out.buffer);
  out.set(font.subarray(0, 4));
  const n = kept.length;
  const power = 2 ** Math.floor(Math.log2(n));
  o.setUint16(4, n);
  o.setUint16(6, power * 16);
  o.setUint16(8, Math.log2(power));
  o.setUint16(10, n * 16 - power * 16);
  let offset = head;
  for (const [i, t] of kept.entries()) {
    const at = 12 + 16 * i;
    for (let c = 0; c < 4; c++) out[at + c] = t.tag.charCodeAt(c);
    o.setUint32(at + 4, t.checksum);
    o.setUint32(at + 8, offset);
    o.setUint32(at + 12, t.data.byteLength);
    out.set(t.data, offset);
    offset += pad(t.data.byteLength);
  }
  return out;
}

/** The sum of a table's 32-bit words (its last padded with zeros). */
function checksumOf(bytes: Uint8Array, from = 0, length = bytes.byteLength): number {
  let s = 0;
  for (let i = 0; i < length; i += 4) {
    let word = 0;
    for (let b = 0; b < 4; b++) word = (word << 8) | (i + b < length ? bytes[from + i + b]! : 0);
    s = (s + (word >>> 0)) >>> 0;
  }
  return s;
}

/**
 * The font with its `head` table's modified date set to `seconds` (opentype.js writes the clock's
 * time there) and its checksums made good again: the same input, the same bytes.
 */
function datedHead(bytes: Uint8Array, seconds: number): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tables = view.getUint16(4);
  const sum = (from: number, length: number) => checksumOf(bytes, from, length);
  for (let t = 0; t < tables; t++) {
    const record = 12 + 16 * t;
    if (String.fromCharCode(...bytes.subarray(record, record + 4)) !== 'head') continue;
    const offset = view.getUint32(record + 8);
    const length = view.getUint32(record + 12);
    // LONGDATETIME: seconds since 1904.
    const since1904 = BigInt(seconds) + 2082844800n;
    view.setBigUint64(offset + 20, since1904);
    view.setBigUint64(offset + 28, since1904);
    view.setUint32(offset + 8, 0);
    view.setUint32(record + 4, sum(offset, length));
    view.setUint32(offset + 8, (0xb1b0afba - sum(0, bytes.byteLength)) >>> 0);
  }
  return bytes;
}
