// The walls of the house (DESIGN §3), checked on the sources: the environment is read only in
// src/config; the render engine is entered only through its door; nothing asks an adapter what
// it is; the README's layout names what exists.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';

const ROOT = new URL('../../', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return /\.(ts|tsx|mjs|js)$/.test(name) ? [path] : [];
  });
}
const code = (file: string) => readFileSync(join(ROOT, file), 'utf8').replace(/^\s*\/\/.*$/gm, '');
// The client (src/client) is the integrator's code, shipped on its own as `scriptorium/client`: it
// runs in their process, not the service's, so the service's walls below do not hold it; one of
// its own does (it imports nothing of the service).
const CLIENT = sources('src/client');
const PRODUCT = ['src', 'workers', 'tui', 'bin'].flatMap(sources).filter((f) => !CLIENT.includes(f));

/** Each file's imports of files of the project, type-only and dynamic ones too, as paths from the root. */
function importsOf(files: string[]): Map<string, string[]> {
  return new Map(
    files.map((f) => {
      const dir = f.slice(0, f.lastIndexOf('/'));
      const targets = [...code(f).matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)].map((m) => join(dir, m[1]!));
      return [f, targets];
    }),
  );
}

/** Every import circle among `files` (each once, from where the search met it). */
function circlesIn(files: string[], edges: Map<string, string[]>): string[] {
  const circles: string[] = [];
  const path: string[] = [];
  const done = new Set<string>();
  const visit = (f: string) => {
    if (path.includes(f)) {
      circles.push([...path.slice(path.indexOf(f)), f].join(' → '));
      return;
    }
    if (done.has(f)) return;
    path.push(f);
    for (const next of edges.get(f) ?? []) visit(next);
    path.pop();
    done.add(f);
  };
  for (const f of files) visit(f);
  return circles;
}

t.test('process.env is read only in src/config', async (t) => {
  t.ok(PRODUCT.length > 80, `${PRODUCT.length} files read`);
  t.same(
    PRODUCT.filter((f) => !f.startsWith('src/config/') && /process\.env/.test(code(f))),
    [],
  );
});

t.test('the client imports nothing of the service and no package: Node and itself only', async (t) => {
  t.ok(CLIENT.length >= 4, `${CLIENT.length} client files`);
  const imports = CLIENT.flatMap((f) =>
    [...code(f).matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => ({ f, from: m[1]! })),
  );
  t.ok(imports.length > 5, 'imports read');
  t.same(
    imports.filter(({ from }) => !from.startsWith('node:') && !/^\.\/[\w-]+\.ts$/.test(from)),
    [],
  );
});

t.test('the render engine is entered only through src/render/index.ts', async (t) => {
  const outside = [...PRODUCT, ...sources('test/helpers'), 'test/unit/goldens.test.ts'].filter(
    (f) => !f.startsWith('src/render/'),
  );
  t.same(
    outside.filter((f) => /from ['"][./]*(?:src\/)?render\/(?!index\.ts['"])/.test(code(f))),
    [],
  );
});

t.test(
  'the engine shows its stages: text, the hand, the page, writing; each uses only those before it',
  async (t) => {
    const STAGES = ['text', 'hand', 'page', 'write'];
    // At the top: the door, what comes in (spec), what the stages pass each other (the display
    // list, the shapes beneath it) and the small helpers all of them use.
    const TOP = [
      'index.ts',
      'spec.ts',
      'display-list.ts',
      'geometry.ts',
      'prng.ts',
      'color.ts',
      'numbers.ts',
      'vendor.d.ts',
    ];
    const engine = PRODUCT.filter((f) => f.startsWith('src/render/'));
    t.ok(engine.length >= 30, `${engine.length} files of the engine`);
    const stageOf = (f: string) => f.slice('src/render/'.length).split('/');
    t.same(
      engine.filter((f) => {
        const [first, second] = stageOf(f);
        return second === undefined ? !TOP.includes(first!) : !STAGES.includes(first!);
      }),
      [],
      'every file at the top or in a stage',
    );
    for (const stage of STAGES)
      t.ok(
        engine.filter((f) => stageOf(f)[0] === stage).length >= 3,
        `${stage}: ${engine.filter((f) => stageOf(f)[0] === stage).length} files`,
      );
    const rank = (f: string) => {
      const [first, second] = stageOf(f);
      return second === undefined ? -1 : STAGES.indexOf(first!);
    };
    const edges = importsOf(engine);
    t.same(
      [...edges].flatMap(([f, targets]) =>
        targets
          .filter((to) => to.startsWith('src/render/') && !to.endsWith('/index.ts'))
          .filter((to) =>
            rank(f) === -1 ? f !== 'src/render/index.ts' && rank(to) >= 0 : rank(to) > rank(f),
          )
          .map((to) => `${f} → ${to}`),
      ),
      [],
      'a stage imports the top and the stages before it; the top imports no stage (but the door)',
    );
  },
);

t.test('the foundry stands above the engine, behind a door of its own', async (t) => {
  const foundry = PRODUCT.filter((f) => f.startsWith('src/foundry/'));
  t.ok(foundry.includes('src/foundry/index.ts') && foundry.length >= 4, `${foundry.length} files`);
  const outside = [...PRODUCT, ...sources('test/helpers')].filter((f) => !f.startsWith('src/foundry/'));
  t.same(
    outside.filter((f) => /from ['"][./]*(?:src\/)?foundry\/(?!index\.ts['"])/.test(code(f))),
    [],
    'entered only through src/foundry/index.ts',
  );
  t.same(
    PRODUCT.filter((f) => f.startsWith('src/render/') && /foundry\//.test(code(f))),
    [],
    'the engine knows nothing of it',
  );
});

t.test('what happens when a job ends is a use-case of src/app, not wiring', async (t) => {
  for (const wiring of ['src/service.ts', 'src/composition.ts'])
    t.notMatch(code(wiring), /\.batches\.|nextRows|dueRows|feedBatch\(/, `${wiring} holds no batch rule`);
  t.match(code('src/app/batch-feeder.ts'), /export function feedingRunner/, 'the feeder is in src/app');
});

t.test('the golden test imports nothing of the project but the door', async (t) => {
  const imports = [...code('test/unit/goldens.test.ts').matchAll(/from '(\.[^']+)'/g)].map((m) => m[1]);
  t.same(
    imports.filter((p) => p !== '../../src/render/index.ts' && !p!.startsWith('../helpers/')),
    [],
  );
});

t.test('nothing asks an adapter what it is', async (t) => {
  const adapters =
    /instanceof\s+(BullQueue|EmbeddedQueue|S3BlobStore|FsBlobStore|PiscinaRenderer|InProcessRenderer|Redis\w*|Memory\w*)\b/;
  t.same(
    PRODUCT.filter((f) => adapters.test(code(f))),
    [],
  );
});

t.test('adapters are built only in the composition root (an adapter may build its own parts)', async (t) => {
  const built =
    /new\s+(BullQueue|EmbeddedQueue|S3BlobStore|FsBlobStore|PiscinaRenderer|Redis|RedisRateLimiter|RedisRenderQuota|SampleBoard)\b|Store\.open\(/;
  const adapterHomes = ['src/blobs/', 'src/limits/', 'src/queue/', 'src/store/'];
  const product = PRODUCT.filter(
    (f) => f.startsWith('src/') && !adapterHomes.some((home) => f.startsWith(home)),
  );
  t.ok(
    product.includes('src/service.ts') && product.some((f) => f.startsWith('src/app/')),
    'roles and use-cases are read',
  );
  t.ok(built.test(code('src/composition.ts')), 'the root builds them');
  t.same(
    product.filter((f) => f !== 'src/composition.ts' && built.test(code(f))),
    [],
  );
});

t.test(
  'refusals are one type, stores refuse in the domain’s words, one mapper makes every reply',
  async (t) => {
    t.same(
      PRODUCT.filter((f) => /\bApiError\b/.test(code(f))),
      [],
      'no second refusal type: every refusal is a Refusal (src/domain/errors.ts)',
    );
    t.same(
      PRODUCT.filter(
        (f) =>
          f !== 'src/domain/errors.ts' &&
          /class \w+ extends Error\b[^{]*\{[^}]*\b(RefusalKind|ErrorCode|AdminErrorCode)\b/.test(code(f)),
      ),
      [],
      'no other error class carries a refusal kind or a public code',
    );
    const stores = PRODUCT.filter((f) => f.startsWith('src/store/'));
    t.ok(
      stores.some((f) => /new Refusal\(/.test(code(f))),
      'stores throw Refusal',
    );
    t.same(
      stores.filter((f) => /apiRefusal|isDecided|errorCatalog/.test(code(f))),
      [],
      'no store names a public error',
    );
    const api = PRODUCT.filter((f) => f.startsWith('src/api/'));
    t.same(
      api.filter(
        (f) => f !== 'src/api/errors.ts' && /instanceof Refusal|isDecided\(|json: \{ error/.test(code(f)),
      ),
      [],
      'only src/api/errors.ts builds an error reply',
    );
    t.same(
      PRODUCT.filter(
        (f) =>
          f.startsWith('src/') &&
          /class \w+ extends Error/.test(code(f)) &&
          /\b(status|statusCode)\b/.test(code(f)) &&
          f !== 'src/domain/errors.ts',
      ),
      [],
      'no other error class carries a status',
    );
  },
);

t.test(
  'the HTTP layer: one pipeline, one route type, each surface in its folder behind its doors',
  async (t) => {
    const api = PRODUCT.filter((f) => f.startsWith('src/api/'));
    t.ok(api.length >= 30, `${api.length} files of the HTTP layer`);
    const folders = [
      'src/api/http/',
      'src/api/openapi/',
      'src/api/public/',
      'src/api/admin/',
      'src/api/dashboard/',
    ];
    t.same(
      api.filter((f) => f.slice('src/api/'.length).includes('/') && !folders.some((d) => f.startsWith(d))),
      [],
      'every file is in the core or in one of the folders',
    );
    // The doors each surface may name (src/api/types.ts, Door).
    const doors: Record<string, string[]> = {
      'src/api/public/': ['key', 'open'],
      'src/api/admin/': ['admin'],
      'src/api/dashboard/': ['session', 'guest'],
    };
    for (const [folder, allowed] of Object.entries(doors)) {
      const files = api.filter((f) => f.startsWith(folder));
      const named = files.flatMap((f) =>
        [...code(f).matchAll(/Routes<'(\w+)'>|under\([^,]+, '(\w+)'/g)].map((m) => ({
          f,
          door: m[1] ?? m[2]!,
        })),
      );
      t.ok(named.length >= files.length / 2, `${folder}: ${named.length} route lists name their door`);
      t.same(
        named.filter(({ door }) => !allowed.includes(door)),
        [],
        `${folder} routes stand behind ${allowed.join(' or ')}`,
      );
    }
    t.same(
      api.filter((f) => f !== 'src/api/pipeline.ts' && /new Router\(/.test(code(f))),
      [],
      'one router, built by the pipeline',
    );
    t.same(
      api.filter((f) => f !== 'src/api/types.ts' && /interface \w*(Route|Request)\b/.test(code(f))),
      [],
      'one route type and one request type',
    );
    // The ports bundle (deps.ts) names the store, the blobs and the queue for the use-cases it is
    // passed to; nothing else of the layer touches them.
    t.same(
      api.filter(
        (f) =>
          f !== 'src/api/deps.ts' &&
          (/from '[./]*(store|blobs|queue)\//.test(code(f)) || /\b\w+\.(store|blobs|queue)\b/.test(code(f))),
      ),
      [],
      'every read and write goes through a use-case of src/app',
    );
    t.same(
      api.filter((f) => code(f).split('\n').length > 400),
      [],
      'no file of the HTTP layer over 400 lines',
    );
    // Every import between the layer's files, type-only ones too.
    const edges = new Map(
      api.map((f) => {
        const dir = f.slice(0, f.lastIndexOf('/'));
        const targets = [...code(f).matchAll(/from '(\.[^']+)'/g)]
          .map((m) => join(dir, m[1]!))
          .filter((target) => target.startsWith('src/api/'));
        return [f, targets];
      }),
    );
    t.same(
      [...edges].flatMap(([f, targets]) =>
        Object.keys(doors)
          .filter((folder) => !f.startsWith(folder))
          .flatMap((folder) =>
            targets.filter((target) => target.startsWith(folder) && !target.endsWith('/index.ts')),
          )
          .map((target) => `${f} → ${target}`),
      ),
      [],
      'a surface is entered only through its index, and no surface reaches into another',
    );
    t.same(circlesIn(api, edges), [], 'no import circle in src/api');
  },
);

t.test('no import circle anywhere in the product, type-only and dynamic imports counted', async (t) => {
  const edges = importsOf(PRODUCT);
  t.ok([...edges.values()].flat().length > 500, 'imports read');
  t.same(circlesIn(PRODUCT, edges), []);
});

t.test("the console speaks the admin API's wire types, never the store's records", async (t) => {
  const tui = sources('tui');
  const imports = tui.flatMap((f) =>
    [...code(f).matchAll(/from '(\.\.\/src\/[^']+)'/g)].map((m) => `${f} → ${m[1]}`),
  );
  t.ok(imports.length >= 2, `${imports.length} imports of src`);
  t.same(
    imports.filter((i) => !i.endsWith('→ ../src/api/admin/index.ts')),
    [],
    'only src/api/admin (its wire types) is imported',
  );
});

t.test('the unit tier starts no server and no process; the tiers hold every test', async (t) => {
  const unit = sources('test/unit').filter(
    (f) => f.endsWith('.test.ts') && f !== 'test/unit/architecture.test.ts',
  );
  t.ok(unit.length >= 10, `${unit.length} unit tests`);
  const outside =
    /node:child_process|from 'ioredis'|from 'pg'|helpers\/(s3|spawn|cli|services)\.ts|postgresFactory|startTestServer|chromium|\bfetch\(/;
  t.same(
    unit.filter((f) => outside.test(code(f))),
    [],
    'no child process, Redis, PostgreSQL, S3, HTTP server or browser in test/unit',
  );
  const tiers = ['test/unit/', 'test/contract/', 'test/e2e/'];
  t.same(
    sources('test').filter((f) => f.endsWith('.test.ts') && !tiers.some((tier) => f.startsWith(tier))),
    [],
    'every test file is in a tier',
  );
});

t.test("the README's layout names every top-level folder of src, and only folders that exist", async (t) => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const layout = readme.slice(readme.indexOf('## Layout'));
  const block = layout.slice(layout.indexOf('```') + 3, layout.indexOf('```', layout.indexOf('```') + 3));
  const named = block
    .split('\n')
    .map((line) => line.trim().split(/\s+/)[0])
    .filter((w): w is string => !!w);
  t.ok(named.length >= 10, `${named.length} folders named`);
  t.same(
    named.filter((d) => !existsSync(join(ROOT, d))),
    [],
    'every folder named exists',
  );
  const folders = readdirSync(join(ROOT, 'src')).filter((d) => statSync(join(ROOT, 'src', d)).isDirectory());
  t.same(
    folders.map((d) => `src/${d}`).filter((d) => !named.includes(d)),
    [],
    'every folder of src is named',
  );
});

t.test('every file the README names ships with the project', async (t) => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const named = new Set<string>();
  // Links, files given to curl (`@path`), and paths in backticks that look like files or folders of
  // the project (`src/app/demo`, `docs/client.md`, `test/goldens/expected/example-*.png`).
  for (const m of readme.matchAll(/\]\(([^)#\s]+)\)/g)) if (!/^https?:/.test(m[1]!)) named.add(m[1]!);
  for (const m of readme.matchAll(/--data-binary @(\S+)/g)) named.add(m[1]!);
  for (const m of readme.matchAll(/`((?:src|docs|bench|test|scripts|tui|workers|dashboard|bin)\/[^`\s]*)`/g))
    named.add(m[1]!);
  t.ok(named.size >= 15, `${named.size} paths named`);
  const missing = [...named].filter((p) => {
    if (!p.includes('*')) return !existsSync(join(ROOT, p));
    // A glob names files of a folder: at least one must match.
    const dir = p.slice(0, p.lastIndexOf('/'));
    const re = new RegExp(
      `^${p
        .slice(dir.length + 1)
        .replaceAll('.', '\\.')
        .replaceAll('*', '.*')}$`,
    );
    return !existsSync(join(ROOT, dir)) || !readdirSync(join(ROOT, dir)).some((f) => re.test(f));
  });
  t.same(missing, [], 'each exists in the checkout');
});
