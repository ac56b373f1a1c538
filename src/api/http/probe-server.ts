// The small HTTP port of a worker process (PROBE_PORT): GET /health, /ready and /metrics, the
// same answers the API port gives (the pipeline answers them), so an orchestrator can probe and
// Prometheus can scrape a process that serves no API. Anything else is 404.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { newId } from '../../lib/ids.ts';
import type { Api } from '../pipeline.ts';
import { HEALTH_PATH, METRICS_PATH, READY_PATH } from '../surfaces.ts';
import { JSON_TYPE } from '../types.ts';

const PATHS = [HEALTH_PATH, READY_PATH, METRICS_PATH];

export interface ProbeServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function listenProbes(api: Api, opts: { host: string; port: number }): Promise<ProbeServer> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://probe');
    if (!PATHS.includes(url.pathname) || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': JSON_TYPE }).end(
        JSON.stringify({
          error: { code: 'ENDPOINT_NOT_FOUND', message: `this port answers GET ${PATHS.join(', ')}` },
        }),
      );
      req.resume();
      return;
    }
    req.resume();
    void api
      .handle({
        id: newId('req'),
        method: req.method,
        path: url.pathname,
        query: url.search.slice(1),
        headers: Object.fromEntries(
          Object.entries(req.headers).filter((e): e is [string, string | string[]] => e[1] !== undefined),
        ),
        body: Buffer.alloc(0),
        receivedAt: new Date(),
        peer: () => req.socket.remoteAddress ?? '',
      })
      .then((reply) => {
        const body = reply.raw ? reply.raw.bytes : JSON.stringify(reply.json);
        res.writeHead(reply.status, {
          ...reply.headers,
          'content-type': reply.raw?.contentType ?? JSON_TYPE,
          'cache-control': 'no-store',
          'content-length': String(Buffer.byteLength(body)),
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(
              `PROBE_PORT ${opts.port} is in use on ${opts.host} (another worker on this host?): give each worker a PROBE_PORT of its own, or PROBE_PORT=0 for any free port (printed at start)`,
            )
          : err,
      ),
    );
    server.listen(opts.port, opts.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
