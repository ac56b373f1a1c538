// Sample sheets are read in a process of their own, started when a picture comes and ended once
// it has been idle (HAND_PROCESS_IDLE_MS). Reading a 6 MP photo takes a few hundred MB: OpenCV's
// WebAssembly heap grows to the largest picture and never shrinks, and the C library keeps the
// memory of large buffers freed on a thread for reuse. Only a process's end gives all of it back,
// so the server's resident memory returns to where it was once hands are done with.
import { type ChildProcess, fork } from 'node:child_process';
import { type HandBuildResult, type HandBuildTask, RenderTaskError } from '../src/app/ports/renderer.ts';
import type { HandMessage, HandReply } from './hand-process.ts';
import { programFile } from './programs.ts';

export interface HandRunnerOptions {
  /** How long the process is kept once idle, ms. */
  idleMs: number;
  /** Its old-generation heap, MiB (a task past it is stopped with the process). */
  memoryMb: number;
}

interface Pending {
  /** The process the task was sent to. */
  child: ChildProcess;
  resolve(result: HandBuildResult): void;
  reject(err: Error): void;
}

export class HandRunner {
  private child: ChildProcess | null = null;
  private idle: NodeJS.Timeout | null = null;
  private readonly pending = new Map<number, Pending>();
  private seq = 0;

  constructor(private readonly opts: HandRunnerOptions) {}

  /** Runs one task; past `timeoutMs` the process is ended and the task refused as out of time. */
  run(task: HandBuildTask, timeoutMs: number): Promise<HandBuildResult> {
    const child = this.start();
    const id = ++this.seq;
    return new Promise<HandBuildResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.end(
          child,
          new RenderTaskError(
            'timeout',
            `reading the pictures took longer than ${timeoutMs} ms and was stopped`,
          ),
        );
      }, timeoutMs);
      const settle = () => {
        clearTimeout(timer);
        this.pending.delete(id);
        if (this.pending.size === 0) this.rest();
      };
      this.pending.set(id, {
        child,
        resolve: (r) => {
          settle();
          resolve(r);
        },
        reject: (e) => {
          settle();
          reject(e);
        },
      });
      child.send({ id, task } satisfies HandMessage);
    });
  }

  private start(): ChildProcess {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    if (this.child) return this.child;
    const child = fork(programFile('hand-process'), [], {
      execArgv: [`--max-old-space-size=${this.opts.memoryMb}`, '--enable-source-maps'],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.on('message', (m: HandReply) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      if ('error' in m) p.reject(new RenderTaskError('crash', `reading the pictures failed: ${m.error}`));
      else p.resolve(m.result);
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      // A heap past its limit aborts the process (SIGABRT, or 134 through a shell).
      const err =
        signal === 'SIGABRT' || code === 134
          ? new RenderTaskError(
              'memory',
              `reading the pictures needed more than ${this.opts.memoryMb} MiB and was stopped`,
            )
          : new RenderTaskError('crash', `the process reading the pictures ended (${signal ?? code})`);
      this.refuseAll(child, err);
    });
    child.on('error', () => {});
    this.child = child;
    return child;
  }

  /** No task left: the process goes once it has been idle long enough. */
  private rest(): void {
    if (this.idle) clearTimeout(this.idle);
    const child = this.child;
    this.idle = setTimeout(() => {
      if (child && this.child === child && this.pending.size === 0) {
        this.child = null;
        child.disconnect();
      }
    }, this.opts.idleMs);
    this.idle.unref();
  }

  /** Ends the process now, refusing what it had with `err`. */
  private end(child: ChildProcess, err: Error): void {
    if (this.child === child) this.child = null;
    this.refuseAll(child, err);
    child.kill('SIGKILL');
  }

  /** Refuses the tasks sent to `child`, and only those. */
  private refuseAll(child: ChildProcess, err: Error): void {
    for (const p of [...this.pending.values()]) if (p.child === child) p.reject(err);
  }

  close(): void {
    if (this.idle) clearTimeout(this.idle);
    const child = this.child;
    this.child = null;
    child?.kill('SIGKILL');
  }
}
