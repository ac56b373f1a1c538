// The preview watermark: a word drawn from a font's outlines (images are drawn without system
// fonts), large, light and turned along each page's diagonal, over the writing.
import type { DisplayList, Matrix } from '../display-list.ts';
import { type FontSource, loadFont, shape } from '../text/fonts.ts';
import { drawingPath } from '../hand/variants.ts';
import { hypot } from '../numbers.ts';

export function addWatermark(list: DisplayList, source: FontSource, word = 'PREVIEW'): void {
  const font = loadFont(source);
  const glyphs = shape(font, word, false);
  const advance = glyphs.reduce((sum, g) => sum + g.advance, 0);
  if (advance <= 0) return;
  for (const page of list.pages) {
    const diagonal = hypot(page.width, page.height);
    const s = (diagonal * 0.6) / advance; // pt per font unit: the word spans 60 % of the diagonal
    const turn = -Math.atan2(page.height, page.width); // rising from lower left to upper right
    const [cos, sin] = [Math.cos(turn), Math.sin(turn)];
    // Start so that the word's middle, half a cap height below its baseline, is the page's centre.
    const lift = font.ascender * 0.35 * s;
    let x = page.width / 2 - (advance / 2) * s * cos - lift * sin;
    let y = page.height / 2 - (advance / 2) * s * sin + lift * cos;
    for (const g of glyphs) {
      const ref = `watermark:${font.id}:${g.gid}`;
      list.glyphs[ref] ??= {
        font: font.id,
        gid: g.gid,
        variant: 0,
        path: drawingPath(font.outline(g.gid), font.upem, {
          drawing: 0,
          shapes: 0,
          pressure: 0,
          blots: 0,
          seed: 0,
          key: `${font.id}:${g.gid}`,
        }),
        scale: s,
      };
      const m: Matrix = [s * cos, s * sin, s * sin, -s * cos, x, y];
      page.items.push({ kind: 'glyph', ref, m, color: '#7a7a7a', opacity: 0.28 });
      x += g.advance * s * cos;
      y += g.advance * s * sin;
    }
  }
}
