// Golden render cases: template style + text + seed → an exact display-list snapshot and a page
// PNG compared with a stated tolerance. Goldens are written only by `npm run goldens:update`;
// a missing golden fails the run (CI never creates one silently).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import t from 'tap';
import { bundledChain, bundledFontSource } from '../src/app/font-files.ts';
import { parseTemplate, type Style } from '../src/domain/template.ts';
import type { DisplayList } from '../src/render/display-list.ts';
import { renderText } from '../src/render/document.ts';
import { pageToPng } from '../src/render/png.ts';
import { BUNDLED_FONTS, bundledFontId } from '../src/store/bundled-fonts.ts';

const UPDATE = process.env.GOLDENS_UPDATE === '1';
const DIR = new URL('./goldens/expected/', import.meta.url);
/** A pixel differs when a channel moves by more than 24 of 255; at most 0.2 % may differ. */
const CHANNEL_TOLERANCE = 24;
const PIXEL_SHARE = 0.002;

interface Case {
  name: string;
  style: Record<string, unknown>;
  text: string;
  page?: number;
}

const slugOf = new Map(BUNDLED_FONTS.map((f) => [bundledFontId(f.slug), f.slug]));

/** The display list with numbers to 4 decimals and outlines as hashes: stable, and readable in a diff. */
function snapshot(list: DisplayList, page: number): string {
  const p = list.pages[page]!;
  const round = (v: unknown): unknown =>
    typeof v === 'number' ? Math.round(v * 10_000) / 10_000 : Array.isArray(v) ? v.map(round) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, round(x)])) : v;
  const used = new Set(p.items.flatMap((i) => (i.kind === 'glyph' ? [i.ref] : [])));
  const glyphs = Object.fromEntries(
    [...used].sort().map((ref) => {
      const g = list.glyphs[ref]!;
      return [ref, { font: slugOf.get(g.font), gid: g.gid, variant: g.variant, path: createHash('sha256').update(g.path).digest('hex').slice(0, 16) }];
    }),
  );
  return `${JSON.stringify({ pages: list.pages.length, page: round({ ...p }), glyphs }, null, 1)}\n`;
}

function differingShare(a: PNG, b: PNG): number {
  if (a.width !== b.width || a.height !== b.height) return 1;
  let differ = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    for (let c = 0; c < 4; c++) {
      if (Math.abs(a.data[i + c]! - b.data[i + c]!) > CHANNEL_TOLERANCE) {
        differ++;
        break;
      }
    }
  }
  return differ / (a.width * a.height);
}

const cases = JSON.parse(readFileSync(new URL('./goldens/cases.json', import.meta.url), 'utf8')) as Case[];
t.ok(cases.length >= 15, `${cases.length} cases`);
if (UPDATE) mkdirSync(DIR, { recursive: true });

for (const c of cases) {
  t.test(c.name, async (t) => {
    const parsed = parseTemplate({ version: 2, name: c.name, mode: 'simple', style: { fontId: bundledFontId('caveat'), ...c.style } });
    if (!parsed.ok) throw new Error(`${c.name}: ${parsed.field}: ${parsed.message}`);
    const style = (parsed.template as { style: Style }).style;
    const primary = bundledFontSource(slugOf.get(style.fontId)!);
    const list = renderText({ style, text: c.text, fonts: bundledChain(primary) });
    const page = (c.page ?? 1) - 1;
    const snap = snapshot(list, page);
    const png = pageToPng(list, list.pages[page]!, 72, { deflate: (b) => deflateSync(b, { level: 9 }) });
    const snapFile = new URL(`${c.name}.json`, DIR);
    const pngFile = new URL(`${c.name}.png`, DIR);
    if (UPDATE) {
      writeFileSync(snapFile, snap);
      writeFileSync(pngFile, png);
      t.pass(`wrote ${c.name}`);
      return;
    }
    if (!existsSync(snapFile) || !existsSync(pngFile)) {
      t.fail(`no golden for ${c.name}: run npm run goldens:update and look at the PNG before committing it`);
      return;
    }
    t.equal(snap, readFileSync(snapFile, 'utf8'), 'display list as recorded');
    const share = differingShare(PNG.sync.read(Buffer.from(png)), PNG.sync.read(readFileSync(pngFile)));
    t.ok(share <= PIXEL_SHARE, `page image within tolerance (${(share * 100).toFixed(3)} % of pixels differ, at most ${PIXEL_SHARE * 100} %)`);
  });
}
