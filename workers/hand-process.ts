// The process that reads sample sheets and builds hands from them (workers/hand-runner.ts starts
// it): one task at a time from its parent over IPC, each answered with its result. It keeps
// nothing but what hand-task.ts keeps, and exits when its parent lets go of it.
import type { HandBuildResult, HandBuildTask } from '../src/app/ports/renderer.ts';
import { buildHandTask } from './hand-task.ts';

export type HandMessage = { id: number; task: HandBuildTask };
export type HandReply = { id: number; result: HandBuildResult } | { id: number; error: string };

process.on('message', (m: HandMessage) => {
  buildHandTask(m.task).then(
    (result) => process.send!({ id: m.id, result } satisfies HandReply),
    (err: unknown) =>
      process.send!({ id: m.id, error: (err as Error)?.message ?? String(err) } satisfies HandReply),
  );
});
// The parent gone (or done with it): nothing is left to do.
process.on('disconnect', () => process.exit(0));
