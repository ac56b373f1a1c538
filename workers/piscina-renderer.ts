// The renderer of the service: piscina worker threads (POOL_THREADS, default 2) running
// workers/render.mjs. Each task has a time limit (RENDER_TIMEOUT_MS, default 60 s) and the
// workers a heap limit; a task past either is ended with its worker, reported as a failure, and
// the pool carries on with a fresh worker. Tasks wait for a free thread here, in arrival order,
// and their time limit starts when a thread takes them: a caller may hand over more tasks than
// there are threads (the next job ready while the last one is being stored) without a waiting
// task spending its time. Sample-sheet pictures are read in a process of their own
// (workers/hand-runner.ts), which takes one of the pool's turns while it works.
import { Piscina } from 'piscina';
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
  type RenderResult,
  RenderTaskError,
} from '../src/app/ports/renderer.ts';
import { descriptors, tuneImageAllocator } from '../src/config/index.ts';
import { HandRunner } from './hand-runner.ts';
import { tuneRenderHeap } from './heap.ts';
import { programFile } from './programs.ts';
import type { Forgotten, PoolTask, PoolWorkerData } from './pool-task.ts';

/** Dropped fonts each task carries: a thread idle through more drops than this leaves the rest to its cache's bound. */
const FORGOTTEN_KEPT = 64;

export interface PiscinaRendererOptions {
  threads: number;
  timeoutMs: number;
  /** Old-generation heap per worker, MiB. */
  memoryMb: number;
  /** Young generation of each worker's heap, MiB (RENDER_YOUNG_MB's default when absent): larger collects less often, holds more. */
  youngMb?: number;
  /** Bytes of font files each thread's font cache may hold (src/render/text/fonts.ts); the engine's default else. */
  fontCacheBytes?: number;
  /** The worker module; the render task by default. */
  filename?: string;
  /** Told of a worker failure no task reports (one dying as it starts, or idle). */
  onWorkerError?: (err: Error) => void;
  /** How long the process that reads sample-sheet pictures is kept once idle, ms (30 s by default). */
  handIdleMs?: number;
}

export class PiscinaRenderer implements Renderer {
  private pool: Piscina;
  /** The process that reads sample sheets (none until a picture comes, and when idle). */
  private readonly hands: HandRunner;
  /** Hand tasks one after another: a second waits here, not on a turn of the pool's. */
  private handTurn: Promise<unknown> = Promise.resolve();
  private readonly watchdog: NodeJS.Timeout;
  private starved = false;
  private running = 0;
  /** Tasks holding a thread now, and those waiting for one, first come first served. */
  private onThreads = 0;
  private readonly waiting: (() => void)[] = [];
  private forgotten: Forgotten = [];
  private forgetSeq = 0;

  constructor(private readonly opts: PiscinaRendererOptions) {
    // Before any worker loads the image renderer (workers/native-memory.ts says why).
    tuneImageAllocator();
    tuneRenderHeap();
    this.pool = this.create();
    // Piscina stops replacing workers once a replacement fails while starting (for example a
    // fresh worker meeting the heap limit as it loads), and tasks then wait in its queue for
    // ever. A pool found twice in a row with queued tasks and no worker at all is replaced; its
    // tasks run again on the new one (see run()). While tasks run it also keeps the process
    // alive: a worker being replaced holds no handle of its own.
    this.watchdog = setInterval(() => {
      const stuck = this.pool.queueSize > 0 && this.pool.threads.length === 0;
      if (stuck && this.starved) this.replace();
      this.starved = stuck;
    }, 1000).unref();
    this.hands = new HandRunner({ idleMs: opts.handIdleMs ?? 30_000, memoryMb: opts.memoryMb });
  }

  private create(): Piscina {
    const pool = new Piscina({
      filename: this.opts.filename ?? programFile('render-thread'),
      // Threads do not share the process's source-map setting: their stack traces name .ts lines too.
      // And the thread's program is imported, not required: Piscina tries require() first, and
      // Node 20 ends the whole process (a fatal error in v8::Module::IsGraphAsync) when a thread
      // is stopped (a render over its time limit) while require() links an ES module; import()
      // stops with an error of the thread alone.
      execArgv: ['--enable-source-maps', '--no-experimental-require-module'],
      minThreads: this.opts.threads,
      maxThreads: this.opts.threads,
      idleTimeout: 60_000,
      resourceLimits: {
        maxOldGenerationSizeMb: this.opts.memoryMb,
        maxYoungGenerationSizeMb: this.opts.youngMb ?? descriptors.renderYoungMb.default,
      },
      workerData: { fontCacheBytes: this.opts.fontCacheBytes } satisfies PoolWorkerData,
    });
    // A worker that dies with a task is reported through that task; one that dies without (while
    // starting, or idle) comes here, where an unheard error event would end the process.
    pool.on('error', (err: Error) => this.opts.onWorkerError?.(err));
    return pool;
  }

  private replace(): void {
    const old = this.pool;
    this.pool = this.create();
    this.starved = false;
    this.opts.onWorkerError?.(new Error('the render pool had tasks waiting and no worker: replaced'));
    void old.destroy();
  }

  /** Threads running a task now (tasks waiting for one are not counted). */
  get busy(): number {
    return this.onThreads;
  }

  get threads(): number {
    return this.pool.threads.length;
  }

  forgetFont(id: string): void {
    this.forgotten = [...this.forgotten.slice(1 - FORGOTTEN_KEPT), { seq: ++this.forgetSeq, id }];
  }

  /** Runs a task; `signal` stops it early (a cancelled job), which ends its worker. */
  async run(task: RenderRequest, opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<Rendered> {
    const result = await this.submit<RenderResult>(task, opts.timeoutMs ?? this.opts.timeoutMs, opts.signal);
    if (!result.ok) throw new RenderTaskError('render', result.message, result.code);
    return result;
  }

  /** Parses an uploaded font and writes its sample line on a thread of the pool, under its limits. */
  checkFont(font: FontCheck, opts: { timeoutMs?: number } = {}): Promise<FontCheckResult> {
    // The file is moved to the thread, not copied (it comes back in the result): a font is up to
    // 20 MiB, and each copy is memory the allocator may keep.
    const own =
      font.bytes.byteOffset === 0 && font.bytes.byteLength === font.bytes.buffer.byteLength
        ? font.bytes
        : new Uint8Array(font.bytes);
    return this.submit<FontCheckResult>(
      { checkFont: { ...font, bytes: own } },
      opts.timeoutMs ?? this.opts.timeoutMs,
      undefined,
      [own.buffer as ArrayBuffer],
    );
  }

  /**
   * Reads filled sample-sheet pages and builds a font from them in the hand process, under the
   * pool's time and heap limits; it takes one of the pool's turns while it runs, so the tasks at
   * work never outnumber POOL_THREADS.
   */
  buildHand(task: HandBuildTask, opts: { timeoutMs?: number } = {}): Promise<HandBuildResult> {
    const run = async () => {
      await this.thread();
      try {
        return await this.hands.run(task, opts.timeoutMs ?? this.opts.timeoutMs);
      } finally {
        this.leaveThread();
      }
    };
    const mine = this.handTurn.then(run, run);
    this.handTurn = mine.catch(() => {});
    return mine;
  }

  /** Decodes an uploaded image on a thread of the pool, under its time and heap limits. */
  checkImage(image: ImageCheck, opts: { timeoutMs?: number } = {}): Promise<ImageCheckResult> {
    return this.submit<ImageCheckResult>({ check: image }, opts.timeoutMs ?? this.opts.timeoutMs);
  }

  /** One task on the pool, counted as busy while it runs. */
  private async submit<R>(
    task: PoolTask,
    limit: number,
    cancel?: AbortSignal,
    transferList?: ArrayBuffer[],
  ): Promise<R> {
    if (this.running++ === 0) this.watchdog.ref();
    try {
      return await this.attempt<R>(task, limit, cancel, transferList).catch(async (err: unknown) => {
        // A task that met a worker already being torn down (after another task's failure), or
        // that waited in a pool being replaced, is not at fault: it runs once more on a fresh worker.
        if (
          err instanceof RenderTaskError &&
          err.reason === 'crash' &&
          /Terminating worker thread/.test(err.message)
        )
          return this.attempt<R>(task, limit, cancel, transferList);
        throw err;
      });
    } finally {
      if (--this.running === 0) this.watchdog.unref();
    }
  }

  /** Waits for a free thread, in arrival order; a task cancelled while it waits never takes one. */
  private async thread(cancel?: AbortSignal): Promise<void> {
    if (this.onThreads < this.opts.threads) {
      this.onThreads++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const take = () => {
        cancel?.removeEventListener('abort', drop);
        this.onThreads++;
        resolve();
      };
      const drop = () => {
        const at = this.waiting.indexOf(take);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(new RenderTaskError('cancelled', 'the task was cancelled'));
      };
      if (cancel?.aborted) return drop();
      cancel?.addEventListener('abort', drop, { once: true });
      this.waiting.push(take);
    });
  }

  private leaveThread(): void {
    this.onThreads--;
    this.waiting.shift()?.();
  }

  private async attempt<R>(
    task: PoolTask,
    limit: number,
    cancel?: AbortSignal,
    transferList?: ArrayBuffer[],
  ): Promise<R> {
    await this.thread(cancel);
    const timeout = AbortSignal.timeout(limit);
    try {
      const sent = this.forgotten.length ? { ...task, forgotten: this.forgotten } : task;
      return (await this.pool.run(sent, {
        signal: cancel ? AbortSignal.any([timeout, cancel]) : timeout,
        ...(transferList ? { transferList } : {}),
      })) as R;
    } catch (err) {
      const e = err as Error & { code?: string; name?: string };
      if (cancel?.aborted) throw new RenderTaskError('cancelled', 'the task was cancelled');
      if (e.name === 'TimeoutError' || e.name === 'AbortError') {
        throw new RenderTaskError('timeout', `rendering took longer than ${limit} ms and was stopped`);
      }
      if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new RenderTaskError(
          'memory',
          `rendering needed more than ${this.opts.memoryMb} MiB and was stopped`,
        );
      }
      throw new RenderTaskError('crash', `the render worker failed: ${e.message}`);
    } finally {
      this.leaveThread();
    }
  }

  async close(): Promise<void> {
    clearInterval(this.watchdog);
    this.hands.close();
    await this.pool.destroy();
  }
}
