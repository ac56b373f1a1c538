// Piscina entry point. Worker threads do not inherit the tsx loader, so this shim loads the
// TypeScript task module through tsx's API; the task itself is workers/pool-task.ts.
import { tsImport } from 'tsx/esm/api';

const task = await tsImport('./pool-task.ts', import.meta.url);

export default task.default;
