// The render engine is pure and has one door (DESIGN §3, §9): src/render/index.ts bundled for a
// neutral platform reaches no file outside src/render, no node: built-in, no native addon, and
// its code reads no environment, clock or randomness. Packages it uses are kept outside the
// bundle and must be on the list of pure ones.
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

const { code, inputs, imports } = await bundle({ file: 'src/render/index.ts' });

t.test('the bundle reaches only src/render', async (t) => {
  t.ok(inputs.length >= 20, `${inputs.length} files bundled`);
  t.same(
    inputs.filter((f) => !f.startsWith('src/render/')),
    [],
    'no file outside src/render',
  );
});

t.test('no node: built-in, no native addon: only the pure packages', async (t) => {
  t.same(
    imports.filter((p) => !ALLOWED_PACKAGES.includes(p)),
    [],
    `imports only ${ALLOWED_PACKAGES.join(', ')}`,
  );
});

t.test('no environment, clock or randomness in the code', async (t) => {
  for (const [what, re] of FORBIDDEN) {
    const at = code.search(re);
    t.equal(at, -1, `no ${what}${at >= 0 ? `: …${code.slice(Math.max(0, at - 60), at + 40)}…` : ''}`);
  }
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
    outside.inputs.some((f) => !f.startsWith('src/render/')),
    'a file outside src/render is seen',
  );
});
