// The document's pages: a render specification and the bytes it names become a display list,
// through the simple-text layout (document.ts) or the structured blocks' (flow.ts).
import type { DisplayList, PageSink } from '../display-list.ts';
import type { LayoutLimits, RenderSpec, Resources } from '../spec.ts';
import type { FontSource } from '../text/fonts.ts';
import { renderText } from './document.ts';
import { renderBlocks } from './flow.ts';

/**
 * The document's pages: simple text, or the blocks of a structured one. With a `sink`, simple
 * text hands each page to it as soon as it is written, and the list returned holds no pages; a
 * structured document's pages are all laid out before any is final (its columns flow side by
 * side, its closing lines may be mended), so they are returned in the list.
 */
export function layout(
  spec: RenderSpec,
  resources: Resources,
  limits: LayoutLimits = {},
  sink?: PageSink,
): DisplayList {
  const font = (id: string): FontSource => {
    const bytes = resources.fonts[id];
    if (!bytes) throw new Error(`the resources hold no font ${id}`);
    return { id, bytes, typeset: spec.fonts.typeset?.[id] };
  };
  const fonts = spec.fonts.body.map(font);
  if ('text' in spec.content)
    return renderText({
      style: spec.style,
      text: spec.content.text,
      fonts,
      limits,
      sink, // always present (undefined without one): one shape of argument, for V8's optimised code
    });
  const images: Record<string, { width: number; height: number }> = {};
  for (const [id, image] of Object.entries(resources.images))
    images[id] = { width: image.width, height: image.height };
  return renderBlocks({
    style: spec.style,
    blocks: spec.content.blocks,
    fonts,
    headings: spec.fonts.headings
      ? { fonts: spec.fonts.headings.fonts.map(font), overstrike: spec.fonts.headings.overstrike }
      : { fonts, overstrike: true },
    images,
    limits,
  });
}
