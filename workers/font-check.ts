// An uploaded personal font, checked where fonts are drawn: parsed (inspectFont), then a line of
// its own letters written with it alone, as the dashboard shows it. The font is loaded under a
// probe id for this check only and dropped after it, with a collection on this thread, so a
// check leaves no memory behind (the thread's wasm heap never shrinks; freed space is reused).
import type { FontCheck, FontCheckResult } from '../src/app/ports/renderer.ts';
import { type FontInfo, fontReader } from '../src/render/index.ts';
import { releaseFontMemory } from './native-memory.ts';
import { renderRequest } from './render-task.ts';

export async function checkFont(check: FontCheck): Promise<FontCheckResult> {
  const { inspectFont, NotAFontError } = await fontReader();
  let info: FontInfo;
  try {
    info = inspectFont(check.bytes);
  } catch (err) {
    if (err instanceof NotAFontError) return { ok: false, message: `the file is ${err.message}` };
    throw err;
  }
  const line = info.sample;
  if (!line) return { ok: false, message: 'the font has no letters to write a sample line with' };
  // The parse's copy of the font is freed before the drawing makes its own (finalizers run as
  // the loop turns), so the two never hold the wasm heap at once.
  releaseFontMemory();
  await new Promise((resolve) => setImmediate(resolve));
  const probe = check.page.fonts.body[0]!;
  const out = renderRequest({
    output: 'draft',
    spec: { ...check.page, content: { text: line } },
    fonts: { [probe]: check.bytes },
    images: {},
    createdAt: check.createdAt,
    limits: { maxPages: 1, maxBytes: check.maxBytes, previewDpi: check.dpi },
    once: true,
  });
  if (!out.ok)
    return { ok: false, message: `the font could not write its sample line "${line}": ${out.message}` };
  return { ok: true, info, line, sample: out.bytes, bytes: check.bytes };
}
