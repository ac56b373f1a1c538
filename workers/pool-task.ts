// The piscina task: a render request in, the result out with its bytes transferred, not copied.
import { workerData } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type {
  FontCheck,
  FontCheckResult,
  ImageCheck,
  ImageCheckResult,
  RenderRequest,
  RenderResult,
} from '../src/app/ports/renderer.ts';
import { forgetFont, setFontCacheBytes } from '../src/render/index.ts';
import { releaseFontMemory } from './native-memory.ts';
import { checkFont } from './font-check.ts';
import { checkImage } from './image-check.ts';
import { renderRequest } from './render-task.ts';

/** What the pool tells each thread as it starts. */
export interface PoolWorkerData {
  fontCacheBytes: number | undefined;
}

/** Fonts dropped from every thread, numbered in the order they were dropped. */
export type Forgotten = readonly { seq: number; id: string }[];

/** What a thread is handed: a render, an uploaded image or font to check; and the fonts dropped lately. */
export type PoolTask = (RenderRequest | { check: ImageCheck } | { checkFont: FontCheck }) & {
  forgotten?: Forgotten;
};

const data = workerData as PoolWorkerData | undefined;
if (data?.fontCacheBytes) setFontCacheBytes(data.fontCacheBytes);
/** The last dropped font this thread has dropped too. */
let forgottenUpTo = 0;

export default function run(
  task: PoolTask,
): RenderResult | ImageCheckResult | Promise<RenderResult | ImageCheckResult | FontCheckResult> {
  let dropped = false;
  for (const f of task.forgotten ?? [])
    if (f.seq > forgottenUpTo) {
      dropped = forgetFont(f.id) || dropped;
      forgottenUpTo = f.seq;
    }
  if (dropped) releaseFontMemory();
  if ('check' in task) return checkImage(task.check);
  // The font checked is dropped and collected: its finalizers run as the loop turns.
  if ('checkFont' in task)
    return checkFont(task.checkFont).then((result) =>
      // The file goes back as it came: moved, not copied.
      afterTurn(result.ok ? moving(result, result.bytes) : result),
    );
  const req = task;
  const result = renderRequest(req);
  const moved = result.ok ? moving(result, result.bytes) : result;
  if ((req.output === 'pdf' || req.output === 'svg') && !dropped) return moved;
  return afterTurn(moved);
}

/** `result`, with the memory of `bytes` moved to the caller rather than copied. */
function moving<T>(result: T, bytes: Uint8Array): T {
  return Piscina.move({
    [Piscina.transferableSymbol]: bytes.buffer,
    [Piscina.valueSymbol]: result,
  } as never) as unknown as T;
}

/**
 * Between tasks piscina keeps the thread blocked, off its event loop: the loop turns once here,
 * so that what was collected (images' native memory, dropped fonts) is freed by its finalizers.
 */
function afterTurn<T>(value: T): Promise<T> {
  return new Promise((resolve) => setImmediate(() => resolve(value)));
}
