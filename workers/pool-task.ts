// The piscina task: a render request in, the result out with its bytes transferred, not copied.
import { Piscina } from 'piscina';
import type { RenderRequest, RenderResult } from '../src/app/ports/renderer.ts';
import { renderRequest } from './render-task.ts';

export default function run(req: RenderRequest): RenderResult | Promise<RenderResult> {
  const result = renderRequest(req);
  const moved = result.ok
    ? (Piscina.move({
        [Piscina.transferableSymbol]: result.bytes.buffer,
        [Piscina.valueSymbol]: result,
      } as never) as unknown as RenderResult)
    : result;
  if (req.output !== 'png' && req.output !== 'preview') return moved;
  // Between tasks piscina keeps the thread blocked, off its event loop: let the loop turn once
  // here, so that the collected images' native memory is freed (workers/native-memory.ts).
  return new Promise((resolve) => setImmediate(() => resolve(moved)));
}
