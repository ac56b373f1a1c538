// The command line describes itself: every leaf command says what it does in its help, and the
// program knows its version (the package's).
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import t from 'tap';
import { buildProgram } from '../../src/cli/program.ts';

function leaves(cmd: Command, path: string[] = []): { path: string; description: string }[] {
  const here = [...path, cmd.name()];
  if (cmd.commands.length === 0) return [{ path: here.join(' '), description: cmd.description() }];
  return cmd.commands.flatMap((c) => leaves(c, here));
}

t.test('every leaf command has a description', async (t) => {
  const all = leaves(buildProgram());
  t.ok(all.length >= 20, `${all.length} commands`);
  t.same(
    all.filter((c) => c.description.trim().length < 10).map((c) => c.path),
    [],
    'none without one',
  );
});

t.test('--version is the package version', async (t) => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  t.equal(buildProgram().version(), `scriptorium ${pkg.version}`);
});
