// POST /renders (spec §4 Render, §8 Render text and image): the request body and the size of the
// image it would make, checked before any work.
import { apiRefusal, grouped, invalid } from './errors.ts';
import { checkTextCharacters } from './generation.ts';
import { namesA } from './ids.ts';

/** `strokes` (an extension): the centrelines as stroked paths in writing order, for pen plotters. */
export type RenderFormat = 'svg' | 'png' | 'strokes';

export interface RenderRequest {
  templateId: string;
  text: string;
  format: RenderFormat;
  /** The one override (pt), top level (DESIGN §4). */
  fontSize?: number;
}

const FIELDS = ['templateId', 'text', 'format', 'fontSize'];

export function parseRenderBody(body: unknown, limits: { textMax: number }): RenderRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw apiRefusal('INVALID_REQUEST', 'the body must be a JSON object with templateId, text and format');
  }
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).find((k) => !FIELDS.includes(k));
  if (unknown) {
    const hint = unknown === 'overrides' || unknown === 'style' ? '; fontSize is the only override' : '';
    throw apiRefusal(
      'INVALID_REQUEST',
      `unknown field ${unknown}; a render takes ${FIELDS.join(', ')}${hint}`,
      { field: unknown },
    );
  }
  if (!namesA('tpl', b.templateId)) throw invalid('templateId', 'a template id (tpl_…)', b.templateId);
  if (typeof b.text !== 'string') throw invalid('text', 'a string', b.text);
  // UTF-16 code units, as the spec counts them: an emoji is 2.
  if (b.text.length < 1 || b.text.length > limits.textMax) {
    throw apiRefusal(
      'INVALID_REQUEST',
      `text must be 1-${grouped(limits.textMax)} UTF-16 characters, got ${grouped(b.text.length)}`,
      {
        field: 'text',
      },
    );
  }
  checkTextCharacters(b.text);
  if (b.format !== 'svg' && b.format !== 'png' && b.format !== 'strokes')
    throw invalid('format', 'svg, png or strokes', b.format);
  if (
    b.fontSize !== undefined &&
    (typeof b.fontSize !== 'number' || !(b.fontSize >= 6 && b.fontSize <= 96))
  ) {
    throw invalid('fontSize', '6-96 pt', b.fontSize);
  }
  return {
    templateId: b.templateId,
    text: b.text,
    format: b.format,
    ...(b.fontSize !== undefined ? { fontSize: b.fontSize as number } : {}),
  };
}

/** Pixel size of a page of `widthPt` x `heightPt` at 144 DPI, against the image limits. */
export function checkImageSize(
  widthPt: number,
  heightPt: number,
  limits: { maxSide: number; maxPixels: number },
): { width: number; height: number } {
  const width = Math.round((widthPt / 72) * 144);
  const height = Math.round((heightPt / 72) * 144);
  if (width > limits.maxSide || height > limits.maxSide) {
    throw apiRefusal(
      'INVALID_REQUEST',
      `the template's page would be ${width} x ${height} px at 144 DPI; a rendered image may be at most ${limits.maxSide} px on a side`,
      {
        field: 'templateId',
      },
    );
  }
  if (width * height > limits.maxPixels) {
    throw apiRefusal(
      'INVALID_REQUEST',
      `the template's page would be ${width} x ${height} px (${((width * height) / 1e6).toFixed(2)} MP) at 144 DPI; a rendered image may be at most ${(limits.maxPixels / 1e6).toFixed(0)} MP`,
      { field: 'templateId' },
    );
  }
  return { width, height };
}
