// Golden render cases: template style + text + seed → an exact display-list snapshot and a page
// PNG compared with a stated tolerance. Goldens are written only by `npm run goldens:update`;
// a missing golden fails the run (CI never creates one silently).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import t, { type Test } from 'tap';
import { EXAMPLE_IMAGES, type ExampleName, exampleImage, readExample } from '../src/app/demo.ts';
import { bundledChain, bundledFontSource } from '../src/app/font-files.ts';
import { decodePng } from '../src/app/png-decode.ts';
import { jobBlocks } from '../src/domain/document.ts';
import type { JobInput } from '../src/domain/generation.ts';
import { parseTemplate, type Style, templateFonts, templateStyle } from '../src/domain/template.ts';
import type { DisplayList } from '../src/render/display-list.ts';
import { renderText } from '../src/render/document.ts';
import { pageToPng } from '../src/render/png.ts';
import type { AssetBytes } from '../src/render/svg.ts';
import { BUNDLED_FONTS, bundledFontId } from '../src/store/bundled-fonts.ts';
import { layout } from '../workers/render-task.ts';

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

/** Compares (or with GOLDENS_UPDATE=1, writes) a page's display list and image. */
function compare(t: Test, name: string, list: DisplayList, page: number, assets?: AssetBytes): void {
  const snap = snapshot(list, page);
  const png = pageToPng(list, list.pages[page]!, 72, { deflate: (b) => deflateSync(b, { level: 9 }), assets });
  const snapFile = new URL(`${name}.json`, DIR);
  const pngFile = new URL(`${name}.png`, DIR);
  if (UPDATE) {
    writeFileSync(snapFile, snap);
    writeFileSync(pngFile, png);
    t.pass(`wrote ${name}`);
    return;
  }
  if (!existsSync(snapFile) || !existsSync(pngFile)) {
    t.fail(`no golden for ${name}: run npm run goldens:update and look at the PNG before committing it`);
    return;
  }
  t.equal(snap, readFileSync(snapFile, 'utf8'), 'display list as recorded');
  const share = differingShare(PNG.sync.read(Buffer.from(png)), PNG.sync.read(readFileSync(pngFile)));
  t.ok(share <= PIXEL_SHARE, `page image within tolerance (${(share * 100).toFixed(3)} % of pixels differ, at most ${PIXEL_SHARE * 100} %)`);
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
    compare(t, c.name, list, (c.page ?? 1) - 1);
  });
}

// Structured documents: the shipped examples (the legacy one uses every Document v1 block) and a
// table that runs across pages, laid out the way a render worker does it.
interface DocumentCase {
  name: string;
  /** A shipped example, or a template and an input given here. */
  example?: ExampleName;
  template?: Record<string, unknown>;
  input?: JobInput;
  page?: number;
}
const IMAGE_IDS = Object.fromEntries(EXAMPLE_IMAGES.map((file, i) => [file, `asset_${String(i).padStart(16, '0')}${file.replace(/\W/g, '').slice(0, 6).padEnd(6, 'x')}`]));
const imageAssets: AssetBytes = {};
const imageSizes: Record<string, { width: number; height: number }> = {};
for (const [file, id] of Object.entries(IMAGE_IDS)) {
  const bytes = exampleImage(file);
  const { width, height } = decodePng(bytes);
  imageAssets[id] = { type: 'image/png', bytes };
  imageSizes[id] = { width, height };
}
const documents = JSON.parse(readFileSync(new URL('./goldens/documents.json', import.meta.url), 'utf8')) as DocumentCase[];
for (const c of documents) {
  t.test(c.name, async (t) => {
    const example = c.example ? readExample(c.example, IMAGE_IDS) : null;
    const parsed = parseTemplate(example ? JSON.parse(example.template) : c.template);
    if (!parsed.ok) throw new Error(`${c.name}: ${parsed.field}: ${parsed.message}`);
    const model = parsed.template;
    const input = (example?.input ?? c.input) as JobInput;
    const fonts = templateFonts(model);
    const slug = (id: string) => ({ slug: slugOf.get(id)! });
    const blocks = jobBlocks(model, input);
    const list = layout(
      {
        kind: 'pdf',
        style: templateStyle(model),
        text: 'text' in input ? input.text : '',
        font: slug(fonts.body),
        ...(fonts.heading ? { headingFont: slug(fonts.heading) } : {}),
        ...(blocks ? { blocks } : {}),
        images: imageSizes,
        createdAt: '2026-01-01T00:00:00Z',
        maxPages: 200,
        maxBytes: 55_000_000,
      },
      { maxPages: 200 },
    );
    compare(t, c.name, list, (c.page ?? 1) - 1, imageAssets);
  });
}
