// The document's pages: a render specification and the bytes it names become a display list,
// through the simple-text layout (document.ts) or the structured blocks' (flow.ts).
import type { DisplayList } from '../display-list.ts';
import type { LayoutLimits, RenderSpec, Resources } from '../spec.ts';
import type { FontSource } from '../text/fonts.ts';
import { renderText } from './document.ts';
import { renderBlocks } from './flow.ts';

/** The document's pages: simple text, or the blocks of a structured one. */
export function layout(spec: RenderSpec, resources: Resources, limits: LayoutLimits = {}): DisplayList {
  const font = (id: string): FontSource => {
    const bytes = resources.fonts[id];
    if (!bytes) throw new Error(`the resources hold no font ${id}`);
    return { id, bytes, typeset: spec.fonts.typeset?.[id] };
  };
  const fonts = spec.fonts.body.map(font);
  if ('text' in spec.content)
    return renderText({ style: spec.style, text: spec.content.text, fonts, limits });
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
