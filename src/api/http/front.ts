// The framing check in front of the transport: a plain TCP server on the public port that reads
// every request head (src/api/framing.ts), refuses what is ambiguous, turns HTTP/1.0 and
// absolute-form targets into the HTTP/1.1 the transport speaks, and passes the bytes on over a
// Unix socket. Requests on one connection go on one at a time (the transport drops a connection
// that sends a request while an earlier one is still being answered), so responses are followed
// to their end too. A refusal is sent through the transport as a request of its own, marked with
// a per-process secret, so it is answered in order and in the API's error format.
import net from 'node:net';
import { type FrontOptions, Link } from './link.ts';

export type { FrontOptions } from './link.ts';

export interface Front {
  readonly port: number;
  /** Stops accepting; connections close once their request is answered (or after `graceMs`). */
  close(graceMs: number): Promise<void>;
}

export function listenFront(opts: FrontOptions): Promise<Front> {
  const links = new Set<Link>();
  let allGone: (() => void) | null = null;
  const server = net.createServer({ allowHalfOpen: true, noDelay: true }, (c) => {
    const u = net.connect({ path: opts.upstream, allowHalfOpen: true });
    const link = new Link(c, u, opts, () => {
      links.delete(link);
      if (links.size === 0) allGone?.();
    });
    links.add(link);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      const address = server.address() as net.AddressInfo;
      resolve({
        port: address.port,
        close(graceMs) {
          server.close();
          for (const link of links) {
            link.closing = true;
            if (link.idle) link.destroy();
          }
          if (links.size === 0) return Promise.resolve();
          return new Promise<void>((done) => {
            const timer = setTimeout(() => {
              for (const link of links) link.destroy();
              done();
            }, graceMs);
            allGone = () => {
              clearTimeout(timer);
              done();
            };
          });
        },
      });
    });
  });
}
