// Live figures of the service for operators (DESIGN §8): what each process did in the last
// minute, kept in one-second slots, and the snapshot the admin socket pushes every second.
//
// Each process records its own events (renders with their latency, finished jobs and their
// pages, 429s, errors by code). A snapshot adds the queue (from the store, so it is the whole
// farm's) and, in a farm, every instance's sample: each one publishes its sample to Redis every
// second under a key that lapses after five, and any API instance sums them. Percentiles are
// read from the summed histogram, never averaged.
import type { Redis } from 'ioredis';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { adminErrorCatalog, errorCatalog } from '../domain/errors.ts';

/** Render latency buckets, in milliseconds (the last one is everything slower). */
export const LATENCY_BUCKETS_MS = [
  2, 5, 10, 20, 35, 50, 75, 100, 150, 250, 400, 600, 1000, 1500, 2500, 5000, 10_000, 15_000,
] as const;

const WINDOW_S = 60;

// Every label value comes from a fixed set: whatever else is passed is counted as `other`, so no
// value a request carries (a path, a header, a key) ever becomes a label or a series of its own.
const FORMATS = new Set(['svg', 'png', 'strokes']);
const KINDS = new Set(['pdf', 'preview']);
const OUTCOMES = new Set(['completed', 'failed']);
const CODES = new Set([...Object.keys(errorCatalog), ...Object.keys(adminErrorCatalog)]);
const OTHER = 'other';
const known = (set: ReadonlySet<string>, value: string) => (set.has(value) ? value : OTHER);
const statusLabel = (status: number) =>
  Number.isInteger(status) && status >= 100 && status <= 599 ? String(status) : OTHER;

/**
 * Labels as an object whose prototype is an empty object without one: the metrics library reads
 * them with `for … in`, which would also read any name written onto Object.prototype and refuse
 * the whole call. (An object without a prototype of its own would be kept as a dictionary, which
 * the library's checks read several times slower, on every request.)
 */
function labels<T extends Record<string, string>>(l: T): T {
  return Object.assign(Object.create(NO_NAMES) as T, l);
}
const NO_NAMES: object = Object.freeze(Object.create(null));

/** One process's last minute. */
export interface InstanceSample {
  instance: string;
  role: string;
  startedAt: string;
  uptimeSeconds: number;
  pool: { threads: number; busy: number };
  /** Counts over the last 60 s. */
  minute: {
    renders: number;
    generations: number;
    previews: number;
    pages: number;
    rejected: number;
    errors: Record<string, number>;
    /** Render latency histogram: counts per LATENCY_BUCKETS_MS bucket, plus one for slower. */
    renderLatency: number[];
  };
}

export interface QueueFigures {
  /** Jobs queued (admitted, not yet taken by a worker). */
  waiting: number;
  /** Jobs a worker is rendering. */
  active: number;
  /** Jobs put back for a while: their account already has one rendering, or a retry's back-off. */
  delayed: number;
  /** Of the delayed: jobs waiting out the back-off after a run failed on a fault of the service. */
  retrying: number;
  /** Jobs completed and failed today (UTC). */
  completedToday: number;
  failedToday: number;
}

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'retrying', 'completedToday', 'failedToday'] as const;
const EVENTS = ['renders', 'generations', 'previews', 'pages', 'rejected'] as const;

export interface Snapshot {
  at: string;
  mode: 'embedded' | 'farm';
  instances: Omit<InstanceSample, 'minute'>[];
  queue: QueueFigures;
  pool: { threads: number; busy: number };
  perMinute: { renders: number; generations: number; previews: number; pages: number; rejected: number };
  renderLatencyMs: { p50: number | null; p99: number | null; count: number };
  errors: Record<string, number>;
}

interface Slot {
  second: number;
  renders: number;
  generations: number;
  previews: number;
  pages: number;
  rejected: number;
  errors: Map<string, number>;
  latency: number[];
}

const emptySlot = (second: number): Slot => ({
  second,
  renders: 0,
  generations: 0,
  previews: 0,
  pages: 0,
  rejected: 0,
  errors: new Map(),
  latency: new Array(LATENCY_BUCKETS_MS.length + 1).fill(0),
});

const bucketOf = (ms: number) => {
  const i = LATENCY_BUCKETS_MS.findIndex((b) => ms <= b);
  return i === -1 ? LATENCY_BUCKETS_MS.length : i;
};

/**
 * The q-quantile of a bucketed histogram, interpolated within its bucket (as Prometheus'
 * histogram_quantile does); the open last bucket answers its lower bound. Null when empty.
 */
export function quantile(counts: readonly number[], q: number): number | null {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i]!;
    if (c > 0 && seen + c >= rank) {
      const lower = i === 0 ? 0 : LATENCY_BUCKETS_MS[i - 1]!;
      if (i === LATENCY_BUCKETS_MS.length) return lower;
      const upper = LATENCY_BUCKETS_MS[i]!;
      return Math.round((lower + ((upper - lower) * (rank - seen)) / c) * 10) / 10;
    }
    seen += c;
  }
  return LATENCY_BUCKETS_MS[LATENCY_BUCKETS_MS.length - 1]!;
}

export class Metrics {
  private readonly slots: Slot[] = [];
  readonly registry = new Registry();
  private readonly prom;
  private readonly started: number;
  /** The route patterns of this process's API; any other route is counted as `other`. */
  private readonly routes = new Set<string>(['unmatched']);

  constructor(
    readonly instance: string,
    readonly role: string,
    private readonly pool: () => { threads: number; busy: number },
    private readonly clock: () => number = Date.now,
  ) {
    this.started = clock();
    // `process`, not `instance`: Prometheus sets `instance` itself (the scraped target) and would
    // rename ours to `exported_instance`.
    this.registry.setDefaultLabels({ process: instance, role });
    const r = [this.registry];
    // Node's own figures (CPU, memory, event loop lag, handles), per process.
    collectDefaultMetrics({ register: this.registry });
    // prom-client names three gauges `…_total`, which Prometheus keeps for counters
    // (`promtool check metrics` refuses them); the handle and request counts are left out.
    for (const name of [
      'nodejs_active_handles_total',
      'nodejs_active_requests_total',
      'nodejs_active_resources_total',
    ])
      this.registry.removeSingleMetric(name);
    this.prom = {
      renders: new Counter({
        name: 'scriptorium_renders_total',
        help: 'Synchronous renders answered 200, by format',
        labelNames: ['format'],
        registers: r,
      }),
      renderSeconds: new Histogram({
        name: 'scriptorium_render_duration_seconds',
        help: 'Time to answer a successful synchronous render',
        buckets: LATENCY_BUCKETS_MS.map((b) => b / 1000),
        registers: r,
      }),
      jobs: new Counter({
        name: 'scriptorium_jobs_finished_total',
        help: 'Jobs this process finished, by kind and outcome',
        labelNames: ['kind', 'outcome'],
        registers: r,
      }),
      pages: new Counter({
        name: 'scriptorium_pages_total',
        help: 'PDF pages of completed generations',
        registers: r,
      }),
      rejected: new Counter({
        name: 'scriptorium_rejected_total',
        help: 'Requests answered 429',
        registers: r,
      }),
      errors: new Counter({
        name: 'scriptorium_errors_total',
        help: 'Error replies by code',
        labelNames: ['code'],
        registers: r,
      }),
      uptime: new Gauge({
        name: 'scriptorium_uptime_seconds',
        help: 'Seconds since this process started',
        registers: r,
      }),
      poolThreads: new Gauge({
        name: 'scriptorium_pool_threads',
        help: 'Render threads of this process',
        registers: r,
      }),
      poolBusy: new Gauge({
        name: 'scriptorium_pool_busy',
        help: 'Render tasks running in this process',
        registers: r,
      }),
      http: new Counter({
        name: 'scriptorium_http_requests_total',
        help: 'Requests this process answered, by route pattern and status',
        labelNames: ['route', 'status'],
        registers: r,
      }),
      httpSeconds: new Histogram({
        name: 'scriptorium_http_request_duration_seconds',
        help: 'Time from a request read to its answer ready, by route pattern',
        labelNames: ['route'],
        buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
        registers: r,
      }),
      queueWait: new Histogram({
        name: 'scriptorium_job_queue_wait_seconds',
        help: 'Time a job waited from its admission to its first start, by kind (jobs this process started)',
        labelNames: ['kind'],
        buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
        registers: r,
      }),
      // The whole service's figures (every process of a farm, summed through Redis): each
      // process reports the same values; named `scriptorium_service_*` apart from its own.
      queue: new Gauge({
        name: 'scriptorium_service_queue_jobs',
        help: 'Jobs of the whole service by queue state (completed and failed: today, UTC)',
        labelNames: ['state'],
        registers: r,
      }),
      perMinute: new Gauge({
        name: 'scriptorium_service_events_last_minute',
        help: 'Events of the whole service in the last 60 s',
        labelNames: ['event'],
        registers: r,
      }),
      latency: new Gauge({
        name: 'scriptorium_service_render_latency_seconds',
        help: 'Render latency of the whole service over the last 60 s, at a percentile',
        labelNames: ['percentile'],
        registers: r,
      }),
    };
  }

  private slot(): Slot {
    const second = Math.floor(this.clock() / 1000);
    const last = this.slots[this.slots.length - 1];
    if (last?.second === second) return last;
    const s = emptySlot(second);
    this.slots.push(s);
    while (this.slots.length > 0 && this.slots[0]!.second <= second - WINDOW_S) this.slots.shift();
    return s;
  }

  /** Names the route patterns requests are counted by (the API's, once it is built). */
  knownRoutes(patterns: Iterable<string>): void {
    for (const p of patterns) this.routes.add(p);
  }

  /** A synchronous render answered 200 after `ms`. */
  render(format: string, ms: number): void {
    const s = this.slot();
    s.renders++;
    s.latency[bucketOf(ms)]!++;
    this.prom.renders.inc(labels({ format: known(FORMATS, format) }));
    this.prom.renderSeconds.observe(ms / 1000);
  }

  /** A job this process finished: completed (with its pages) or failed. */
  job(kind: 'pdf' | 'preview', outcome: 'completed' | 'failed', pages: number): void {
    const s = this.slot();
    if (outcome === 'completed') {
      if (kind === 'pdf') {
        s.generations++;
        s.pages += pages;
        this.prom.pages.inc(pages);
      } else s.previews++;
    }
    this.prom.jobs.inc(labels({ kind: known(KINDS, kind), outcome: known(OUTCOMES, outcome) }));
  }

  /** A request answered: its route pattern (`unmatched` for no route), status and duration. */
  request(route: string | null, status: number, seconds: number): void {
    const r = known(this.routes, route ?? 'unmatched');
    this.prom.http.inc(labels({ route: r, status: statusLabel(status) }));
    this.prom.httpSeconds.observe(labels({ route: r }), seconds);
  }

  /** A job this process started for the first time, after waiting this long since its admission. */
  queueWait(kind: 'pdf' | 'preview', seconds: number): void {
    this.prom.queueWait.observe(labels({ kind: known(KINDS, kind) }), seconds);
  }

  /** An error reply; 429s are also counted on their own. */
  error(code: string, status: number): void {
    const s = this.slot();
    const c = known(CODES, code);
    s.errors.set(c, (s.errors.get(c) ?? 0) + 1);
    this.prom.errors.inc(labels({ code: c }));
    if (status === 429) {
      s.rejected++;
      this.prom.rejected.inc();
    }
  }

  /** This process's last minute. */
  sample(): InstanceSample {
    const now = this.clock();
    const from = Math.floor(now / 1000) - WINDOW_S;
    const minute: InstanceSample['minute'] = {
      renders: 0,
      generations: 0,
      previews: 0,
      pages: 0,
      rejected: 0,
      errors: {},
      renderLatency: new Array(LATENCY_BUCKETS_MS.length + 1).fill(0),
    };
    for (const s of this.slots) {
      if (s.second <= from) continue;
      minute.renders += s.renders;
      minute.generations += s.generations;
      minute.previews += s.previews;
      minute.pages += s.pages;
      minute.rejected += s.rejected;
      for (const [code, n] of s.errors) minute.errors[code] = (minute.errors[code] ?? 0) + n;
      s.latency.forEach((n, i) => {
        minute.renderLatency[i]! += n;
      });
    }
    return {
      instance: this.instance,
      role: this.role,
      startedAt: new Date(this.started).toISOString(),
      uptimeSeconds: Math.floor((now - this.started) / 1000),
      pool: this.pool(),
      minute,
    };
  }

  /** Prometheus text of this process, with the service-wide figures of `snap` as gauges. */
  async prometheus(snap: Snapshot): Promise<{ contentType: string; text: string }> {
    const p = this.prom;
    const own = this.sample();
    p.uptime.set(own.uptimeSeconds);
    p.poolThreads.set(own.pool.threads);
    p.poolBusy.set(own.pool.busy);
    for (const state of QUEUE_STATES) p.queue.set(labels({ state }), snap.queue[state]);
    for (const event of EVENTS) p.perMinute.set(labels({ event }), snap.perMinute[event]);
    p.latency.set(labels({ percentile: '50' }), (snap.renderLatencyMs.p50 ?? 0) / 1000);
    p.latency.set(labels({ percentile: '99' }), (snap.renderLatencyMs.p99 ?? 0) / 1000);
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

/** Sums instance samples and queue figures into the snapshot operators see. */
export function combine(
  samples: InstanceSample[],
  queue: QueueFigures,
  mode: Snapshot['mode'],
  at: Date,
): Snapshot {
  const latency = new Array(LATENCY_BUCKETS_MS.length + 1).fill(0) as number[];
  const perMinute = { renders: 0, generations: 0, previews: 0, pages: 0, rejected: 0 };
  const errors: Record<string, number> = {};
  const pool = { threads: 0, busy: 0 };
  for (const s of samples) {
    for (const k of Object.keys(perMinute) as (keyof typeof perMinute)[]) perMinute[k] += s.minute[k];
    for (const [code, n] of Object.entries(s.minute.errors)) errors[code] = (errors[code] ?? 0) + n;
    s.minute.renderLatency.forEach((n, i) => {
      latency[i]! += n;
    });
    pool.threads += s.pool.threads;
    pool.busy += s.pool.busy;
  }
  return {
    at: at.toISOString(),
    mode,
    instances: samples
      .map(({ minute: _, ...rest }) => rest)
      .sort((a, b) => a.role.localeCompare(b.role) || a.instance.localeCompare(b.instance)),
    queue,
    pool,
    perMinute,
    renderLatencyMs: {
      p50: quantile(latency, 0.5),
      p99: quantile(latency, 0.99),
      count: latency.reduce((a, b) => a + b, 0),
    },
    errors,
  };
}

/**
 * Where instance samples meet. Alone: only this process. In a farm: each process writes its
 * sample to Redis every second (`<prefix>metrics:<instance>`, lapsing after 5 s, so a dead
 * process drops out), and reads everyone's.
 */
export class SampleBoard {
  private readonly timer: NodeJS.Timeout | null;

  constructor(
    private readonly metrics: Metrics,
    private readonly redis: Redis | null,
    private readonly prefix: string,
  ) {
    this.timer = redis ? setInterval(() => void this.publish(), 1000).unref() : null;
    if (redis) void this.publish();
  }

  private key(instance: string) {
    return `${this.prefix}metrics:${instance}`;
  }

  private async publish(): Promise<void> {
    await this.redis
      ?.set(this.key(this.metrics.instance), JSON.stringify(this.metrics.sample()), 'PX', 5000)
      .catch(() => {});
  }

  /** Every live instance's sample (this one's fresh); only this one's when Redis is away. */
  async samples(): Promise<InstanceSample[]> {
    const own = this.metrics.sample();
    if (!this.redis) return [own];
    try {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, found] = await this.redis.scan(cursor, 'MATCH', `${this.key('*')}`, 'COUNT', 200);
        cursor = next;
        keys.push(...found);
      } while (cursor !== '0');
      const others = keys.filter((k) => k !== this.key(own.instance));
      const values = others.length ? await this.redis.mget(...others) : [];
      return [
        own,
        ...values.filter((v): v is string => v !== null).map((v) => JSON.parse(v) as InstanceSample),
      ];
    } catch {
      return [own];
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.redis?.del(this.key(this.metrics.instance)).catch(() => {});
  }
}
