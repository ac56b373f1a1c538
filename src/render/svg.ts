// SVG writer: each glyph outline (or variant) is a <path> in <defs>, placed by <use> with its
// matrix. Only numbers, ids we make and colours validated by the template enter the markup; the
// text of a line is escaped before it goes into the (invisible) selectable layer.
import type { DisplayList, DisplayPage } from './display-list.ts';
import { encodePng } from './png-encode.ts';
import { Random } from './prng.ts';
import { RenderError } from './text-layout.ts';

const n = (v: number) => (Math.round(v * 1000) / 1000).toString();
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const tiles = new Map<string, string>();

/** A 96 x 96 px tile of faint brown specks, as a data URI; the same seed gives the same tile. */
function grainTile(seed: number, strength: number): string {
  const key = `${seed}/${strength}`;
  let uri = tiles.get(key);
  if (uri) return uri;
  const size = 96;
  const r = new Random(seed, 'grain');
  const px = new Uint8Array(size * size * 4);
  for (let i = 0; i < size * size; i++) {
    const v = r.next();
    px.set([96, 80, 60, Math.round(v * v * 60 * strength)], i * 4);
  }
  uri = `data:image/png;base64,${base64(encodePng(size, size, px))}`;
  if (tiles.size > 100) tiles.clear();
  tiles.set(key, uri);
  return uri;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i]!, bytes[i + 1] ?? 0, bytes[i + 2] ?? 0];
    out += B64[a >> 2]! + B64[((a & 3) << 4) | (b >> 4)]! + (i + 1 < bytes.length ? B64[((b & 15) << 2) | (c >> 6)]! : '=') + (i + 2 < bytes.length ? B64[c & 63]! : '=');
  }
  return out;
}

/** Image bytes by asset id, for background and block images (the engine reads no files). */
export type AssetBytes = Record<string, { type: 'image/png' | 'image/jpeg'; bytes: Uint8Array }>;

export function pageToSvg(list: DisplayList, page: DisplayPage, opts: { textLayer?: boolean; assets?: AssetBytes } = {}): string {
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
    } else if (it.kind === 'image') {
      const asset = opts.assets?.[it.assetId];
      if (!asset) throw new RenderError('MISSING_ASSET', `image ${it.assetId} was not supplied to the writer`);
      // Covers its box like a photo in a frame; the data URI holds only validated PNG or JPEG bytes.
      body += `<image x="${n(it.x)}" y="${n(it.y)}" width="${n(it.width)}" height="${n(it.height)}" preserveAspectRatio="xMidYMid slice" href="data:${asset.type};base64,${base64(asset.bytes)}"/>`;
    } else if (it.kind === 'dot') {
      body += `<circle cx="${n(it.x)}" cy="${n(it.y)}" r="${n(it.r)}" fill="${it.color}"/>`;
    }
  }
  const text = opts.textLayer
    ? page.lines.map((l) => `<text x="${n(l.x)}" y="${n(l.y)}" font-size="${n(l.size)}" fill-opacity="0">${esc(l.text)}</text>`).join('')
    : '';
  const w = n(page.width);
  const h = n(page.height);
  const { tilt, shadow, texture, scanner, seed } = page.sheet;
  const turn = tilt ? ` transform="rotate(${n(tilt)} ${n(page.width / 2)} ${n(page.height / 2)})"` : '';
  let effects = '';
  let under = '';
  let over = '';
  if (texture > 0) {
    // Paper grain: a small tile of seeded noise, repeated (an SVG noise filter costs 300 ms a page).
    effects += `<pattern id="grain" width="48" height="48" patternUnits="userSpaceOnUse"><image width="48" height="48" href="${grainTile(seed, texture)}"/></pattern>`;
    under += `<rect width="${w}" height="${h}" fill="url(#grain)"/>`;
  }
  if (scanner) {
    // A flatbed scan: light falling off towards one edge, and a grey cast over everything.
    effects += `<linearGradient id="scan" x1="0" y1="0" x2="1" y2="0.3"><stop offset="0" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#303030" stop-opacity="0.18"/></linearGradient>`;
    over += `<rect width="${w}" height="${h}" fill="url(#scan)"/><rect width="${w}" height="${h}" fill="#808080" fill-opacity="0.06"/>`;
  }
  let sheetAttrs = '';
  if (shadow > 0) {
    effects += `<filter id="shadow" x="-5%" y="-5%" width="110%" height="110%"><feDropShadow dx="${n(4 * shadow)}" dy="${n(6 * shadow)}" stdDeviation="${n(6 * shadow)}" flood-opacity="${n(0.45 * shadow)}"/></filter>`;
    sheetAttrs = ' filter="url(#shadow)"';
  }
  // With a shadow the sheet sits on a desk a little smaller than the image.
  const inset = shadow > 0 ? ` transform="translate(${n(page.width * 0.03)} ${n(page.height * 0.03)}) scale(0.94)"` : '';
  const desk = shadow > 0 ? `<rect width="${w}" height="${h}" fill="#d9d4cc"/>` : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}pt" height="${h}pt" viewBox="0 0 ${w} ${h}">` +
    `<defs>${defs}${effects}</defs>${desk}<g${inset}><g${turn}><rect width="${w}" height="${h}" fill="${page.background}"${sheetAttrs}/>${under}${body}${text}${over}</g></g></svg>`
  );
}
