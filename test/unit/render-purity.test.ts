// The render engine and the foundry above it are pure, each with one door (DESIGN §3, §9):
// src/render/index.ts bundled for a neutral platform reaches no file outside src/render, and
// src/foundry/index.ts none outside src/foundry and src/render; neither reaches a node: built-in
// or a native addon, and their code reads no environment, clock or randomness. Packages they use
// are kept outside the bundle and must be on the list of pure ones.
import { build } from 'esbuild';
import t from 'tap';

/**
 * Packages the engine may import: WebAssembly shaping, Unicode algorithms, a pure JavaScript PDF
 * library (the sample sheet's printed labels), OpenCV's WebAssembly build (reading a filled
 * sheet) and a pure JavaScript font writer (a personal font built from it), no I/O of their own.
 */
const ALLOWED_PACKAGES = [
  'harfbuzzjs',
  'bidi-js',
  'linebreak',
  '@cantoo/pdf-lib',
  '@techstark/opencv-js',
  'opentype.js',
];

const ROOT = new URL('../../', import.meta.url).pathname;

/** Bundles for a neutral platform (a node: built-in does not resolve there and fails the build). */
async function bundle(entry: { file: string } | { source: string }) {
  const result = await build({
    ...('file' in entry
      ? { entryPoints: [entry.file] }
      : { stdin: { contents: entry.source, loader: 'ts' as const, resolveDir: ROOT } }),
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    platform: 'neutral',
    format: 'esm',
    metafile: true,
    packages: 'external',
    logLevel: 'silent',
  });
  return {
    code: result.outputFiles[0]!.text,
    inputs: Object.keys(result.metafile.inputs),
    imports: Object.values(result.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path)),
  };
}

const FORBIDDEN = [
  ['process', /\bprocess\b/],
  ['the clock', /Date\.now|new Date\b|performance\b|setTimeout|setInterval/],
  ['Math.random', /Math\.random/],
  ['require', /\brequire\(/],
] as const;

const DOORS = [
  { door: 'src/render/index.ts', within: ['src/render/'] },
  { door: 'src/foundry/index.ts', within: ['src/foundry/', 'src/render/'] },
] as const;

for (const { door, within } of DOORS) {
  const { code, inputs, imports } = await bundle({ file: door });

  t.test(`${door}: the bundle reaches only ${within.join(' and ')}`, async (t) => {
    t.ok(inputs.length >= 3, `${inputs.length} files bundled`);
    t.same(
      inputs.filter((f) => !within.some((d) => f.startsWith(d))),
      [],
      `no file outside ${within.join(' and ')}`,
    );
  });

  t.test(`${door}: no node: built-in, no native addon: only the pure packages`, async (t) => {
    t.same(
      imports.filter((p) => !ALLOWED_PACKAGES.includes(p)),
      [],
      `imports only ${ALLOWED_PACKAGES.join(', ')}`,
    );
  });

  t.test(`${door}: no environment, clock or randomness in the code`, async (t) => {
    for (const [what, re] of FORBIDDEN) {
      const at = code.search(re);
      t.equal(at, -1, `no ${what}${at >= 0 ? `: …${code.slice(Math.max(0, at - 60), at + 40)}…` : ''}`);
    }
  });
}

t.test('one constant through the door is one constant, not the engine', async (t) => {
  // The built release bundles as this does (esbuild, the package "sideEffects": false).
  const one = await bundle({
    source: "export { MODIFIER_LIMITS } from './src/render/index.ts';",
  });
  t.same(one.imports, [], 'no package imported: no shaping, no PDF library');
  t.ok(one.code.length < 4000, `${one.code.length} bytes of code`);
  const writer = await bundle({ source: "export { writePdf } from './src/render/index.ts';" });
  t.ok(
    writer.code.length > 20 * one.code.length,
    `the PDF writer is ${writer.code.length} bytes: the check can fail`,
  );
});

t.test('the checks can fail', async (t) => {
  // Depending on where it is resolved from, a built-in fails the build or stands among the imports.
  const seen = await bundle({
    source: "import { readFileSync } from 'node:fs'; export const x = readFileSync;",
  }).then(
    (b) => b.imports.filter((p) => !ALLOWED_PACKAGES.includes(p)),
    (err: Error) => [err.message],
  );
  t.match(seen.join('\n'), /node:fs/, 'a node: built-in is seen');
  const impure = await bundle({
    source: 'export const x = () => [process.env.X, Date.now(), Math.random()];',
  });
  t.same(
    FORBIDDEN.filter(([, re]) => re.test(impure.code)).map(([what]) => what),
    ['process', 'the clock', 'Math.random'],
    'the environment, the clock and randomness are seen',
  );
  const outside = await bundle({ source: "export { newId } from './src/lib/ids.ts';" });
  t.ok(
    outside.inputs.some((f) => !DOORS.some(({ within }) => within.some((d) => f.startsWith(d)))),
    'a file outside the engine and the foundry is seen',
  );
});
