// The render port: run one render specification to bytes, with a signal and a time limit. The
// piscina pool of worker threads is the service's adapter (workers/piscina-renderer.ts); an
// in-process adapter (workers/in-process-renderer.ts) serves fast tests.
import type { FontInfo, ImageResource, RenderErrorCode, RenderSpec } from '../../render/index.ts';
import type { HandCharacter, HandEdits, HandWarning, SheetCode } from '../../foundry/index.ts';

export type RenderOutput = 'pdf' | 'preview' | 'svg' | 'png' | 'strokes' | 'draft';

export interface RenderRequest {
  /**
   * `pdf`: the document. `preview`: the first pages as watermarked PNGs, in one JSON body.
   * `svg`, `png`, `strokes`: one page, synchronously (POST /renders), PNG at 144 DPI, strokes
   * as a pen plotter's SVG of centrelines. `draft`: the
   * dashboard builder's preview, the first page as a PNG at `previewDpi`, unwatermarked.
   */
  output: RenderOutput;
  spec: RenderSpec;
  /** Personal fonts' bytes by id; bundled fonts are read where the rendering happens. */
  fonts: Record<string, Uint8Array>;
  images: Record<string, ImageResource>;
  /** The document's creation date (PDF metadata). */
  createdAt: string;
  limits: {
    maxPages: number;
    maxBytes: number;
    /** Renders: the most lines after wrapping. */
    maxLines?: number;
    /** Preview: pages drawn, and their resolution (a draft's too). */
    previewPages?: number;
    previewDpi?: number;
  };
  /** Preview: the job id, written into the JSON body. */
  jobId?: string;
  /**
   * The personal fonts given are for this request alone (a new font's sample line): the thread
   * drops them from its font cache when it ends, so a check leaves no lasting memory.
   */
  once?: boolean;
}

/** What a render task answers: bytes, or a refusal of the input (not a crash). */
export type RenderResult =
  | { ok: true; pages: number; bytes: Uint8Array }
  | { ok: false; code: RenderErrorCode; message: string };

export type Rendered = Extract<RenderResult, { ok: true }>;

export class RenderTaskError extends Error {
  constructor(
    /** `damaged`: a stored font or image no longer matches the digest it was uploaded with. */
    readonly reason: 'timeout' | 'memory' | 'render' | 'crash' | 'cancelled' | 'damaged',
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'RenderTaskError';
  }
}

/** An uploaded image to decode once, off the event loop, before it is stored (the last gate). */
export interface ImageCheck {
  type: 'image/png' | 'image/jpeg';
  bytes: Uint8Array;
  /** What the header declared: the decoded image must be exactly this. */
  width: number;
  height: number;
}

/** What an image check answers: decodes to a well-defined image, or why not. */
export type ImageCheckResult = { ok: true } | { ok: false; message: string };

/**
 * An uploaded font to check on a render thread before it is stored: parsed, then a line of its
 * own letters written with it alone on `page` as a PNG. The thread keeps nothing of it.
 */
export interface FontCheck {
  /** The sample's page, written with the one font it names; the thread puts the line in. */
  page: RenderSpec;
  /** The file: moved to the thread and handed back in the result, so it may be empty after the call. */
  bytes: Uint8Array;
  /** Resolution and size limit of the sample's PNG. */
  dpi: number;
  maxBytes: number;
  createdAt: string;
}

/** What a font check answers: what the font is and its sample line drawn, or why it is refused. */
export type FontCheckResult =
  | { ok: true; info: FontInfo; line: string; sample: Uint8Array; bytes: Uint8Array }
  | { ok: false; message: string };

/** Filled sample-sheet pages to build a personal font from (docs/personal-hands.md): images checked by their headers already. */
export interface HandBuildTask {
  name: string;
  /** Pictures of pages; one with `redo` was written again for those drawings (`a/2`) only, and wins for them. */
  scans: (ImageCheck & { redo?: string[] })[];
  edits?: HandEdits;
  createdAt: string;
  /** Only to be looked at (a preview): the file need not keep the pen's strokes. */
  preview?: boolean;
}

/** What a font build answers: the font and what was made of each box, or why the pages make none. */
export type HandBuildResult =
  | {
      ok: true;
      bytes: Uint8Array;
      /** Each picture's page, in the order given. */
      pages: SheetCode[];
      characters: HandCharacter[];
      /** Each drawing's outline as SVG path data (font units, y up), by drawing (`a/2`). */
      paths: Record<string, string>;
      warnings: HandWarning[];
      measured: { xHeight: number; baselineOffset: number };
      /** A build (not a preview): the font as it is given to be used elsewhere, OpenType (CFF) and WOFF2. */
      exported?: { otf: Uint8Array; woff2: Uint8Array };
    }
  | {
      ok: false;
      reason: string;
      message: string;
      /** The picture that was refused (not a readable page). */
      scan?: number;
      /** The pages read, where every picture was read and the pages made no font. */
      pages?: SheetCode[];
    };

export interface Renderer {
  /**
   * Runs a request; `signal` stops it early (a cancelled job); `timeoutMs` replaces the default
   * time limit (a synchronous render has 15 s). A refusal of the input or a failure of the
   * renderer rejects with RenderTaskError.
   */
  run(request: RenderRequest, opts?: { signal?: AbortSignal; timeoutMs?: number }): Promise<Rendered>;
  /**
   * Decodes an uploaded image in full under the renderer's time and memory limits. Resolves
   * with why it does not decode to a well-defined image (ok: false), or ok; a decode that runs
   * out of time or memory rejects with RenderTaskError ('timeout', 'memory').
   */
  checkImage(image: ImageCheck, opts?: { timeoutMs?: number }): Promise<ImageCheckResult>;
  /**
   * Parses an uploaded font and writes its sample line, under the renderer's time and memory
   * limits, leaving nothing of the font behind; a check that runs out of time or memory rejects
   * with RenderTaskError.
   */
  checkFont(font: FontCheck, opts?: { timeoutMs?: number }): Promise<FontCheckResult>;
  /**
   * Reads filled sample-sheet pages and builds a font from them, under the renderer's time and
   * memory limits; pages that make no font resolve with why (ok: false).
   */
  buildHand(task: HandBuildTask, opts?: { timeoutMs?: number }): Promise<HandBuildResult>;
  /**
   * Drops a font from every render thread's font cache (a deleted personal font): a thread
   * drops it before its next task. Threads of other processes drop it as their caches fill.
   */
  forgetFont(id: string): void;
  /** Render threads alive, and requests running or waiting for one. */
  readonly threads: number;
  readonly busy: number;
  close(): Promise<void>;
}
