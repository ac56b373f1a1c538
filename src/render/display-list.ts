// The one intermediate form every writer consumes: per page, positioned glyph instances (each a
// reference to a glyph outline defined once per document), rules and dots of the paper, images,
// and the text of each line for the searchable layer. Units: PDF points, origin top left, y down.
import type { PenStroke } from './geometry.ts';

/**
 * How many drawings (a glyph's path, and what a writer makes of it) each cache of a render
 * thread keeps before it starts afresh: a document in one hand and seed draws about a thousand,
 * and the same seed draws the same ones again; documents in other seeds (a batch's rows) draw
 * new ones, which would otherwise pile up to hundreds of MiB in a thread that lives for days.
 */
export const KEPT_DRAWINGS = 6_000;

/** The thread's caches of drawings keyed by font id (and glyph): all emptied when an id's file changes. */
const byFontId: Map<string, unknown>[] = [];

/** A cache of drawings keyed by font id, emptied by forgetDrawings(). */
export function drawingCache<V>(): Map<string, V> {
  const cache = new Map<string, V>();
  byFontId.push(cache);
  return cache;
}

/** Empties every drawing cache keyed by font id: a font id now names another file (a rebuilt personal font). */
export function forgetDrawings(): void {
  for (const cache of byFontId) cache.clear();
}

/** [a, b, c, d, e, f]: x' = a·x + c·y + e, y' = b·x + d·y + f. */
export type Matrix = [number, number, number, number, number, number];

export interface GlyphDef {
  font: string;
  gid: number;
  variant: number;
  /** SVG path data in font units, y up (the instance matrix flips and scales it). */
  path: string;
  /** pt per font unit at the document's font size: instance matrices are this scale times a near-identity. */
  scale: number;
  /** The drawing's centrelines in writing order (font units, y up), when the layout was asked to keep them. */
  strokes?: readonly PenStroke[];
}

export type Item =
  | {
      kind: 'glyph';
      ref: string;
      m: Matrix;
      color: string;
      opacity: number;
      /** The word of the document the letter belongs to (its index; measuring the space between words reads it). */
      word?: number;
      /** A connected hand's letter whose stroke in runs on from the letter before: one pen movement. */
      joins?: boolean;
    }
  | { kind: 'rule'; x1: number; y1: number; x2: number; y2: number; width: number; color: string }
  | { kind: 'dot'; x: number; y: number; r: number; color: string }
  /** A line drawn by hand (dividers, table rules): a polyline x0 y0 x1 y1 …, round caps and joins. */
  | { kind: 'stroke'; points: number[]; width: number; color: string; opacity: number }
  | { kind: 'image'; assetId: string; x: number; y: number; width: number; height: number };

export interface TextLine {
  /** Baseline start and size, for an invisible, selectable text layer. */
  x: number;
  y: number;
  width: number;
  size: number;
  /** Logical order, and visual (display) order for layers that expect it. */
  text: string;
  visual: string;
}

export interface Sheet {
  tilt: number;
  shadow: number;
  texture: number;
  bleed: number;
  /** Ink gathered where the pen slows and thin where it hurries, as tone (images only), 0-1. */
  pool: number;
  /** How a pen running dry shows (images only): paler ink leaves the paper's tooth bare, 0-1. */
  dry: number;
  scanner: boolean;
  seed: number;
}

export interface DisplayPage {
  width: number;
  height: number;
  background: string;
  /**
   * Whole-sheet effects: tilt in degrees (every writer), and for images only (a PDF is printed on
   * real paper) shadow, texture 0-1, ink bleeding into the paper 0-1 and the scanner look; `seed`
   * makes the texture and the scanner's noise repeatable.
   */
  sheet: Sheet;
  items: Item[];
  lines: TextLine[];
}

export interface DisplayList {
  pages: DisplayPage[];
  /** Every distinct glyph outline (or variant), by reference key. */
  glyphs: Record<string, GlyphDef>;
}

/**
 * Where a layout may hand each page as soon as it is written (a PDF written a page at a time):
 * a page handed over is not kept in the list the layout returns. `glyphs` is the list's own
 * record of drawings, which grows as later pages are written.
 */
export type PageSink = (page: DisplayPage, glyphs: Record<string, GlyphDef>) => void;

export const MM = 72 / 25.4;

export function multiply(p: Matrix, q: Matrix): Matrix {
  // p ∘ q: apply q first, then p.
  return [
    p[0] * q[0] + p[2] * q[1],
    p[1] * q[0] + p[3] * q[1],
    p[0] * q[2] + p[2] * q[3],
    p[1] * q[2] + p[3] * q[3],
    p[0] * q[4] + p[2] * q[5] + p[4],
    p[1] * q[4] + p[3] * q[5] + p[5],
  ];
}
