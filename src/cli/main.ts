// The `scriptorium` command's entry (bin/scriptorium.js runs its build): one command line.
import { runCli } from './run.ts';

await runCli(process.argv);
