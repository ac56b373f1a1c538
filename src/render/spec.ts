// The engine's input: a render specification (what to write, in which style and hand, with
// which fonts) and the resources it names (font and image bytes). Plain data: it crosses a
// thread, is stored with a job as JSON, and is all the engine ever reads. Lengths are mm unless
// said, font sizes pt.

/** Sheets, and envelopes: DL, C5, C6 and US #10 (`US10`). */
export type StandardSize = 'A5' | 'A4' | 'A3' | 'Letter' | 'DL' | 'C5' | 'C6' | 'US10';
export type CustomSize = { name: string; width: number; height: number; unit: 'mm' | 'px' };
export type PageSize = StandardSize | CustomSize;
export type Align = 'left' | 'right' | 'center' | 'justify';

export interface Paper {
  type: 'blank' | 'lined' | 'grid' | 'dotted';
  spacing: number;
  color: string;
  background: string;
  marginRule: { enabled: boolean; color: string; position: number };
}

/** The sheet: its size, margins, ruling and background. */
export interface Page {
  pageSize: PageSize;
  orientation: 'portrait' | 'landscape';
  margins: { top: number; right: number; bottom: number; left: number };
  paper: Paper;
  background?: { color?: string; assetId?: string } | undefined;
}

/** The seeded variation of the hand (DESIGN §5): same seed and input, same bytes. */
export interface Modifiers {
  seed: number;
  letters: {
    enabled: boolean;
    rotation: number;
    scale: number;
    baseline: number;
    spacing: number;
    /** Shape variation before `shapes` was its own modifier (specifications stored before it). */
    warp?: number;
    alternates: boolean;
  };
  /**
   * Every letter drawn afresh: how far each drawing departs from the font's outline (0-1).
   * Absent in specifications stored before it existed; `letters.warp` stands in then.
   */
  shapes?: { enabled: boolean; amount: number };
  words: { enabled: boolean; spacing: number; size: number };
  lines: { enabled: boolean; slope: number; drift: number; wobble: number };
  /**
   * `pressure`: weight swelling and thinning within strokes and from letter to letter; `flow`: the
   * ink running low over words until the pen is dipped again; `blots`: ink pooled where a stroke
   * starts; `bleed`: ink edges soaking into the paper (images only). The last three are absent in
   * specifications stored before them (off).
   */
  ink: {
    enabled: boolean;
    colorVariation: number;
    pressure: number;
    flow?: number;
    blots?: number;
    bleed?: number;
  };
  fatigue: { enabled: boolean; amount: number };
  paper: { enabled: boolean; texture: number; shadow: number; tilt: number; scanner: boolean };
}

/**
 * The most of each modifier that still writes legibly, all of them at once (the OCR test in
 * test/e2e/legibility.test.ts holds it). Templates are refused past them; a specification stored
 * before they were set is written with them (Handwriting clamps).
 */
export const MODIFIER_LIMITS = {
  letters: { rotation: 6, scale: 0.12, baseline: 2, spacing: 1.5 },
  shapes: { amount: 0.75 },
  words: { spacing: 1, size: 0.15 },
  lines: { slope: 3, drift: 3, wobble: 6 },
} as const;

/** How the text is set: size, ink colour, spacing and alignment. */
export interface TextStyle {
  fontSize: number;
  color: string;
  lineHeight: number;
  letterSpacing: number;
  wordSpacing: number;
  firstLineIndent: number;
  align: Align;
}

/** Everything a document is written in. */
export type Style = Page & TextStyle & { modifiers: Modifiers };

/** What the engine lays out: every value resolved, lengths in pt, widths as fractions. */
export type Block =
  | {
      type: 'paragraph';
      text: string;
      size?: number | undefined;
      color?: string | undefined;
      align?: Align | undefined;
    }
  | {
      type: 'heading';
      level: 1 | 2 | 3;
      text: string;
      size?: number | undefined;
      color?: string | undefined;
      align?: Align | undefined;
    }
  | {
      type: 'list';
      ordered: boolean;
      start: number;
      items: string[];
      size?: number | undefined;
      color?: string | undefined;
    }
  | { type: 'image'; assetId: string; width: number; align: 'left' | 'center' | 'right' }
  | { type: 'table'; header: string[] | null; widths: number[]; rows: string[][] }
  | { type: 'columns'; gap: number; widths: number[]; columns: Block[][] }
  | { type: 'divider' }
  | { type: 'spacer'; height: number }
  | { type: 'pageBreak' };

/** Fonts by id, each list tried in order for a character (the template's font, then fallbacks). */
export interface FontPlan {
  body: string[];
  /** Headings of a structured document; `overstrike` writes them twice where no bold cut exists. */
  headings?: { fonts: string[]; overstrike: boolean };
  /**
   * Scripts a font has only in type, not in a hand, by font id ('Latin', 'Latin Extended'): their
   * letters go to the next font that has them (to this one only when none does).
   */
  typeset?: Record<string, string[]>;
}

export interface RenderSpec {
  style: Style;
  fonts: FontPlan;
  /** Simple text, or the blocks of a structured document. */
  content: { text: string } | { blocks: Block[] };
}

export interface ImageResource {
  type: 'image/png' | 'image/jpeg';
  bytes: Uint8Array;
  /** Pixel size, from the image's header. */
  width: number;
  height: number;
}

/** The bytes a specification names, by id. */
export interface Resources {
  fonts: Record<string, Uint8Array>;
  images: Record<string, ImageResource>;
}

/**
 * `maxPages`: more is an error (TOO_MANY_PAGES); `maxLines` likewise, lines after wrapping, empty
 * ones included (TOO_MANY_LINES, simple text only). `firstPages`: only that many pages are drawn,
 * laid out as in the whole document (a preview).
 */
export interface LayoutLimits {
  maxPages?: number;
  maxLines?: number;
  firstPages?: number;
  /** Keep every letter's centrelines as well as its outline (for the pen-plotter writer). */
  centrelines?: boolean;
}

/** Every font and image a specification names: what the caller must hand to layout(). */
export function resourcesOf(spec: RenderSpec): { fonts: string[]; images: string[] } {
  const fonts = new Set([
    ...spec.fonts.body,
    ...('blocks' in spec.content ? (spec.fonts.headings?.fonts ?? []) : []),
  ]);
  const images = new Set<string>();
  if (spec.style.background?.assetId) images.add(spec.style.background.assetId);
  const walk = (blocks: Block[]) => {
    for (const b of blocks) {
      if (b.type === 'image') images.add(b.assetId);
      else if (b.type === 'columns') for (const c of b.columns) walk(c);
    }
  };
  if ('blocks' in spec.content) walk(spec.content.blocks);
  return { fonts: [...fonts], images: [...images] };
}
