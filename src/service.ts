// A running process in its role (all, api or worker) on the adapters the composition root opens:
// the job runner on the queue, the reconciler and the sweeper, the API and its HTTP front end, the
// live figures, and the orderly stop (stop accepting → drain in-flight requests → let running jobs
// finish → flush counters → close the adapters and the store).
import { setTimeout as sleep } from 'node:timers/promises';
import { pino, type Logger } from 'pino';
import { type Api, createApi, LIVE_PATH } from './api/pipeline.ts';
import { type HttpServer, type LiveFeed, listen } from './api/http/uws-server.ts';
import { feedingRunner } from './app/batch-feeder.ts';
import { jobRunner, sweep } from './app/generations.ts';
import { type Readiness, readiness } from './app/probes.ts';
import { reconcile } from './app/reconcile.ts';
import { listenProbes, type ProbeServer } from './api/http/probe-server.ts';
import { WebhookDispatcher } from './app/webhooks.ts';
import { combine, type Metrics, type Snapshot } from './metrics/index.ts';
import { todayRange } from './domain/usage-range.ts';
import { RequestCounter } from './app/request-counter.ts';
import { type Context, openAdapters, type Role } from './composition.ts';
import { framingCheckOn } from './config/index.ts';
import type { Renderer } from './app/ports/renderer.ts';
import type { JobQueue } from './queue/types.ts';

export type { Role } from './composition.ts';

export interface Service {
  role: Role;
  /** This process's name in a farm; none when it runs alone. */
  instance?: string;
  api: Api;
  /** The HTTP front end; a worker role has none (nor a service started with `listen: false`). */
  http: HttpServer | null;
  /** A worker's probe port (PROBE_PORT): /health, /ready, /metrics. */
  probes: ProbeServer | null;
  queue: JobQueue;
  renderer: Renderer;
  /** Runs the sweeper once now (it also runs every SWEEP_INTERVAL_MS). */
  sweep(): Promise<{ expired: number; orphans: number }>;
  counter: RequestCounter;
  log: Logger;
  metrics: Metrics;
  /** The service-wide figures now. */
  snapshot(): Promise<Snapshot>;
  /** Idempotent; resolves when everything is closed. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Log lines are written in batches of this many bytes, or at the latest this often. Just under
 * the 16 KiB the writer (sonic-boom) writes at once: each write is a round trip through libuv's
 * thread pool, and a line in 15 KiB batches costs about 0.3 µs less than in 4 KiB ones
 * (docs/decisions.md, "Logs").
 */
export const LOG_BATCH_BYTES = 15 * 1024;
export const LOG_FLUSH_MS = 100;

/**
 * Where log lines go: `dest` (a descriptor or a path) in batches, so that a busy server makes one
 * write for many access lines rather than one each.
 */
export function logDestination(dest: number | string) {
  return pino.destination({ dest, sync: false, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS });
}

/**
 * The process's logger: JSON lines on stderr, each naming the service, the process's role and its
 * pid, so the lines of many processes can share one stream. Lines reach stderr within
 * LOG_FLUSH_MS; pino writes what is left when the process exits, however it exits but by SIGKILL.
 */
export function createLogger(level: string, role: Role = 'all'): Logger {
  return pino({ level, base: { service: 'scriptorium', role, pid: process.pid } }, logDestination(2));
}

export interface ServiceOptions {
  log?: Logger;
  role?: Role;
  /** A renderer to use instead of the thread pool (the in-process adapter, for fast tests). */
  renderer?: Renderer;
  /** false: no HTTP front end; requests are handed to `api` directly (fast tests). */
  listen?: boolean;
}

export async function startService(ctx: Context, opts: ServiceOptions = {}): Promise<Service> {
  const { config } = ctx;
  const role = opts.role ?? 'all';
  const log = opts.log ?? createLogger(config.logLevel, role);
  const {
    instance,
    limiter,
    previewLimiter,
    signInLimits,
    draftLimiter,
    fontUploadLimiter,
    handPictureLimiter,
    quota,
    renderer,
    metrics,
    board,
    ...adapters
  } = await openAdapters(ctx, { role, log, renderer: opts.renderer });
  const counter = new RequestCounter(ctx.store);
  // Webhook deliveries are sent where jobs run; a job that finishes here nudges the dispatcher.
  const dispatcher =
    role !== 'api' ? new WebhookDispatcher({ store: ctx.store, config, now: ctx.now, log }) : null;
  const runner = jobRunner({
    store: ctx.store,
    blobs: ctx.blobs,
    config,
    now: ctx.now,
    renderer,
    log,
    onStarted: (kind, waited) => metrics.queueWait(kind, waited),
    onFinished: (kind, outcome, pages) => {
      metrics.job(kind, outcome, pages);
      dispatcher?.nudge();
    },
  });
  const onError = (err: unknown, job: { id: string } | null) =>
    log.error({ err, job: job?.id }, 'job run failed; it is run again');
  // A batch's row that ended hands its batch's next rows to the queue.
  const run = feedingRunner(runner, () => ({ store: ctx.store, queue, config }), log);
  const queue = adapters.queue(run, onError);
  // Whatever is unfinished in the store and not in the queue (a crash, a restart, Redis lost)
  // is queued again: queued jobs from the start, processing ones as a new attempt. Embedded:
  // once at start. Farm: the workers reconcile now and then, since Redis may lose its jobs.
  const reconcileDeps = { store: ctx.store, queue, log, config };
  if (role !== 'api') await reconcile(reconcileDeps, { atStart: true });
  const reconciler =
    role !== 'api' && queue.shared
      ? setInterval(
          () =>
            void reconcile(reconcileDeps, { atStart: false }).catch((err: unknown) =>
              log.error({ err }, 'reconcile failed'),
            ),
          config.reconcileIntervalMs,
        )
      : null;
  reconciler?.unref();
  const sweepOnce = () => sweep({ store: ctx.store, blobs: ctx.blobs, now: ctx.now, log });
  let sweeping: Promise<unknown> = sweepOnce().catch((err: unknown) => log.error({ err }, 'sweep failed'));
  const sweeper = setInterval(() => {
    sweeping = sweepOnce().catch((err: unknown) => log.error({ err }, 'sweep failed'));
  }, config.sweepIntervalMs);
  sweeper.unref();
  dispatcher?.start();

  const snapshot = async (): Promise<Snapshot> => {
    const now = ctx.now();
    const today = todayRange(now);
    const [samples, counts, usage] = await Promise.all([
      board.samples(),
      ctx.store.generations.unfinishedCounts(),
      ctx.store.billing.usageBetween(null, today.from, today.to),
    ]);
    const held = queue.stats();
    const figures = {
      waiting: counts.queued,
      active: counts.processing,
      delayed: held.delayed,
      retrying: held.retrying,
      completedToday: usage.successful_generations,
      failedToday: usage.failed_generations,
    };
    return combine(samples, figures, ctx.farm ? 'farm' : 'embedded', now);
  };
  let stopping: Promise<void> | null = null;
  const checks = {
    store: () => ctx.store.db.ping(),
    blobs: () => ctx.blobs.ping(),
    ...adapters.checks,
  };
  const ready = (): Promise<Readiness> =>
    stopping
      ? Promise.resolve({ ready: false, checks: { process: 'stopping' } })
      : readiness(checks, config.probeDeadlineMs);
  const api = createApi(
    {
      store: ctx.store,
      blobs: ctx.blobs,
      config,
      now: ctx.now,
      limiter,
      counter,
      queue,
      previewLimiter,
      signInLimits,
      draftLimiter,
      fontUploadLimiter,
      handPictureLimiter,
      renderer,
      quota,
      instance,
      metrics,
      snapshot,
      ready,
    },
    log,
  );
  const live: LiveFeed = {
    path: LIVE_PATH,
    admit: (req) => api.admitAdmin(req),
    message: async () => JSON.stringify({ type: 'snapshot', snapshot: await snapshot() }),
    everyMs: 1000,
    onError: (err) => log.warn({ err }, 'live figures could not be gathered'),
  };
  let http: HttpServer | null = null;
  let probes: ProbeServer | null = null;
  try {
    http =
      role === 'worker' || opts.listen === false
        ? null
        : await listen(api, {
            host: config.host,
            port: config.port,
            live,
            framingCheck: framingCheckOn(config),
            trustedProxies: config.trustedProxies,
            onError: (err) =>
              log.error({ err }, 'a request failed in the transport; its connection was closed'),
          });
    // A worker serves no API; its probes and metrics get a small port of their own.
    probes =
      role === 'worker' ? await listenProbes(api, { host: config.host, port: config.probePort }) : null;
  } catch (err) {
    // A port that cannot be had ends the start cleanly: what started is stopped before the error
    // is told (the caller closes the store).
    clearInterval(sweeper);
    if (reconciler) clearInterval(reconciler);
    await http?.close(0);
    await queue.stop(0);
    await dispatcher?.stop(0);
    await sweeping;
    await adapters.close();
    throw err;
  }

  const stop = (graceMs = 10_000) =>
    (stopping ??= (async () => {
      clearInterval(sweeper);
      if (reconciler) clearInterval(reconciler);
      // Unready from here on; an edge that checks /ready takes this process out before it stops
      // accepting, so no request is sent to a closed port.
      if (http && config.stopDelayMs > 0) await sleep(config.stopDelayMs);
      await http?.close(graceMs);
      await probes?.close();
      // Running jobs finish if they can within the grace; the rest are run again at the next start.
      await queue.stop(graceMs);
      await dispatcher?.stop(graceMs);
      await sweeping;
      await counter.flush().catch((err: unknown) => log.error({ err }, 'could not flush request counts'));
      await adapters.close();
      await ctx.close();
    })());
  return {
    role,
    instance,
    probes,
    metrics,
    snapshot,
    api,
    http,
    counter,
    log,
    queue,
    renderer,
    sweep: sweepOnce,
    stop,
  };
}
