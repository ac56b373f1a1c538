// Builds the server's JavaScript ahead of time (docs/decisions.md, "A built release"): three
// programs, each bundled with esbuild from the TypeScript sources into dist/server/. The command
// is split into chunks at its dynamic imports, so that a command loads only what it reaches; a
// render thread and the sheet reader are one file each. They are built apart: esbuild puts a file
// that several programs reach into one chunk for all of them, so built together the command would
// load the whole engine a thread renders with. Source maps let a stack trace name the .ts line.
//
// A build may run while processes of the last one are running (`npx scriptorium` in a checkout
// runs `prepare` the first time): a file is replaced only when its bytes change, each by a rename,
// and files no longer built are removed last (scripts/put-files.mjs; the dashboard's build does the
// same), so that a running process never reads a half-written or missing chunk of the build it
// started from.
//
// Packages stay in node_modules, except the pure-JavaScript libraries a start loads (VENDORED):
// Node keeps a record per module file, and Kysely's ~400 files, zod's ~100 and image-size's 30
// cost a start 15-20 MiB and 0.2-0.4 s of CPU as files, against 4-7 MiB and 30-80 ms as one file
// each; a farm's process loaded 440 files of BullMQ, ioredis and the S3 client more. Each is built
// once into dist/server/vendor/, minified and without a source map (a process reads every map of
// what it loads as it loads it: ~50 ms a start for the first three), and the programs import it
// as `#vendor/<name>` (package.json's "imports"); docs/decisions.md, "A built release".
//   node scripts/build.mjs [--watch]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { putChanged, removeStale } from './put-files.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const outdir = `${root}dist/server`;

/** @type {import('esbuild').BuildOptions} */
const common = {
  absWorkingDir: root,
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.10',
  plugins: [externalPackages()],
  jsx: 'automatic',
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'warning',
};

/** Packages built into dist/server/vendor; every other one is loaded from node_modules. */
const VENDORED = [
  'kysely',
  'zod',
  'image-size',
  'pino',
  'prom-client',
  'commander',
  'ipaddr.js',
  // A farm process's: BullMQ's ~220 files (its Lua scripts are modules of it), ioredis's 45, and
  // the S3 client's files with its XML parser's ~40.
  'bullmq',
  'ioredis',
  'minio',
  'pg',
];
/** Of those, the CommonJS ones: re-exported by the names their module object has. */
const COMMONJS = ['pino', 'prom-client', 'ipaddr.js', 'bullmq', 'ioredis', 'pg'];
/**
 * What a vendored package may load but is not built into it: native parts, and what BullMQ loads
 * only when asked (ioredis where it is handed no client, its PostgreSQL backend, node-redis).
 */
const NOT_VENDORED = ['ioredis', 'pg', 'pg-native', 'redis', 'bullmq-otel', 'msgpackr-extract'];
const require = createRequire(import.meta.url);

/** The vendored file's source: the package's whole API, as ES-module exports. */
function reexport(name) {
  if (!COMMONJS.includes(name)) return `export * from '${name}';`;
  const module = require(name);
  const names = Object.keys(module).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'default');
  // A package compiled from ES modules (`__esModule`, as BullMQ's and ioredis's are) has its names
  // on the module object, and a default export only if it says so.
  const m = module.__esModule ? `import * as m from '${name}';` : `import m from '${name}';`;
  return `${m}\nexport default ${module.__esModule ? 'm.default' : 'm'};\nexport const { ${names.join(', ')} } = m;`;
}

/** @returns {import('esbuild').Plugin} */
function externalPackages() {
  return {
    name: 'external-packages',
    setup(build) {
      // A bare specifier: `name`, `name/sub`, `@scope/name` or `@scope/name/sub`.
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        const parts = args.path.split('/');
        const name = args.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
        return {
          path: VENDORED.includes(name) && name === args.path ? `#vendor/${name}` : args.path,
          external: true,
        };
      });
    },
  };
}

/** @type {import('esbuild').BuildOptions[]} */
const programs = [
  // The `scriptorium` command: the server, the admin and integrator commands, the console.
  { entryPoints: { scriptorium: 'src/cli/main.ts' }, splitting: true, chunkNames: 'chunks/[name]-[hash]' },
  // A render thread (piscina loads it) and the process that reads sample sheets.
  { entryPoints: { 'render-thread': 'workers/pool-task.ts' } },
  { entryPoints: { 'hand-process': 'workers/hand-process.ts' } },
  // Reads the bundled hands' strokes ahead of time, once the rest is built (below).
  { entryPoints: { 'strokes-ahead': 'workers/strokes-ahead.ts' } },
].map((program) => ({ ...common, ...program }));

/** Each vendored package as one file, its whole API re-exported. */
const vendored = VENDORED.map((name) => ({
  absWorkingDir: root,
  stdin: { contents: reexport(name), resolveDir: root, loader: 'js' },
  // A CommonJS package's `require` of Node's own modules and its `__dirname` (ioredis names it in
  // an error's stack), in an ES module.
  banner: {
    js: [
      "import { createRequire } from 'node:module';",
      "import { dirname as __pathDirname } from 'node:path';",
      "import { fileURLToPath as __fileURLToPath } from 'node:url';",
      'const require = createRequire(import.meta.url);',
      'const __dirname = __pathDirname(__fileURLToPath(import.meta.url));',
    ].join(' '),
  },
  external: NOT_VENDORED.filter((other) => other !== name),
  outfile: `${outdir}/vendor/${name}.js`,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.10',
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
}));

/**
 * The render threads' deflate (native/deflate.c, a Node-API module over libdeflate) compiled into
 * dist/server/native/ with the machine's C compiler and Node's own headers: one file, so no
 * node-gyp. Compiled on every build (a fifth of a second); written only when its bytes change.
 */
function compileNative() {
  const name = 'native/deflate.node';
  const tmp = mkdtempSync(join(tmpdir(), 'scriptorium-native-'));
  const headers = join(dirname(process.execPath), '..', 'include', 'node');
  const cc = spawnSync(
    process.env.CC ?? 'cc',
    [
      '-O2',
      '-fPIC',
      '-shared',
      '-Wall',
      '-Wextra',
      '-Werror',
      `-I${headers}`,
      `${root}native/deflate.c`,
      '-o',
      join(tmp, 'deflate.node'),
      '-ldeflate',
    ],
    { encoding: 'utf8' },
  );
  if (cc.status !== 0) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(
      `build: native/deflate.c did not compile (it needs a C compiler, Node's headers in ${headers} and libdeflate's: on Debian, apt-get install libdeflate-dev)\n${cc.error ?? cc.stderr}`,
    );
  }
  const contents = readFileSync(join(tmp, 'deflate.node'));
  rmSync(tmp, { recursive: true, force: true });
  return { path: join(outdir, name), contents };
}

/**
 * The bundled hands' strokes, read by the built strokes-ahead program into dist/server/strokes/ in
 * two processes (this machine's cores), each hand's file left alone where the program and the font
 * are those it was read with; the hands' slugs.
 */
async function readStrokesAhead() {
  const parts = 2;
  const slugs = await Promise.all(
    Array.from(
      { length: parts },
      (_, part) =>
        new Promise((resolve, reject) => {
          const child = spawn(
            process.execPath,
            [`${outdir}/strokes-ahead.js`, `${outdir}/strokes`, String(part), String(parts)],
            { stdio: ['ignore', 'pipe', 'inherit'] },
          );
          let out = '';
          child.stdout.on('data', (d) => (out += d));
          child.on('error', reject);
          child.on('exit', (code) =>
            code === 0
              ? resolve(out.split('\n').filter(Boolean))
              : reject(new Error(`strokes-ahead exited ${code}`)),
          );
        }),
    ),
  );
  return slugs.flat();
}

if (process.argv.includes('--watch')) {
  putChanged([compileNative()]);
  for (const program of [...programs, ...vendored]) await (await esbuild.context(program)).watch();
  process.stdout.write('build: watching the sources\n');
} else {
  const results = await Promise.all(
    [...programs, ...vendored].map((program) => esbuild.build({ ...program, write: false })),
  );
  const files = [...results.flatMap((r) => r.outputFiles), compileNative()];
  const built = new Set(files.map((file) => relative(outdir, file.path)));
  const changed = putChanged(files);
  const strokes = await readStrokesAhead();
  for (const slug of strokes) built.add(join('strokes', `${slug}.json`));
  const stale = removeStale(outdir, built);
  const scripts = [...built].filter((f) => f.endsWith('.js')).length;
  process.stdout.write(
    `build: ${scripts} files in dist/server (${changed} written, ${stale.length} removed)\n`,
  );
}
