// Packs the typed client alone for another project: a package named `scriptorium` whose entry
// is `scriptorium/client` (dist/client, built by `npm run build:client`) and whose command is the
// integrator's (`scriptorium generate|render|batch`: src/cli/client-main.ts bundled with commander
// into dist/cli.js), with no dependencies, written to dist/scriptorium-client.tgz. Another project
// installs it with `npm install <checkout>/dist/scriptorium-client.tgz` (docs/client.md).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export function packClient(): string {
  const built = join(ROOT, 'dist/client/index.js');
  if (!existsSync(built)) throw new Error('dist/client is not built: run npm run build:client first');
  const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    version: string;
    license: string;
    engines: Record<string, string>;
    exports: Record<string, unknown>;
  };
  const stage = mkdtempSync(join(tmpdir(), 'scriptorium-client-pack-'));
  try {
    cpSync(join(ROOT, 'dist/client'), join(stage, 'dist/client'), { recursive: true });
    // The command: one file, commander inside it, the service's packages nowhere near it.
    const built = esbuild.buildSync({
      absWorkingDir: ROOT,
      entryPoints: ['src/cli/client-main.ts'],
      outfile: join(stage, 'dist/cli.js'),
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.10',
      banner: {
        js: "#!/usr/bin/env node\nimport { createRequire as __req } from 'node:module'; const require = __req(import.meta.url);",
      },
      legalComments: 'none',
      metafile: true,
      logLevel: 'warning',
    });
    const inputs = Object.keys(built.metafile!.inputs);
    const strays = inputs.filter(
      (f) => !/^(src\/(cli|client|config|domain|lib)\/|node_modules\/commander\/)/.test(f),
    );
    if (strays.length) throw new Error(`the client's command would carry ${strays.slice(0, 5).join(', ')}`);
    writeFileSync(
      join(stage, 'package.json'),
      `${JSON.stringify(
        {
          name: 'scriptorium',
          version: own.version,
          description:
            "Scriptorium's typed client: every endpoint of the API, with nothing but Node's fetch.",
          license: own.license,
          type: 'module',
          engines: { node: '>=20.10' },
          exports: { './client': own.exports['./client'], './package.json': './package.json' },
          bin: { scriptorium: 'dist/cli.js' },
          files: ['dist/client', 'dist/cli.js'],
        },
        null,
        2,
      )}\n`,
    );
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', stage], {
      cwd: stage,
      encoding: 'utf8',
    });
    const { filename } = (JSON.parse(out) as { filename: string }[])[0]!;
    const target = join(ROOT, 'dist', 'scriptorium-client.tgz');
    renameSync(join(stage, filename), target);
    return target;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(packClient());
