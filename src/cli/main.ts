// The `scriptorium` command's entry: runs the program (./program.ts) and says every refusal in one
// line on stderr with exit code 1 (the integrator commands set their own codes).
import { ConfigError, envValue } from '../config/index.ts';
import { Refusal } from '../domain/errors.ts';
import { buildProgram } from './program.ts';

try {
  await buildProgram().parseAsync(process.argv);
} catch (err) {
  if (err instanceof Refusal || err instanceof ConfigError) {
    process.stderr.write(`scriptorium: ${err.message}\n`);
  } else {
    process.stderr.write(`scriptorium: ${(err as Error).message ?? String(err)}\n`);
    if (envValue('DEBUG')) console.error(err);
  }
  process.exitCode = 1;
}
