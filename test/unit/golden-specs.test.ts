// The golden cases as render specifications: each case (a template style and text, or a shipped
// example template with its input) mapped by src/domain exactly as a submission maps it, and
// compared with test/goldens/specs.json, which the door-only golden test renders. Written only
// by `npm run goldens:update`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import t from 'tap';
import { EXAMPLE_IMAGES, type ExampleName, exampleImage, readExample } from '../../src/app/demo.ts';
import { BUNDLED_FONTS, bundledFontId } from '../../src/domain/fonts.ts';
import type { JobInput } from '../../src/domain/generation.ts';
import { toRenderSpec } from '../../src/domain/render-spec.ts';
import { parseTemplate } from '../../src/domain/template.ts';
import { resourcesOf } from '../../src/render/index.ts';
import { decodePng } from '../../workers/png-decode.ts';
import type { GoldenSpecs } from '../helpers/golden-specs.ts';

const UPDATE = process.env.GOLDENS_UPDATE === '1';
const FILE = new URL('../goldens/specs.json', import.meta.url);
const read = (name: string) =>
  JSON.parse(readFileSync(new URL(`../goldens/${name}`, import.meta.url), 'utf8'));

interface TextCase {
  name: string;
  style: Record<string, unknown>;
  text: string;
  page?: number;
  /** A bundled font's slug (Caveat unless given). */
  font?: string;
  /** The text this many times over, for a long document. */
  repeat?: number;
}
interface DocumentCase {
  name: string;
  /** A shipped example, or a template and an input given here. */
  example?: ExampleName;
  template?: Record<string, unknown>;
  input?: JobInput;
  page?: number;
}

const fontOf = new Map(BUNDLED_FONTS.map((f) => [bundledFontId(f.slug), { slug: f.slug, module: f.module }]));
const IMAGE_IDS = Object.fromEntries(
  EXAMPLE_IMAGES.map((file, i) => [
    file,
    `asset_${String(i).padStart(16, '0')}${file.replace(/\W/g, '').slice(0, 6).padEnd(6, 'x')}`,
  ]),
);
const imageOf = new Map(Object.entries(IMAGE_IDS).map(([file, id]) => [id, file]));

const specs: GoldenSpecs = { fonts: {}, images: {}, cases: [] };
function add(name: string, model: unknown, input: JobInput, page: number | undefined): void {
  const parsed = parseTemplate(model);
  if (!parsed.ok) throw new Error(`${name}: ${parsed.field}: ${parsed.message}`);
  const { spec } = toRenderSpec(parsed.template, { input }, { textLimit: 100_000, subscribed: true });
  const wanted = resourcesOf(spec);
  for (const id of wanted.fonts) specs.fonts[id] = fontOf.get(id)!;
  for (const id of wanted.images) {
    const file = imageOf.get(id)!;
    const { width, height } = decodePng(exampleImage(file));
    specs.images[id] = { file: `src/app/demo/${file}`, type: 'image/png', width, height };
  }
  specs.cases.push({ name, spec, page: page ?? 1 });
}

// The render cases, then the gallery's (docs/handwriting.md is drawn from them by scripts/gallery.ts).
for (const c of [...read('cases.json'), ...read('gallery.json')] as TextCase[]) {
  add(
    c.name,
    {
      version: 2,
      name: c.name,
      mode: 'simple',
      style: { fontId: bundledFontId(c.font ?? 'caveat'), ...c.style },
    },
    { text: c.repeat ? Array.from({ length: c.repeat }, () => c.text).join(' ') : c.text },
    c.page,
  );
}
for (const c of read('documents.json') as DocumentCase[]) {
  const example = c.example ? readExample(c.example, IMAGE_IDS) : null;
  add(
    c.name,
    example ? JSON.parse(example.template) : c.template,
    (example?.input ?? c.input) as JobInput,
    c.page,
  );
}

const text = `${JSON.stringify(specs, null, 1)}\n`;
if (UPDATE) {
  writeFileSync(FILE, text);
  t.pass(`wrote ${specs.cases.length} specifications`);
} else {
  t.ok(existsSync(FILE), 'test/goldens/specs.json exists (npm run goldens:update writes it)');
  t.equal(
    text,
    existsSync(FILE) ? readFileSync(FILE, 'utf8') : '',
    'every case maps to its stored specification',
  );
}
t.ok(specs.cases.length >= 20, `${specs.cases.length} cases`);
