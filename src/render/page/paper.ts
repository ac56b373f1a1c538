// Paper under the writing: lined (rules under every baseline, an optional margin rule), grid,
// dotted, or blank. Rules are display-list items, so every writer draws them the same way.
import type { Style } from '../spec.ts';
import { type DisplayPage, MM } from '../display-list.ts';

export function drawPaper(
  page: DisplayPage,
  paper: Style['paper'],
  at: { baselines: number[]; spacing: number; margin: { top: number; left: number } },
): void {
  const rule = (x1: number, y1: number, x2: number, y2: number, width = 0.6, color = paper.color) =>
    page.items.push({ kind: 'rule', x1, y1, x2, y2, width, color });
  if (paper.type === 'lined') for (const y of at.baselines) rule(0, y, page.width, y);
  if (paper.type === 'grid') {
    for (let y = at.spacing; y < page.height; y += at.spacing) rule(0, y, page.width, y, 0.4);
    for (let x = at.spacing; x < page.width; x += at.spacing) rule(x, 0, x, page.height, 0.4);
  }
  if (paper.type === 'dotted') {
    for (let y = at.spacing; y < page.height; y += at.spacing) {
      for (let x = at.spacing; x < page.width; x += at.spacing)
        page.items.push({ kind: 'dot', x, y, r: 0.7, color: paper.color });
    }
  }
  if (paper.marginRule.enabled && paper.type !== 'blank') {
    const x = paper.marginRule.position * MM;
    rule(x, 0, x, page.height, 0.8, paper.marginRule.color);
  }
}
