// CPU time of processes, read from /proc (Linux, 100 ticks a second).
import { readdirSync, readFileSync } from 'node:fs';

const TICK_US = 10_000;

/** utime, stime, cutime and cstime of `pid` in ticks, and its parent; null once it is gone. */
function stat(pid: number): { ppid: number; own: number; children: number } | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return {
      ppid: Number(fields[1]),
      own: Number(fields[11]) + Number(fields[12]),
      children: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return null;
  }
}

/** CPU time (user + system) of these processes so far, in µs. */
export function cpuOf(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) ticks += stat(pid)?.own ?? 0;
  return ticks * TICK_US;
}

/**
 * CPU time in µs of every process below `root` (not `root` itself) but those below `except`,
 * with what their ended children spent: a browser's processes, however many it runs.
 */
export function treeCpu(root: number, except: number[] = []): number {
  const parent = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const s = stat(pid);
    if (!s) continue;
    parent.set(pid, s.ppid);
    ticks.set(pid, s.own + s.children);
  }
  const below = (pid: number, of: number) => {
    for (let p = parent.get(pid); p !== undefined && p > 0; p = parent.get(p)) if (p === of) return true;
    return false;
  };
  let sum = 0;
  for (const [pid, t] of ticks)
    if (below(pid, root) && !except.some((e) => pid === e || below(pid, e))) sum += t;
  return sum * TICK_US;
}
