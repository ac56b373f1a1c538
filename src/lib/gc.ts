// The collector on demand, for the few places where waiting for V8's own heuristics keeps memory
// V8 does not count as pressing (native images, wasm heaps, large answered bodies). Exposed once
// per process through a V8 flag, and reached from a fresh context (the flag alone adds no global
// to contexts made before it).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');

/** `execution: 'async'` lets V8 collect incrementally alongside the event loop. */
export const collect = runInNewContext('gc') as (options: {
  type: 'minor' | 'major';
  execution?: 'sync' | 'async';
}) => undefined | Promise<void>;
