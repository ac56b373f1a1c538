// The server runs only where its HTTP transport has a native build (Node 20 here): under Node 24,
// from the package registry, `serve` refuses in one line naming the versions it supports and how
// to run it, before it opens or writes anything.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { NODE_24, node24 } from '../helpers/node24.ts';
import { childEnv, ROOT } from '../helpers/spawn.ts';

t.test('serve refuses to start on Node 24, in one line, having opened nothing', async (t) => {
  const node = node24();
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-runtime-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const data = join(dir, 'data');
  const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(
      node,
      ['bin/scriptorium.js', 'serve'],
      { cwd: ROOT, env: childEnv({ DATA_DIR: data, PORT: '0', DATABASE_URL: '' }) },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
  t.equal(r.code, 1, 'exits 1');
  t.equal(r.stdout, '', 'prints nothing on stdout');
  t.equal(r.stderr.trimEnd().split('\n').length, 1, `one line: ${r.stderr.trim()}`);
  t.match(
    r.stderr,
    new RegExp(
      `^scriptorium: Node ${NODE_24.replaceAll('.', '\\.')} is not supported: .*native builds for Node [\\d, ]*\\b20 on linux-x64.*run scriptorium with Node 20`,
    ),
    'names the versions it supports and how to run it',
  );
  t.notOk(existsSync(data), 'nothing was opened: no data directory');
});

t.test('on Node 20 the same command starts', async (t) => {
  t.equal(process.versions.node.split('.')[0], '20', 'the suite runs on Node 20');
  const { runtimeRefusal } = await import('../../src/api/http/runtime.ts');
  t.equal(runtimeRefusal(), null, 'no refusal on this Node');
});
