// The entry of the process that reads sample sheets (workers/hand-process.ts). A forked process
// is started without the parent's loader flags, so this shim loads the TypeScript through tsx's API.
import { tsImport } from 'tsx/esm/api';

await tsImport('./hand-process.ts', import.meta.url);
