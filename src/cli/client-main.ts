// The command in the client's package (`npx scriptorium generate|render|batch` in a project that
// installed it, docs/client.md): the integrator commands alone, built on the client and bundled
// with commander into one file (scripts/pack-client.ts), nothing of the service with it.
import { Command } from 'commander';
import { batchCommand } from './batch.ts';
import { integratorCommands } from './integrator.ts';
import { runProgram } from './outcome.ts';

const program = new Command()
  .name('scriptorium')
  .description("Scriptorium's integrator commands: make PDFs, images and batches through the API");
integratorCommands(program);
batchCommand(program);
await runProgram(program, process.argv);
