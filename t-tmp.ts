import { loadFont, shape } from './src/render/fonts.ts';
import { bundledFontSource } from './test/helpers/fonts.ts';
for (const slug of [
  'caveat',
  'dancing-script',
  'gochi-hand',
  'homemade-apple',
  'indie-flower',
  'kalam',
  'patrick-hand',
  'shadows-into-light',
  'reenie-beanie',
  'nanum-pen-script',
  'aref-ruqaa',
]) {
  const f = loadFont(bundledFontSource(slug));
  let up = 0,
    down = 0;
  for (const ch of 'bdfhklt') {
    const g = shape(f, ch, false)[0]!;
    const e = f.font.glyphExtents(g.gid);
    if (e) up = Math.max(up, e.yBearing);
  }
  for (const ch of 'gjpqy') {
    const g = shape(f, ch, false)[0]!;
    const e = f.font.glyphExtents(g.gid);
    if (e) down = Math.max(down, -(e.yBearing + e.height));
  }
  console.log(
    slug.padEnd(20),
    'hhea',
    (f.ascender / f.upem).toFixed(2),
    (f.descender / f.upem).toFixed(2),
    'ink',
    (up / f.upem).toFixed(2),
    (down / f.upem).toFixed(2),
    'H',
    ((up + down) / f.upem).toFixed(2),
  );
}
