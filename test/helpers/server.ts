// A real server on an ephemeral port over a fresh embedded store (or the same service in process,
// its pipeline called directly with the in-process renderer), and a client that checks every
// response: exactly one X-Request-ID, the error body's requestId equal to it, and the
// response described by the OpenAPI document.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { Test } from 'tap';
import { createAccount, createKey, importTemplate, topUp } from '../../src/app/admin.ts';
import { type Context, openContext } from '../../src/composition.ts';
import { type Config, loadConfig } from '../../src/config/index.ts';
import type { KeyMode } from '../../src/domain/api-keys.ts';
import { type Service, type ServiceOptions, startService } from '../../src/service.ts';
import type { Api } from '../../src/api/pipeline.ts';
import { JSON_TYPE } from '../../src/api/types.ts';
import { newId } from '../../src/lib/ids.ts';
import { InProcessRenderer } from '../../workers/in-process-renderer.ts';
import { conformance } from './openapi.ts';

interface Served {
  ctx: Context;
  service: Service;
  dir: string;
  /** A fresh account with a key of each mode and one template of each kind per mode. */
  tenant(opts?: { plan?: string }): Promise<TestTenant>;
  stop(): Promise<void>;
}

export interface TestServer extends Served {
  base: string;
  port: number;
}

export interface InProcessServer extends Served {
  api: Api;
}

export interface TestTenant {
  accountId: string;
  live: string;
  test: string;
  liveKeyId: string;
  testKeyId: string;
  templates: Record<KeyMode, Record<'simple' | 'structured' | 'legacy', string>>;
}

const TEMPLATE_FILES = { simple: 'letter', structured: 'notes', legacy: 'document' } as const;

/** A service in this process over a fresh embedded store, stopped and removed at the test's end. */
async function boot(t: Test, overrides: Partial<Config>, opts: ServiceOptions) {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-http-'));
  const config = loadConfig(
    {},
    {
      dataDir: dir,
      port: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
      demo: false,
      // One render thread: a test's few documents need no second, and each thread's start and
      // first letter cost CPU the other test files want (a test of concurrency asks for two).
      poolThreads: 1,
      rateLimitPerMinute: 100_000,
      // The decode of an upload waits for a thread too, and on a loaded test machine a cold pool can
      // take longer than the default 10 s to answer; the limit itself is tested on the renderer.
      assetDecodeTimeoutMs: 60_000,
      ...overrides,
    },
  );
  const ctx = await openContext(config);
  const service = await startService(ctx, { log: pino({ level: 'silent' }), ...opts });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await service.stop(2000);
    rmSync(dir, { recursive: true, force: true });
  };
  t.teardown(stop);
  return { ctx, service, dir, stop, tenant: (o: { plan?: string } = {}) => seedTenant(ctx, o) };
}

/** The real server on an ephemeral port, with the thread pool. */
export async function startTestServer(
  t: Test,
  overrides: Partial<Config> = {},
  opts: Pick<ServiceOptions, 'role' | 'log'> = {},
): Promise<TestServer> {
  const booted = await boot(t, overrides, opts);
  const port = booted.service.http!.port;
  return { ...booted, base: `http://127.0.0.1:${port}`, port };
}

/** The same service without an HTTP server or threads: requests go to the pipeline in process. */
export async function startInProcess(t: Test, overrides: Partial<Config> = {}): Promise<InProcessServer> {
  const booted = await boot(t, overrides, { renderer: new InProcessRenderer(), listen: false });
  return { ...booted, api: booted.service.api };
}

/** A fresh account with a key of each mode, 100 test sheets, and one template of each kind per mode. */
export async function seedTenant(ctx: Context, opts: { plan?: string } = {}): Promise<TestTenant> {
  const account = await createAccount(ctx, {
    name: 'Tenant',
    plan: opts.plan ?? 'pro',
    period: opts.plan && opts.plan !== 'pro' ? undefined : 30,
  });
  const live = await createKey(ctx, { account: account.id, mode: 'live' });
  const test = await createKey(ctx, { account: account.id, mode: 'test' });
  await topUp(ctx, { account: account.id, sheets: 100, mode: 'test' });
  const templates = { live: {}, test: {} } as TestTenant['templates'];
  for (const mode of ['live', 'test'] as const) {
    for (const [kind, file] of Object.entries(TEMPLATE_FILES)) {
      const json = readFileSync(new URL(`../../src/app/demo/${file}.template.json`, import.meta.url), 'utf8');
      const tpl = await importTemplate(ctx, { account: account.id, mode, json, source: file });
      templates[mode][kind as keyof typeof TEMPLATE_FILES] = tpl.id;
    }
  }
  return {
    accountId: account.id,
    live: live.key,
    test: test.key,
    liveKeyId: live.record.id,
    testKeyId: test.record.id,
    templates,
  };
}

/** Hands a request to the pipeline in process and answers as a fetch would. */
async function viaPipeline(
  api: Api,
  method: string,
  url: URL,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
): Promise<Response> {
  const reply = await api.handle({
    id: newId('req'),
    method,
    path: url.pathname,
    query: url.search.slice(1),
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    body: Buffer.from(body ?? ''),
    receivedAt: new Date(),
    peer: () => '127.0.0.1',
  });
  let bytes: Uint8Array | string | null = null;
  let contentType: string | undefined;
  if (reply.stream) {
    const parts: Uint8Array[] = [];
    for await (const chunk of reply.stream.chunks) parts.push(chunk);
    bytes = Buffer.concat(parts);
    contentType = reply.stream.contentType;
  } else if (reply.raw) {
    ({ bytes, contentType } = reply.raw);
  } else if (reply.json !== undefined) {
    bytes = JSON.stringify(reply.json);
    contentType = JSON_TYPE;
  }
  return new Response(bytes, {
    status: reply.status,
    headers: { ...reply.headers, ...(contentType ? { 'content-type': contentType } : {}) },
  });
}

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text of another content type; tests read it freely. */
  // biome-ignore lint/suspicious/noExplicitAny: a test reads any shape of body
  body: any;
  /** The body as it came, for binary answers. */
  bytes: Buffer;
  requestId: string;
}

/**
 * Calls the API and checks what every response must be. `path` is under /api/v1 unless it
 * starts with `//` (then it is sent as is, without the double slash).
 */
export async function call(
  t: Test,
  server: Pick<TestServer, 'base'> | Pick<InProcessServer, 'api'>,
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; raw?: Uint8Array | string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const base = 'base' in server ? server.base : 'http://in-process';
  const url = path.startsWith('//') ? `${base}${path.slice(1)}` : `${base}/api/v1${path}`;
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`;
  let body: string | Uint8Array | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res =
    'api' in server
      ? await viaPipeline(server.api, method, new URL(url), headers, body)
      : await fetch(url, { method, headers, body });
  const text = Buffer.from(await res.arrayBuffer());
  const contentType = res.headers.get('content-type');
  const parsed = contentType?.startsWith('application/json')
    ? JSON.parse(text.toString('utf8'))
    : text.toString('utf8');
  const requestId = res.headers.get('x-request-id') ?? '';
  const where = `${method} ${path.slice(0, 60)}`;
  t.match(requestId, /^req_[0-9A-Za-z]{22}$/, `${where}: exactly one X-Request-ID`);
  if (res.status >= 400)
    t.equal(parsed?.error?.requestId, requestId, `${where}: error.requestId is the X-Request-ID`);
  const apiPath = new URL(url).pathname.replace(/^\/api\/v1/, '');
  if (new URL(url).pathname.startsWith('/api/v1/') && apiPath !== '/openapi.json') {
    t.same(
      conformance({
        method,
        path: apiPath,
        status: res.status,
        contentType,
        body: parsed,
        headers: res.headers,
      }),
      [],
      `${where}: ${res.status} conforms to the OpenAPI document`,
    );
  }
  return { status: res.status, headers: res.headers, body: parsed, bytes: text, requestId };
}

/** Polls a job until it is no longer queued or processing (at most `ms`); returns its last view. */
export async function jobFinished(
  t: Test,
  server: Pick<TestServer, 'base'> | Pick<InProcessServer, 'api'>,
  key: string,
  id: string,
  ms = 60_000,
): Promise<Answer['body']> {
  let job: Answer['body'] = { status: 'queued' };
  for (const end = Date.now() + ms; job.status === 'queued' || job.status === 'processing'; ) {
    if (Date.now() > end) break;
    await new Promise((r) => setTimeout(r, 100));
    job = (await call(t, server, 'GET', `/generations/${id}`, { key })).body;
  }
  return job;
}

/** Sends raw bytes on a fresh TCP connection and collects everything until it closes or `ms` pass. */
export function rawExchange(
  port: number,
  write: (socket: import('node:net').Socket) => void,
  ms = 1500,
): Promise<string> {
  return import('node:net').then(
    ({ connect }) =>
      new Promise((resolve) => {
        const socket = connect(port, '127.0.0.1');
        let out = '';
        const timer = setTimeout(() => socket.destroy(), ms);
        socket.on('data', (d) => {
          out += d.toString('latin1');
        });
        socket.on('error', () => {});
        socket.on('close', () => {
          clearTimeout(timer);
          resolve(out);
        });
        socket.on('connect', () => write(socket));
      }),
  );
}

/** Sets an account's extra balance of one key mode, in milli-sheets (what a test needs it to hold). */
export async function setExtraBalance(
  server: Pick<Served, 'ctx'>,
  accountId: string,
  mode: KeyMode,
  milli: number,
): Promise<void> {
  await server.ctx.store.db.kysely
    .updateTable('balances')
    .set({ extra_milli: milli })
    .where('account_id', '=', accountId)
    .where('mode', '=', mode)
    .execute();
}
