// The piscina task: a render request in, the result out with its bytes transferred, not copied.
import { Piscina } from 'piscina';
import type { ImageCheck, ImageCheckResult, RenderRequest, RenderResult } from '../src/app/ports/renderer.ts';
import { checkImage } from './image-check.ts';
import { renderRequest } from './render-task.ts';

/** What a thread is handed: a render, or an uploaded image to decode. */
export type PoolTask = RenderRequest | { check: ImageCheck };

export default function run(
  task: PoolTask,
): RenderResult | ImageCheckResult | Promise<RenderResult | ImageCheckResult> {
  if ('check' in task) return checkImage(task.check);
  const req = task;
  const result = renderRequest(req);
  const moved = result.ok
    ? (Piscina.move({
        [Piscina.transferableSymbol]: result.bytes.buffer,
        [Piscina.valueSymbol]: result,
      } as never) as unknown as RenderResult)
    : result;
  if (req.output === 'pdf' || req.output === 'svg') return moved;
  // Between tasks piscina keeps the thread blocked, off its event loop: let the loop turn once
  // here, so that the collected images' native memory is freed (workers/native-memory.ts).
  return new Promise((resolve) => setImmediate(() => resolve(moved)));
}
