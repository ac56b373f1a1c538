// SVG writer: each glyph outline (or variant) is a <path> in <defs>, placed by <use> with its
// matrix. Only numbers, ids we make and colours validated by the template enter the markup; the
// text of a line is escaped before it goes into the (invisible) selectable layer.
import type { DisplayList, DisplayPage } from './display-list.ts';

const n = (v: number) => (Math.round(v * 1000) / 1000).toString();
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function pageToSvg(list: DisplayList, page: DisplayPage, opts: { textLayer?: boolean } = {}): string {
  const used = new Set<string>();
  for (const it of page.items) if (it.kind === 'glyph') used.add(it.ref);
  const ids = new Map([...used].map((ref, i) => [ref, `g${i}`]));
  const defs = [...used].map((ref) => `<path id="${ids.get(ref)}" d="${list.glyphs[ref]!.path}"/>`).join('');
  let body = '';
  for (const it of page.items) {
    if (it.kind === 'glyph') {
      const op = it.opacity < 1 ? ` fill-opacity="${n(it.opacity)}"` : '';
      body += `<use href="#${ids.get(it.ref)}" transform="matrix(${it.m.map(n).join(' ')})" fill="${it.color}"${op}/>`;
    } else if (it.kind === 'rule') {
      body += `<line x1="${n(it.x1)}" y1="${n(it.y1)}" x2="${n(it.x2)}" y2="${n(it.y2)}" stroke="${it.color}" stroke-width="${n(it.width)}"/>`;
    } else if (it.kind === 'dot') {
      body += `<circle cx="${n(it.x)}" cy="${n(it.y)}" r="${n(it.r)}" fill="${it.color}"/>`;
    }
  }
  const text = opts.textLayer
    ? page.lines.map((l) => `<text x="${n(l.x)}" y="${n(l.y)}" font-size="${n(l.size)}" fill-opacity="0">${esc(l.text)}</text>`).join('')
    : '';
  const w = n(page.width);
  const h = n(page.height);
  const tilt = page.sheet.tilt ? ` transform="rotate(${n(page.sheet.tilt)} ${n(page.width / 2)} ${n(page.height / 2)})"` : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}pt" height="${h}pt" viewBox="0 0 ${w} ${h}">` +
    `<defs>${defs}</defs><g${tilt}><rect width="${w}" height="${h}" fill="${page.background}"/>${body}${text}</g></svg>`
  );
}
