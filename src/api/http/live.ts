// The operator's live figures over a WebSocket: each listener admitted through the admin door,
// sent the figures at once and then every `everyMs` to all at one go.
import type { TemplatedApp, WebSocket } from 'uWebSockets.js';
import { type ApiRequest, JSON_TYPE, type Reply } from '../types.ts';
import { copyRequest, type Origin, STATUS_TEXT } from './request.ts';
import { createRequire } from 'node:module';

const uWS = createRequire(import.meta.url)('uWebSockets.js') as typeof import('uWebSockets.js');

/** A WebSocket path that pushes a JSON message to every listener each `everyMs` (the live figures). */
export interface LiveFeed {
  path: string;
  /** Null when the upgrade may listen, else the refusal to answer it with. */
  admit(req: ApiRequest): Promise<Reply | null>;
  /** The message of this moment, sent at once to a new listener and to all every `everyMs`. */
  message(): Promise<string>;
  everyMs: number;
  onError(err: unknown): void;
}

const TOPIC = 'live';

/** Serves `live` on `app`; `stop` ends every listener. */
export function serveLive(app: TemplatedApp, live: LiveFeed, from: Origin): { stop(): void } {
  const sockets = new Set<WebSocket<unknown>>();
  let sending = false;
  const ticker = setInterval(() => {
    if (sockets.size === 0 || sending) return;
    sending = true;
    live
      .message()
      .then((m) => app.publish(TOPIC, m))
      .catch(live.onError)
      .finally(() => {
        sending = false;
      });
  }, live.everyMs);
  ticker.unref();
  app.ws(live.path, {
    compression: uWS.DISABLED,
    maxPayloadLength: 4096,
    idleTimeout: 120,
    upgrade: (res, r, context) => {
      const { req } = copyRequest(res, r, from);
      const key = r.getHeader('sec-websocket-key');
      const protocol = r.getHeader('sec-websocket-protocol');
      const extensions = r.getHeader('sec-websocket-extensions');
      let aborted = false;
      res.onAborted(() => {
        aborted = true;
      });
      live
        .admit({ ...req, body: Buffer.alloc(0) })
        .then((refusal) => {
          if (aborted) return;
          res.cork(() => {
            if (!refusal) {
              res.upgrade({}, key, protocol, extensions, context);
              return;
            }
            res.writeStatus(`${refusal.status} ${STATUS_TEXT[refusal.status] ?? ''}`);
            res.writeHeader('Content-Type', JSON_TYPE);
            for (const [k, v] of Object.entries(refusal.headers ?? {})) res.writeHeader(k, v);
            res.end(JSON.stringify(refusal.json));
          });
        })
        .catch(live.onError);
    },
    open: (ws) => {
      sockets.add(ws);
      ws.subscribe(TOPIC);
      live
        .message()
        .then((m) => {
          if (sockets.has(ws)) ws.send(m);
        })
        .catch(live.onError);
    },
    close: (ws) => {
      sockets.delete(ws);
    },
  });
  return {
    stop() {
      clearInterval(ticker);
      for (const ws of sockets) ws.end(1001, 'server stopping');
      sockets.clear();
    },
  };
}
