// The render port: run one render specification to bytes, with a signal and a time limit. The
// piscina pool of worker threads is the service's adapter (workers/piscina-renderer.ts); an
// in-process adapter (workers/in-process-renderer.ts) serves fast tests.
import type { ImageResource, RenderErrorCode, RenderSpec } from '../../render/index.ts';

export type RenderOutput = 'pdf' | 'preview' | 'svg' | 'png' | 'draft';

export interface RenderRequest {
  /**
   * `pdf`: the document. `preview`: the first pages as watermarked PNGs, in one JSON body.
   * `svg`, `png`: one page, synchronously (POST /renders), PNG at 144 DPI. `draft`: the
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
  /** Render threads alive, and requests running or waiting for one. */
  readonly threads: number;
  readonly busy: number;
  close(): Promise<void>;
}
