// The live figures: a minute of one-second slots (events older than 60 s drop out), quantiles
// read from a bucketed histogram, samples of several instances summed (histograms merged, not
// percentiles averaged). Samples meeting in Redis: test/contract/metrics-board.test.ts.
import t from 'tap';
import { combine, LATENCY_BUCKETS_MS, Metrics, quantile } from '../../src/metrics/index.ts';

const queue = { waiting: 3, active: 2, delayed: 1, retrying: 0, completedToday: 40, failedToday: 1 };

t.test('a minute of events, kept by the second', async (t) => {
  let now = Date.UTC(2026, 10, 22, 12, 0, 0);
  const m = new Metrics(
    'host:1:aa',
    'all',
    () => ({ threads: 2, busy: 1 }),
    () => now,
  );
  m.render('svg', 8);
  m.render('png', 48);
  m.job('pdf', 'completed', 12);
  m.job('preview', 'completed', 4);
  m.job('pdf', 'failed', 0);
  m.error('RATE_LIMIT_EXCEEDED', 429);
  m.error('INVALID_REQUEST', 400);
  now += 30_000;
  m.render('svg', 9);
  let s = m.sample();
  t.same(
    {
      renders: s.minute.renders,
      generations: s.minute.generations,
      previews: s.minute.previews,
      pages: s.minute.pages,
      rejected: s.minute.rejected,
    },
    { renders: 3, generations: 1, previews: 1, pages: 12, rejected: 1 },
  );
  t.same(s.minute.errors, { RATE_LIMIT_EXCEEDED: 1, INVALID_REQUEST: 1 });
  t.equal(s.uptimeSeconds, 30);
  t.same(s.pool, { threads: 2, busy: 1 });
  now += 31_000; // the first events are now 61 s old
  s = m.sample();
  t.equal(s.minute.renders, 1, 'only the render of 31 s ago is left');
  t.equal(s.minute.pages, 0);
  t.same(s.minute.errors, {});
  now += 60_000;
  t.equal(m.sample().minute.renders, 0, 'a quiet minute is all zeros');
});

t.test('quantiles from buckets, interpolated inside their bucket', async (t) => {
  const counts = new Array(LATENCY_BUCKETS_MS.length + 1).fill(0);
  t.equal(quantile(counts, 0.5), null, 'nothing measured: no figure');
  counts[LATENCY_BUCKETS_MS.indexOf(10)] = 100; // 100 renders in (5, 10] ms
  t.equal(quantile(counts, 0.5), 7.5);
  t.equal(quantile(counts, 0.98), 9.9);
  counts[LATENCY_BUCKETS_MS.length] = 2; // 2 slower than the last bucket
  t.equal(
    quantile(counts, 0.995),
    LATENCY_BUCKETS_MS[LATENCY_BUCKETS_MS.length - 1],
    'the open bucket answers its lower bound',
  );
});

t.test('instances summed: counts added, histograms merged before the percentile', async (t) => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);
  const fast = new Metrics(
    'api-1',
    'api',
    () => ({ threads: 2, busy: 0 }),
    () => now,
  );
  const slow = new Metrics(
    'worker-1',
    'worker',
    () => ({ threads: 2, busy: 2 }),
    () => now,
  );
  for (let i = 0; i < 98; i++) fast.render('svg', 4);
  for (let i = 0; i < 2; i++) slow.render('png', 900);
  slow.job('pdf', 'completed', 7);
  const snap = combine([slow.sample(), fast.sample()], queue, 'farm', new Date(now));
  t.equal(snap.perMinute.renders, 100);
  t.equal(snap.perMinute.pages, 7);
  t.same(snap.pool, { threads: 4, busy: 2 });
  t.same(
    snap.instances.map((i) => [i.role, i.instance]),
    [
      ['api', 'api-1'],
      ['worker', 'worker-1'],
    ],
    'sorted by role',
  );
  t.ok(snap.renderLatencyMs.p50! <= 5, `p50 from the merged histogram: ${snap.renderLatencyMs.p50}`);
  t.ok(snap.renderLatencyMs.p99! > 600, `p99 sees the slow renders: ${snap.renderLatencyMs.p99}`);
  t.equal(snap.renderLatencyMs.count, 100);
  t.same(snap.queue, queue);
});

t.test('labels come from fixed sets: a value from a request never becomes a label', async (t) => {
  const m = new Metrics('host:1:aa', 'api', () => ({ threads: 0, busy: 0 }));
  m.knownRoutes(['/api/v1/templates/{id}']);
  m.request('/api/v1/templates/{id}', 200, 0.01);
  m.request('/api/v1/templates/tpl_from_a_path', 404, 0.01);
  m.request(null, 404, 0.01);
  m.render('gif', 5);
  m.error('MADE_UP', 400);
  m.error('INVALID_REQUEST', 400);
  const text = await m.registry.metrics();
  t.match(text, /scriptorium_http_requests_total\{route="\/api\/v1\/templates\/\{id\}",status="200"/);
  t.match(text, /scriptorium_http_requests_total\{route="other",status="404"/);
  t.match(text, /scriptorium_http_requests_total\{route="unmatched",status="404"/);
  t.notMatch(text, /tpl_from_a_path/);
  t.match(text, /scriptorium_renders_total\{format="other"/);
  t.match(text, /scriptorium_errors_total\{code="other"/);
  t.same(m.sample().minute.errors, { other: 1, INVALID_REQUEST: 1 });

  // Even with a name written onto Object.prototype, counting goes on.
  const proto = Object.prototype as Record<string, unknown>;
  proto.city = 'Paris';
  try {
    t.doesNotThrow(() => m.request('/api/v1/templates/{id}', 200, 0.01));
    t.doesNotThrow(() => m.error('INVALID_REQUEST', 400));
  } finally {
    delete proto.city;
  }
});
