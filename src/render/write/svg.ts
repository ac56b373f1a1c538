// SVG writer: each glyph outline (or variant) is a <path> in <defs>, placed by <use> with its
// matrix. Only numbers, ids we make and colours validated by the template enter the markup; the
// text of a line is escaped before it goes into the (invisible) selectable layer.
import { letterInk } from '../color.ts';
import { type DisplayList, type DisplayPage, KEPT_DRAWINGS, type Matrix } from '../display-list.ts';
import { encodePng } from './png-encode.ts';
import { GRAIN_PT, GRAIN_PX, GRAIN_RGB, grainAlpha, grainCells, grainTiles } from './grain.ts';
import { RenderError } from '../text/text-layout.ts';

const n = (v: number) => (Math.round(v * 1000) / 1000).toString();
/** Significant digits for small factors (pt per font unit is about 0.01). */
const n4 = (v: number) => Number(v.toPrecision(6)).toString();
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const tiles = new Map<string, string>();

/** The family's grain tile `tile` (grain.ts) as a PNG data URI (compressed with `deflate` when given). */
function grainTile(tile: number, strength: number, deflate?: (b: Uint8Array) => Uint8Array): string {
  const key = `${tile}/${strength}/${deflate ? 'z' : ''}`;
  let uri = tiles.get(key);
  if (uri) return uri;
  const alpha = grainAlpha(tile, strength);
  const px = new Uint8Array(alpha.length * 4);
  for (let i = 0; i < alpha.length; i++) px.set([...GRAIN_RGB, alpha[i]!], i * 4);
  uri = `data:image/png;base64,${base64(encodePng(GRAIN_PX, GRAIN_PX, px, { deflate }))}`;
  if (tiles.size > 100) tiles.clear();
  tiles.set(key, uri);
  return uri;
}

const relative = new Map<string, string>();

/**
 * Absolute path data (whole font units, as the variants module writes it) as relative commands:
 * the same outline in about two thirds of the bytes, remembered per thread.
 */
function relativePath(d: string): string {
  let out = relative.get(d);
  if (out !== undefined) return out;
  out = '';
  let [x, y, sx, sy] = [0, 0, 0, 0];
  for (const m of d.matchAll(/([MLQCZ])([^MLQCZ]*)/g)) {
    const cmd = m[1]!;
    if (cmd === 'Z') {
      out += 'z';
      [x, y] = [sx, sy];
      continue;
    }
    const v = m[2]!.trim().split(/[ ,]+/).map(Number);
    let part = cmd.toLowerCase();
    for (let i = 0; i < v.length; i += 2) {
      const [dx, dy] = [v[i]! - x, v[i + 1]! - y];
      part += `${i && dx >= 0 ? ' ' : ''}${dx}${dy >= 0 ? ' ' : ''}${dy}`;
    }
    out += part;
    // The pen ends on the command's last point; a move also starts the subpath.
    [x, y] = [v[v.length - 2]!, v[v.length - 1]!];
    if (cmd === 'M') [sx, sy] = [x, y];
  }
  if (relative.size >= KEPT_DRAWINGS) relative.clear();
  relative.set(d, out);
  return out;
}

/** Path data of one instance: absolute start of each contour, then whole-unit steps. */
function placedOutline(inline: InlineOutlines, ref: string, m: Matrix): string {
  const k = inline.unitsPerPt;
  const [a, b, c, d, e, f] = [m[0] * k, m[1] * k, m[2] * k, m[3] * k, m[4] * k, m[5] * k];
  let out = '';
  for (const pts of inline.contours(ref)) {
    let x = Math.round(a * pts[0]! + c * pts[1]! + e);
    let y = Math.round(b * pts[0]! + d * pts[1]! + f);
    out += `M${x} ${y}l`;
    for (let i = 2; i < pts.length; i += 2) {
      const nx = Math.round(a * pts[i]! + c * pts[i + 1]! + e);
      const ny = Math.round(b * pts[i]! + d * pts[i + 1]! + f);
      out += `${nx - x} ${ny - y} `;
      [x, y] = [nx, ny];
    }
    out += 'z';
  }
  return out;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i]!, bytes[i + 1] ?? 0, bytes[i + 2] ?? 0];
    out +=
      B64[a >> 2]! +
      B64[((a & 3) << 4) | (b >> 4)]! +
      (i + 1 < bytes.length ? B64[((b & 15) << 2) | (c >> 6)]! : '=') +
      (i + 2 < bytes.length ? B64[c & 63]! : '=');
  }
  return out;
}

/** Image bytes by asset id, for background and block images (the engine reads no files). */
export type AssetBytes = Record<string, { type: 'image/png' | 'image/jpeg'; bytes: Uint8Array }>;

/**
 * For an image of known resolution (the PNG writer): each glyph instance written out as its
 * outline already transformed, on a grid of `unitsPerPt`, consecutive instances of one ink in
 * one path. resvg parses that in half the time it takes to resolve a <use> per letter.
 */
export interface InlineOutlines {
  unitsPerPt: number;
  /** Contours of the outline `ref`, each x, y pairs in font units. */
  contours(ref: string): readonly Int32Array[];
}

export function pageToSvg(
  list: DisplayList,
  page: DisplayPage,
  opts: {
    textLayer?: boolean;
    assets?: AssetBytes;
    inline?: InlineOutlines;
    /** zlib deflate for the embedded grain tile (without it the tile is stored uncompressed). */
    deflate?: (b: Uint8Array) => Uint8Array;
  } = {},
): string {
  const used = new Set<string>();
  if (!opts.inline) for (const it of page.items) if (it.kind === 'glyph') used.add(it.ref);
  const ids = new Map([...used].map((ref, i) => [ref, `g${i}`]));
  // Each outline carries its font-unit scale and flip, so that an instance's matrix is a
  // near-identity whose rotation and size jitter survive rounding to three decimals.
  const defs = [...used]
    .map((ref) => {
      const g = list.glyphs[ref]!;
      return `<path id="${ids.get(ref)}" transform="matrix(${n4(g.scale)} 0 0 ${n4(-g.scale)} 0 0)" d="${relativePath(g.path)}"/>`;
    })
    .join('');
  let body = '';
  let ink = ''; // fill attributes of the inline path being gathered
  let d = '';
  const flush = () => {
    if (d) body += `<path transform="scale(${n4(1 / opts.inline!.unitsPerPt)})"${ink} d="${d}"/>`;
    d = '';
  };
  const inkOf = letterInk(page);
  for (const it of page.items) {
    if (it.kind === 'glyph') {
      const { color, opacity } = inkOf(it);
      const fill = ` fill="${color}"${opacity < 1 ? ` fill-opacity="${n(opacity)}"` : ''}`;
      if (opts.inline) {
        if (fill !== ink) flush();
        ink = fill;
        d += placedOutline(opts.inline, it.ref, it.m);
        continue;
      }
      const s = list.glyphs[it.ref]!.scale;
      const [a, b, c, dd, e, f] = it.m;
      body += `<use href="#${ids.get(it.ref)}" transform="matrix(${n(a / s)} ${n(b / s)} ${n(-c / s)} ${n(-dd / s)} ${n(e)} ${n(f)})"${fill}/>`;
      continue;
    }
    flush();
    if (it.kind === 'rule') {
      body += `<line x1="${n(it.x1)}" y1="${n(it.y1)}" x2="${n(it.x2)}" y2="${n(it.y2)}" stroke="${it.color}" stroke-width="${n(it.width)}"/>`;
    } else if (it.kind === 'image') {
      const asset = opts.assets?.[it.assetId];
      if (!asset)
        throw new RenderError('MISSING_ASSET', `image ${it.assetId} was not supplied to the writer`);
      // Covers its box like a photo in a frame; the data URI holds only validated PNG or JPEG bytes.
      body += `<image x="${n(it.x)}" y="${n(it.y)}" width="${n(it.width)}" height="${n(it.height)}" preserveAspectRatio="xMidYMid slice" href="data:${asset.type};base64,${base64(asset.bytes)}"/>`;
    } else if (it.kind === 'stroke') {
      const p = it.points;
      let d = `M${n(p[0]!)} ${n(p[1]!)}`;
      for (let i = 2; i < p.length; i += 2) d += `L${n(p[i]!)} ${n(p[i + 1]!)}`;
      const alpha = it.opacity < 1 ? ` stroke-opacity="${n(it.opacity)}"` : '';
      body += `<path d="${d}" fill="none" stroke="${it.color}" stroke-width="${n(it.width)}" stroke-linecap="round" stroke-linejoin="round"${alpha}/>`;
    } else if (it.kind === 'dot') {
      body += `<circle cx="${n(it.x)}" cy="${n(it.y)}" r="${n(it.r)}" fill="${it.color}"/>`;
    }
  }
  flush();
  const text = opts.textLayer
    ? page.lines
        .map(
          (l) =>
            `<text x="${n(l.x)}" y="${n(l.y)}" font-size="${n(l.size)}" fill-opacity="0">${esc(l.text)}</text>`,
        )
        .join('')
    : '';
  const w = n(page.width);
  const h = n(page.height);
  const { tilt, shadow, texture, scanner, seed } = page.sheet;
  const turn = tilt ? ` transform="rotate(${n(tilt)} ${n(page.width / 2)} ${n(page.height / 2)})"` : '';
  let effects = '';
  let under = '';
  let over = '';
  if (texture > 0) {
    // Paper grain: the sheet's tiles of fibres, each cell one of them turned its own way (an SVG
    // noise filter costs 300 ms a page); the same cells as the PNG writer's blend (grain.ts).
    grainTiles(seed).forEach((tile, k) => {
      effects += `<image id="grain${k}" width="${GRAIN_PT}" height="${GRAIN_PT}" href="${grainTile(tile, texture, opts.deflate)}"/>`;
    });
    const [columns, rows] = [Math.ceil(page.width / GRAIN_PT), Math.ceil(page.height / GRAIN_PT)];
    const c = GRAIN_PT / 2;
    grainCells(seed, columns, rows).forEach((cell, i) => {
      const [x, y] = [(i % columns) * GRAIN_PT, Math.floor(i / columns) * GRAIN_PT];
      const flip = cell.turn >= 4 ? ' scale(-1 1)' : '';
      under += `<use href="#grain${cell.tile}" transform="translate(${n(x + c)} ${n(y + c)}) rotate(${(cell.turn % 4) * 90})${flip} translate(${-c} ${-c})"/>`;
    });
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
  const inset =
    shadow > 0 ? ` transform="translate(${n(page.width * 0.03)} ${n(page.height * 0.03)}) scale(0.94)"` : '';
  const desk = shadow > 0 ? `<rect width="${w}" height="${h}" fill="#d9d4cc"/>` : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}pt" height="${h}pt" viewBox="0 0 ${w} ${h}">` +
    `<defs>${defs}${effects}</defs>${desk}<g${inset}><g${turn}><rect width="${w}" height="${h}" fill="${page.background}"${sheetAttrs}/>${under}${body}${text}${over}</g></g></svg>`
  );
}
