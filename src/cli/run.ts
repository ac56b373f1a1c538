// Runs one `scriptorium` command line (outcome.ts says how it ends). src/cli/main.ts runs it for
// the command, the unit tests in-process.
import { runProgram } from './outcome.ts';
import { buildProgram } from './program.ts';

/** `argv` as process.argv has it (node, the script, then the arguments); sets process.exitCode. */
export function runCli(argv: readonly string[]): Promise<void> {
  return runProgram(buildProgram(), argv);
}
