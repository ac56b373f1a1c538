// Packs the typed client alone for another project: a package named `scriptorium` whose only
// entry is `scriptorium/client` (dist/client, built by `npm run build:client`), with no
// dependencies, written to dist/scriptorium-client.tgz. Another project installs it with
// `npm install <checkout>/dist/scriptorium-client.tgz` (docs/client.md).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
          files: ['dist/client'],
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
