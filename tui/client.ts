// The operator console's side of the admin API: JSON calls with the admin token, and the live
// feed over a WebSocket that comes back by itself when the server restarts.
import WebSocket from 'ws';
import type { AdminSnapshot as Snapshot } from '../src/api/admin/index.ts';

export class AdminCallError extends Error {}

export class AdminClient {
  constructor(
    readonly url: string,
    private readonly token: string,
  ) {}

  async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.url}/admin/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      throw new AdminCallError(`the server does not answer (${(err as Error).message})`);
    }
    const json = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    if (!res.ok) throw new AdminCallError(json?.error?.message ?? `HTTP ${res.status}`);
    return json as T;
  }

  /** The live feed; calls `onState` on every change and `onSnapshot` for each snapshot. Returns a stop function. */
  live(handlers: { onSnapshot(s: Snapshot): void; onState(s: LiveState): void }, retryMs = 1000): () => void {
    const wsUrl = `${this.url.replace(/^http/, 'ws')}/admin/v1/live`;
    let stopped = false;
    let socket: WebSocket | null = null;
    let timer: NodeJS.Timeout | null = null;
    let attempts = 0;
    let everConnected = false;
    let refusedFor: number | null = null;
    const connect = () => {
      if (stopped) return;
      const ws = new WebSocket(wsUrl, { headers: { authorization: `Bearer ${this.token}` } });
      socket = ws;
      ws.on('open', () => {
        attempts = 0;
        handlers.onState({ status: 'live', reconnected: everConnected });
        everConnected = true;
      });
      ws.on('message', (data) => {
        const m = JSON.parse(String(data)) as { type: string; snapshot: Snapshot };
        if (m.type === 'snapshot') handlers.onSnapshot(m.snapshot);
      });
      ws.on('unexpected-response', (_req, res) => {
        const refusal = refusalOf(res.statusCode ?? 0, res.headers['retry-after']);
        refusedFor = refusal.waitMs;
        handlers.onState({ status: 'refused', message: refusal.message });
        ws.terminate();
      });
      ws.on('error', () => {});
      ws.on('close', () => {
        if (stopped) return;
        attempts++;
        // A refusal stays on screen until the next try, which waits long enough not to be
        // taken for guessing (the server shuts out a source of 10 wrong tokens a minute).
        if (refusedFor !== null) {
          timer = setTimeout(connect, Math.max(retryMs, refusedFor));
          refusedFor = null;
          return;
        }
        handlers.onState({ status: 'reconnecting', attempts, wasLive: everConnected });
        timer = setTimeout(connect, retryMs);
      });
    };
    handlers.onState({ status: 'connecting' });
    connect();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      socket?.terminate();
    };
  }
}

/** Milliseconds between tries while the server refuses the token. */
export const REFUSED_RETRY_MS = 15_000;

/** What the server's refusal of the live socket means to the operator, and when to try again. */
export function refusalOf(
  status: number,
  retryAfter?: string | string[],
): { message: string; waitMs: number } {
  if (status === 401) return { message: 'the admin token is wrong', waitMs: REFUSED_RETRY_MS };
  if (status === 429) {
    const wait = Number(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter) || 60;
    return {
      message: `too many wrong tokens from this address; shut out for ${wait} s`,
      waitMs: wait * 1000,
    };
  }
  if (status === 404)
    return { message: 'the server has no ADMIN_TOKEN, its admin API is off', waitMs: REFUSED_RETRY_MS };
  return { message: `HTTP ${status}`, waitMs: REFUSED_RETRY_MS };
}

export type LiveState =
  | { status: 'connecting' }
  | { status: 'live'; reconnected: boolean }
  | { status: 'reconnecting'; attempts: number; wasLive: boolean }
  | { status: 'refused'; message: string };
