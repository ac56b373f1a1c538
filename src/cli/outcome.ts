// How a command line ends: every refusal said in one line on stderr with exit code 1 (the
// integrator commands set their own codes; a usage error of theirs is 2). It never exits the
// process. Shared by the `scriptorium` command (run.ts) and the client package's (client-main.ts).
import { type Command, CommanderError } from 'commander';
import { ConfigError, envValue } from '../config/env.ts';
import { Refusal } from '../domain/errors.ts';
import { io } from './io.ts';

/** Runs `program` on `argv` (as process.argv has it: node, the script, then the arguments); sets process.exitCode. */
export async function runProgram(program: Command, argv: readonly string[]): Promise<void> {
  try {
    await program.parseAsync([...argv]);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander has said why (or printed the help or version, exit code 0).
      process.exitCode = err.exitCode;
      return;
    }
    if (err instanceof Refusal || err instanceof ConfigError) {
      io.err(`scriptorium: ${err.message}\n`);
    } else {
      io.err(`scriptorium: ${(err as Error).message ?? String(err)}\n`);
      if (envValue('DEBUG')) console.error(err);
    }
    process.exitCode = 1;
  }
}
