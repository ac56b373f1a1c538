// The checks and the suite of `npm test`, once everything is built (docs/decisions.md, "Tooling"):
// the type check (`npm run typecheck`) and lint (`npm run lint`) run beside the tap suite rather
// than before it. The suite leaves a core idle about a third of its time (its files wait on
// servers, timers and child processes), and the type check, about 50 s of one core here, fills
// it. Their output is printed once the suite has ended; `npm test` fails if any of them failed.
//   node scripts/test.mjs [tap arguments]
import { spawn } from 'node:child_process';

/** Runs `command`, its output kept (or passed through): its exit code and output. */
function run(command, args, { quiet }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let out = '';
    if (quiet) {
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
    }
    child.on('error', (err) => resolve({ code: 1, out: `${out}${err.message}\n` }));
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), out }));
  });
}

const checks = Promise.all([
  run('npm', ['run', '--silent', 'typecheck'], { quiet: true }).then((r) => ({ ...r, name: 'typecheck' })),
  run('npm', ['run', '--silent', 'lint'], { quiet: true }).then((r) => ({ ...r, name: 'lint' })),
]);
const suite = await run('npx', ['tap', ...process.argv.slice(2)], { quiet: false });
let failed = suite.code !== 0;
for (const check of await checks) {
  process.stdout.write(`\n# ${check.name}: ${check.code === 0 ? 'passed' : 'FAILED'}\n${check.out}`);
  if (check.code !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
