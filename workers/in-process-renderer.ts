// The renderer on the caller's own thread, for fast tests: the same render task as the pool's
// threads, without their isolation. A render runs to its end once started (it cannot be
// preempted), so the time limit and a cancel are checked before it starts and when it ends.
import {
  type FontCheck,
  type FontCheckResult,
  type HandBuildResult,
  type HandBuildTask,
  type ImageCheck,
  type ImageCheckResult,
  type Rendered,
  type Renderer,
  type RenderRequest,
  RenderTaskError,
} from '../src/app/ports/renderer.ts';
import { forgetFont } from '../src/render/index.ts';
import { checkFont } from './font-check.ts';
import { buildHandTask } from './hand-task.ts';
import { checkImage } from './image-check.ts';
import { renderRequest } from './render-task.ts';

export class InProcessRenderer implements Renderer {
  private running = 0;
  readonly threads = 1;

  get busy(): number {
    return this.running;
  }

  async run(
    request: RenderRequest,
    opts: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<Rendered> {
    const started = performance.now();
    this.running++;
    try {
      // One turn of the event loop first, as a thread would take: a cancel sent meanwhile wins.
      await new Promise((resolve) => setImmediate(resolve));
      if (opts.signal?.aborted) throw new RenderTaskError('cancelled', 'the task was cancelled');
      const result = renderRequest(request);
      if (opts.signal?.aborted) throw new RenderTaskError('cancelled', 'the task was cancelled');
      if (opts.timeoutMs !== undefined && performance.now() - started > opts.timeoutMs) {
        throw new RenderTaskError(
          'timeout',
          `rendering took longer than ${opts.timeoutMs} ms and was stopped`,
        );
      }
      if (!result.ok) throw new RenderTaskError('render', result.message, result.code);
      return result;
    } finally {
      this.running--;
    }
  }

  checkImage(image: ImageCheck, opts: { timeoutMs?: number } = {}): Promise<ImageCheckResult> {
    return timed('decoding', opts.timeoutMs, async () => checkImage(image));
  }

  checkFont(font: FontCheck, opts: { timeoutMs?: number } = {}): Promise<FontCheckResult> {
    return timed('the font check', opts.timeoutMs, () => checkFont(font));
  }

  buildHand(task: HandBuildTask, opts: { timeoutMs?: number } = {}): Promise<HandBuildResult> {
    return timed('the font build', opts.timeoutMs, () => buildHandTask(task));
  }

  forgetFont(id: string): void {
    forgetFont(id);
  }

  async close(): Promise<void> {}
}

/**
 * `work` after one turn of the event loop (as a thread would take); past `timeoutMs` once it
 * ends, a timeout (it cannot be stopped midway).
 */
async function timed<T>(what: string, timeoutMs: number | undefined, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  await new Promise((resolve) => setImmediate(resolve));
  const result = await work();
  if (timeoutMs !== undefined && performance.now() - started > timeoutMs)
    throw new RenderTaskError('timeout', `${what} took longer than ${timeoutMs} ms and was stopped`);
  return result;
}
