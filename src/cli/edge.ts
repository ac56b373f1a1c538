// The edge in front of a farm's API processes (DESIGN §4c): `scriptorium edge` writes the
// configuration of Debian's HAProxy 2.6 for one address that balances the API processes, checks
// each on /ready, limits connections, heads and bodies, and hands uWebSockets.js only requests it
// reads one way: HTTP/1.1 with a Host, one length, `chunked` as the only transfer coding, header
// names of letters, digits and `-`, and the methods the API knows. The API processes behind it run
// with FRAMING_CHECK=false, TRUSTED_PROXIES set to the edge's address and STOP_DELAY_MS above
// two check intervals (docs/operations.md).

import { MAX_FIELDS } from '../api/http/framing.ts';
import { FONT_MAX_BYTES } from '../domain/fonts.ts';
import type { Config } from '../config/index.ts';

export interface EdgeOptions {
  /** Address and port clients connect to. */
  host: string;
  port: number;
  /** The API processes, `host:port` each. */
  apis: readonly string[];
  /** Connections the edge holds open at once; more wait in the kernel's backlog. */
  maxConnections: number;
  /** How often each API process is asked for /ready; two failures take it out, two passes back. */
  checkMs: number;
  /** The largest body any route takes (a font upload); a larger declared length is refused here. */
  maxBodyBytes: number;
  /** Header fields a request may carry (what the transport takes, less the edge's own). */
  maxHeaderFields: number;
}

/** `127.0.0.1:8081` or `[::1]:8081`; null when it is neither. */
export function parseAddress(text: string): { host: string; port: number } | null {
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(text.trim());
  if (!m) return null;
  const port = Number(m[2]);
  return port >= 1 && port <= 65535 ? { host: m[1]!, port } : null;
}

/** A JSON error body of the API's shape, as an HAProxy log-format string (single-quoted). */
function errorBody(message: string, field?: string): string {
  const tail = field ? `,"field":"${field}"` : '';
  return `'{"error":{"code":"INVALID_REQUEST","message":"${message}","requestId":"%[unique-id]"${tail}}}'`;
}

/** An answer the edge gives itself, in the API's error format and with a request id. */
function refuse(status: number, message: string, field: string | undefined, condition: string): string {
  return `  http-request return status ${status} content-type "application/json; charset=utf-8" hdr X-Request-ID %[unique-id] hdr Cache-Control no-store hdr Connection close lf-string ${errorBody(message, field)} ${condition}`;
}

export function edgeConfig(o: EdgeOptions): string {
  for (const api of o.apis)
    if (!parseAddress(api)) throw new Error(`an API process is host:port, got "${api}"`);
  const hop = `abns@scriptorium-edge-${o.port}-http10`;
  const bind = o.host.includes(':') ? `[${o.host}]:${o.port}` : `${o.host}:${o.port}`;
  const servers = o.apis.map((a, i) => `  server api${i + 1} ${a}`);
  return `# Written by \`scriptorium edge\`; run with: haproxy -f THIS_FILE
global
  maxconn ${o.maxConnections}
  # Heads: at most ${o.maxHeaderFields} fields in a buffer of 16 KiB (less 1 KiB kept for rewrites).
  tune.bufsize 16384
  tune.http.maxhdr ${o.maxHeaderFields}
  log stderr format raw daemon info

defaults
  mode http
  log global
  # Only what went wrong is logged here; each API process writes an access line per request.
  option httplog
  option dontlog-normal
  timeout connect 5s
  timeout client 60s
  timeout server 300s
  timeout http-request 10s
  timeout http-keep-alive 60s
  timeout tunnel 1h
  # Header names of other characters than letters, digits and "-" (X_Trace, X.Trace) are dropped:
  # the API reads none of them, and the transport behind would drop the whole request.
  option http-restrict-req-hdr-names delete
  # A request that never reached a process (refused connection, process gone) goes to another.
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response response-timeout
  unique-id-format req_%[uuid,regsub(-,,g)]

frontend api
  bind ${bind}
  maxconn ${o.maxConnections}
  # Every answer carries a request id: the API's own, or the edge's when the edge answers.
  http-after-response set-header X-Request-ID %[unique-id] unless { res.hdr(x-request-id) -m found }
  http-response del-header uWebSockets
${refuse(501, 'method \\"%[method]\\" is not implemented; this server knows GET, HEAD, POST', 'method', 'unless METH_GET or METH_HEAD or METH_POST')}
${refuse(400, 'HTTP version %[req.ver] is not served; HTTP/1.1 and HTTP/1.0 are', 'headers', 'unless { req.ver 1.1 } or { req.ver 1.0 }')}
${refuse(400, 'an HTTP/1.1 request must carry a Host header', 'headers', 'if { req.ver 1.1 } !{ req.hdr_cnt(host) eq 1 }')}
  # Control characters in a header value (but tab): the transport behind would hold such a request
  # unanswered. HAProxy passes them on, so they are refused here, before anything else.
${refuse(400, 'a header value holds a control character (a byte below 0x20 other than tab, or 0x7f)', 'headers', "if { req.hdrs -m reg '[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]' }")}
  # A declared length over the limit, whatever its size: lengths of more digits than the limit's
  # are compared as text (HAProxy reads a header's number in 32 bits), the others as numbers.
${refuse(413, `the body must be at most ${o.maxBodyBytes} bytes, got %[req.hdr(content-length)] (Content-Length)`, 'body', `if { req.hdr(content-length) -m reg '^0*[1-9][0-9]{${String(o.maxBodyBytes).length},}$' } || { req.hdr_val(content-length) gt ${o.maxBodyBytes} }`)}
  # A POST is sent again only when it never reached a process: nothing is ever charged twice.
  http-request disable-l7-retry if METH_POST
  # The client's address, replaced (never appended to): API processes trust it from this edge.
  http-request set-header X-Forwarded-For %[src]
  # An absolute target (GET http://host/path) is passed on as its path.
  http-request set-uri %[pathq] if { url_reg ^[a-zA-Z][a-zA-Z0-9+.-]*:// }
  # HTTP/1.0 goes on as HTTP/1.1 (the transport answers nothing else): through an HTTP/2 hop
  # inside the edge, which speaks HTTP/1.1 to the processes. The client is answered as HTTP/1.0
  # expects: closed after the response unless it asked to keep the connection.
  http-request set-header Host scriptorium if { req.ver 1.0 } !{ req.hdr(host) -m found }
  use_backend http10 if { req.ver 1.0 }
  default_backend apis

backend http10
  server hop ${hop} proto h2

frontend http10
  bind ${hop} proto h2
  default_backend apis

backend apis
  balance leastconn
  # Ready or not: GET /ready every ${o.checkMs} ms; out after two failures, back after two passes.
  option httpchk
  http-check send meth GET uri /ready ver HTTP/1.1 hdr Host edge
  http-check expect status 200
  # A process busy with requests answers late, not wrong: its own checks take up to 2 s
  # (PROBE_DEADLINE_MS), so a check waits 5 s before it counts as failed.
  timeout check 5s
  default-server check inter ${o.checkMs} fall 2 rise 2
${servers.join('\n')}
`;
}

/**
 * The edge for API processes of this configuration: the body limit is the largest any route takes
 * (a JSON body, an image, a font), the header fields what the transport reads.
 */
export function edgeFor(
  config: Config,
  o: Pick<EdgeOptions, 'host' | 'port' | 'apis'> & Partial<Pick<EdgeOptions, 'maxConnections' | 'checkMs'>>,
): string {
  return edgeConfig({
    maxConnections: 4096,
    checkMs: 1000,
    ...o,
    maxBodyBytes: Math.max(
      config.bodyLimitBytes,
      config.batchBodyLimitBytes,
      config.assetMaxBytes,
      FONT_MAX_BYTES,
    ),
    maxHeaderFields: MAX_FIELDS,
  });
}
