// Farm mode with real processes: API and worker roles of `scriptorium serve` against PostgreSQL
// (a database of its own), Redis (a key prefix of its own) and S3 (s3rver), the integrators'
// requests through the edge (HAProxy, `scriptorium edge`). Jobs from several accounts all complete, each charged once, never two of one account rendering at once and never
// more than two unfinished; limits hold across API processes; SIGTERM drains; Redis restarted
// mid-run loses nothing; a worker killed with -9 mid-render has its job finished by another
// worker, charged once.
import { Redis } from 'ioredis';
import t from 'tap';
import { createKey } from '../../src/app/admin.ts';
import { answeredBy, haproxyAvailable, startEdge } from '../helpers/edge.ts';
import { farmProcesses, farmServices, farmTenant } from '../helpers/farm.ts';
import { startReceiver, until } from '../helpers/receiver.ts';
import { startServe } from '../helpers/spawn.ts';
import { unavailable } from '../helpers/services.ts';

const away =
  (await unavailable('postgres')) || (await unavailable('redis')) || (haproxyAvailable ? '' : 'no haproxy');
if (away) {
  if (process.env.CI) throw new Error(`the farm test needs PostgreSQL, Redis and HAProxy: ${away}`);
  t.comment(`farm: skipped, ${away}`);
  process.exit(0);
}

// Accounts, keys and templates are written straight into the farm's store.
const { env, ctx } = await farmServices(t, 'farm', {
  RATE_LIMIT_PER_MINUTE: '100000',
  QUEUE_LOCK_MS: '3000',
  RECONCILE_INTERVAL_MS: '1000',
  PROBE_PORT: '0',
  POOL_THREADS: '2',
  ADMIN_TOKEN: 'farm-admin-token-0123456789',
  WEBHOOK_PRIVATE_TARGETS: 'true',
  // The API processes stand behind the edge (HAProxy) where a test starts one.
  FRAMING_CHECK: 'false',
  TRUSTED_PROXIES: '127.0.0.1',
});
const accounts: { id: string; key: string; template: string }[] = [];
for (let i = 0; i < 5; i++) accounts.push(await farmTenant(ctx, `Farm ${i}`));

const { processes, start } = farmProcesses(t, env);

async function api(port: number, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

async function settle(port: number, key: string, id: string, ms = 60_000) {
  const end = Date.now() + ms;
  for (;;) {
    const r = await api(port, key, 'GET', `/generations/${id}`);
    if (!['queued', 'processing'].includes(r.body.status as string) || Date.now() > end) return r.body;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls a job until a worker has taken it; answers the status it ended on. */
async function untilProcessing(port: number, key: string, id: string): Promise<string> {
  let status = '';
  for (let i = 0; i < 400 && status !== 'processing'; i++) {
    status = (await api(port, key, 'GET', `/generations/${id}`)).body.status as string;
    if (status !== 'queued') break;
    await new Promise((r) => setTimeout(r, 10));
  }
  return status;
}

const text = (n: number) => `Letter number ${n}. `.repeat(40);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const errorOf = (body: Record<string, unknown>) => body.error as { code: string; message: string };

t.test(
  '2 API and 2 worker processes: 50 jobs of 5 accounts complete once, never two of one account rendering, never three unfinished',
  async (t) => {
    // Every account hears of its jobs at one receiver: the two workers' dispatchers share the outbox.
    const secret = `whsec_${'f'.repeat(32)}`;
    const receiver = await startReceiver(t, () => secret);
    for (const acc of accounts)
      await ctx.store.webhooks.addEndpoint(
        { accountId: acc.id, mode: 'test' },
        { url: receiver.url, events: ['generation.completed'], description: '', secret },
        new Date(),
      );
    const [a1, a2] = [await start('api'), await start('api')];
    await Promise.all([start('worker'), start('worker')]);
    t.match(a1.stdout(), /listening on .*\(farm mode, role api\)/);
    // Every request of the integrators goes to the one address of the edge in front of both.
    const edge = await startEdge(t, [a1.port, a2.port]);
    const ids: { id: string; key: string }[] = [];
    let refusals = 0;
    const otherRefusals: string[] = [];
    // Watches the store while the jobs run: the most unfinished jobs any account had at once.
    let mostUnfinished = 0;
    let watching = true;
    t.teardown(() => {
      watching = false;
    });
    const watcher = (async () => {
      while (watching) {
        const counts = await ctx.store.db.kysely
          .selectFrom('generations')
          .select(['account_id', (eb) => eb.fn.countAll<string>().as('n')])
          .where('status', 'in', ['queued', 'processing'])
          .groupBy('account_id')
          .execute()
          .catch(() => null); // the store closed: the test is over
        if (!counts) break;
        for (const c of counts) mostUnfinished = Math.max(mostUnfinished, Number(c.n));
        await sleep(20);
      }
    })();
    // Each account sends its 10 jobs as fast as admission lets it, through the edge.
    await Promise.all(
      accounts.map(async (acc, i) => {
        for (let n = 0; n < 10; ) {
          const r = await api(edge.port, acc.key, 'POST', '/generations', {
            templateId: acc.template,
            text: text(i * 10 + n),
          });
          if (r.status === 429) {
            if (/unfinished jobs, the most allowed is 2/.test(errorOf(r.body).message)) refusals++;
            else otherRefusals.push(errorOf(r.body).message);
            await sleep(100);
            continue;
          }
          t.equal(r.status, 202, JSON.stringify(r.body));
          ids.push({ id: r.body.id as string, key: acc.key });
          n++;
        }
      }),
    );
    t.equal(ids.length, 50, '50 jobs admitted');
    t.ok(refusals > 0, `the unfinished-jobs limit was reached and answered 429 (${refusals} times)`);
    t.same(otherRefusals, [], 'no other refusal');
    const admitted = await Promise.all(
      [a1, a2].map((a) => answeredBy(a.port, env.ADMIN_TOKEN!, '/api/v1/generations', 202)),
    );
    t.ok(
      admitted.every((n) => n > 0) && admitted[0]! + admitted[1]! >= 50,
      `the edge spread them over both API processes (${admitted.join(' and ')} admitted)`,
    );
    for (const { id, key } of ids) {
      const job = await settle(edge.port, key, id);
      t.equal(job.status, 'completed', `${id} completed (${JSON.stringify(job.error ?? '')})`);
    }
    watching = false;
    await watcher;
    await until('every job is heard of', () => receiver.processed.length === ids.length, 30_000);
    await sleep(500);
    t.equal(
      receiver.received.length,
      ids.length,
      `${ids.length} deliveries from two dispatchers, none sent twice`,
    );
    t.same(
      [...new Set(receiver.processed.map((e) => e.data.generation.id))].sort(),
      ids.map((j) => j.id).sort(),
      'one event for each job',
    );
    // The operator's snapshot, asked of one API process, covers the whole farm: four instances, and
    // the jobs the workers finished (published through Redis).
    const snap = (await (
      await fetch(`http://127.0.0.1:${edge.port}/admin/v1/snapshot`, {
        headers: { authorization: 'Bearer farm-admin-token-0123456789' },
      })
    ).json()) as {
      mode: string;
      instances: { role: string }[];
      perMinute: { generations: number; pages: number };
      pool: { threads: number };
    };
    t.equal(snap.mode, 'farm');
    t.same(
      snap.instances.map((i) => i.role),
      ['api', 'api', 'worker', 'worker'],
      'every instance of the farm',
    );
    t.ok(
      snap.perMinute.generations > 0 && snap.perMinute.pages >= snap.perMinute.generations,
      `the workers' jobs reach it (${snap.perMinute.generations} jobs, ${snap.perMinute.pages} pages)`,
    );
    t.equal(snap.pool.threads, 8, 'the render threads of all four');
    const rows = await ctx.store.db.kysely.selectFrom('generations').selectAll().execute();
    const ledger = await ctx.store.db.kysely
      .selectFrom('ledger')
      .selectAll()
      .where('kind', '=', 'charge')
      .execute();
    t.equal(ledger.length, ids.length, 'one charge per job');
    t.equal(new Set(ledger.map((l) => l.job_id)).size, ids.length, 'no job charged twice');
    // Per account, no two jobs' render spans (claimed → completed) overlap.
    const byAccount = new Map<string, { s: number; e: number }[]>();
    for (const r of rows) {
      const spans = byAccount.get(r.account_id) ?? [];
      spans.push({ s: Date.parse(r.started_at!), e: Date.parse(r.completed_at!) });
      byAccount.set(r.account_id, spans);
    }
    let overlap = false;
    for (const spans of byAccount.values()) {
      spans.sort((x, y) => x.s - y.s);
      for (let i = 1; i < spans.length; i++) if (spans[i]!.s < spans[i - 1]!.e) overlap = true;
    }
    t.notOk(overlap, 'no account ever had two jobs rendering at once');
    t.equal(mostUnfinished, 2, 'no account was ever seen with more than 2 unfinished jobs (and some had 2)');

    // One Idempotency-Key sent 20 times at once, turn about to both API processes: the key lives in
    // the shared store, so exactly one job is made and every 202 names it.
    const acc = accounts[0]!;
    const racing = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await fetch(`http://127.0.0.1:${i % 2 ? a2.port : a1.port}/api/v1/generations`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${acc.key}`,
            'content-type': 'application/json',
            'idempotency-key': 'farm-race',
          },
          body: JSON.stringify({ templateId: acc.template, text: text(999) }),
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      }),
    );
    const made = await ctx.store.db.kysely
      .selectFrom('generations')
      .select('id')
      .where('account_id', '=', acc.id)
      .where(
        'created_at',
        '>',
        rows
          .map((r) => r.created_at)
          .sort()
          .at(-1)!,
      )
      .execute();
    t.equal(made.length, 1, `one job from 20 racing requests (${racing.map((r) => r.status).join(' ')})`);
    t.ok(
      racing.every(
        (r) =>
          (r.status === 202 && r.body.id === made[0]!.id) ||
          (r.status === 409 && errorOf(r.body).code === 'IDEMPOTENCY_KEY_IN_USE'),
      ),
      'each answer names that job or says it is in flight',
    );
    await settle(a1.port, acc.key, made[0]!.id);
    for (const p of processes.splice(0)) t.equal(await p.stop('SIGTERM'), 0, 'SIGTERM: a clean exit');
  },
);

t.test(
  'limits hold across both API processes: per-key rate, renders per account, queued jobs per instance',
  async (t) => {
    const limited = { ...env, RATE_LIMIT_PER_MINUTE: '10', QUEUE_MAX: '1' };
    const [a1, a2] = [
      await startServe(limited, ['--role', 'api', '--no-demo']),
      await startServe(limited, ['--role', 'api', '--no-demo']),
    ];
    processes.push(a1, a2);
    const ports = [a1.port, a2.port];
    // Per key: 10 a minute, wherever the requests land.
    const { key } = await createKey(ctx, { account: accounts[0]!.id, mode: 'test' });
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      const r = await api(ports[i % 2]!, key, 'GET', '/usage');
      statuses.push(r.status);
      if (r.status === 429) {
        t.equal(errorOf(r.body).code, 'RATE_LIMIT_EXCEEDED');
        t.equal(r.headers.get('retry-after'), '60');
      }
    }
    t.same(
      statuses,
      [...Array(10).fill(200), ...Array(4).fill(429)],
      'the 11th request is refused, on either process',
    );
    // Renders: 5 accepted a minute per account, wherever they land.
    const acc = accounts[1]!;
    const { key: renderKey } = await createKey(ctx, { account: acc.id, mode: 'test' });
    const renders: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await fetch(`http://127.0.0.1:${ports[i % 2]}/api/v1/renders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${renderKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ templateId: acc.template, text: `Render ${i}`, format: 'svg' }),
      });
      await res.arrayBuffer();
      renders.push(res.status);
    }
    t.same(
      renders,
      [200, 200, 200, 200, 200, 429, 429],
      'the sixth render of the minute is refused, on either process',
    );
    // Queue: each API process admits QUEUE_MAX queued jobs of its own (no worker is running now).
    // Fresh keys: the ones above spent their minute under a higher limit.
    const fresh = async (a: (typeof accounts)[number]) => ({
      ...a,
      key: (await createKey(ctx, { account: a.id, mode: 'test' })).key,
    });
    const [acc2, acc3] = [await fresh(accounts[2]!), await fresh(accounts[3]!)];
    const submit = (port: number, a: (typeof accounts)[number]) =>
      api(port, a.key, 'POST', '/generations', { templateId: a.template, text: 'Queued.' });
    const first = await submit(a1.port, acc2);
    t.equal(first.status, 202, 'the first process admits one');
    const full = await submit(a1.port, acc3);
    t.equal(full.status, 429, 'then its queue is full');
    t.match(errorOf(full.body).message, /the queue holds 1 jobs, the most allowed is 1/);
    const second = await submit(a2.port, acc3);
    t.equal(second.status, 202, 'the second process still admits: its queue is its own');
    for (const [r, a] of [
      [first, acc2],
      [second, acc3],
    ] as const) {
      t.equal(
        (await api(a1.port, a.key, 'POST', `/generations/${r.body.id}/cancel`)).body.status,
        'cancelled',
      );
    }
    for (const p of [a1, a2]) t.equal(await p.stop('SIGTERM'), 0);
  },
);

t.test('kill -9 of the worker rendering a job: another worker finishes it, charged once', async (t) => {
  const apiProcess = await start('api');
  const doomed = await start('worker');
  const acc = accounts[1]!;
  const long = 'The quick brown fox jumps over the lazy dog, again and again. '.repeat(1500);
  const r = await api(apiProcess.port, acc.key, 'POST', '/generations', {
    templateId: acc.template,
    text: long,
  });
  t.equal(r.status, 202);
  const id = r.body.id as string;
  t.equal(await untilProcessing(apiProcess.port, acc.key, id), 'processing');
  await doomed.stop('SIGKILL');
  t.pass('the worker was killed while the job was processing');
  await start('worker');
  const job = await settle(apiProcess.port, acc.key, id, 90_000);
  t.equal(job.status, 'completed', JSON.stringify(job.error ?? ''));
  const charges = await ctx.store.db.kysely
    .selectFrom('ledger')
    .selectAll()
    .where('job_id', '=', id)
    .where('kind', '=', 'charge')
    .execute();
  t.equal(charges.length, 1, 'charged once');
  const dl = await fetch(`http://127.0.0.1:${apiProcess.port}/api/v1/generations/${id}/download`, {
    headers: { authorization: `Bearer ${acc.key}` },
  });
  t.equal(dl.status, 200);
  t.equal(
    Buffer.from(await dl.arrayBuffer())
      .subarray(0, 5)
      .toString(),
    '%PDF-',
    'the PDF streams from S3 through the API process',
  );
  for (const p of processes.splice(0)) if (p.child.exitCode === null) await p.stop('SIGTERM');
});

t.test(
  'SIGTERM drains: a worker finishes the job it is rendering, then exits 0; so does the API',
  async (t) => {
    const apiProcess = await start('api');
    const worker = await start('worker');
    const acc = accounts[4]!;
    const long = 'Slow and steady, a letter written with care. '.repeat(1200);
    const r = await api(apiProcess.port, acc.key, 'POST', '/generations', {
      templateId: acc.template,
      text: long,
    });
    t.equal(r.status, 202);
    const id = r.body.id as string;
    t.equal(await untilProcessing(apiProcess.port, acc.key, id), 'processing');
    const exit = worker.stop('SIGTERM');
    t.equal(await exit, 0, 'the worker exits 0');
    const job = await api(apiProcess.port, acc.key, 'GET', `/generations/${id}`);
    t.equal(
      job.body.status,
      'completed',
      `the job it was rendering completed before it left (${JSON.stringify(job.body)})`,
    );
    const row = await ctx.store.db.kysely
      .selectFrom('generations')
      .select('attempt')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    t.equal(Number(row.attempt), 1, 'in its first attempt: drained, not abandoned');
    t.equal(await apiProcess.stop('SIGTERM'), 0, 'the API exits 0');
  },
);

t.test('a configured service that does not answer stops the start, named', async (t) => {
  const cases: [string, Record<string, string>, RegExp][] = [
    [
      'PostgreSQL',
      { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nope' },
      /cannot open the postgres store at postgres:\/\/postgres@127\.0\.0\.1:1\/nope: connect ECONNREFUSED/,
    ],
    ['Redis', { REDIS_URL: 'redis://127.0.0.1:1' }, /Redis at redis:\/\/127\.0\.0\.1:1 does not answer/],
    ['S3', { S3_ENDPOINT: 'http://127.0.0.1:1' }, /S3 at http:\/\/127\.0\.0\.1:1 does not answer/],
  ];
  for (const [name, broken, message] of cases) {
    const err = await startServe({ ...env, ...broken }, ['--role', 'all', '--no-demo']).then(
      (p) => {
        processes.push(p);
        return null;
      },
      (e: Error) => e,
    );
    t.match(err?.message, message, `${name}: refused with a message naming it`);
  }
});

t.test(
  'Redis restarted mid-run (a private redis-server): every job still reaches its end, charged once',
  async (t) => {
    const { spawn } = await import('node:child_process');
    const { createServer } = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    const redisServer = () => {
      const child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      return child;
    };
    let server = redisServer();
    t.teardown(() => {
      server.kill('SIGKILL');
    });
    const ping = new Redis(`redis://127.0.0.1:${port}`, {
      lazyConnect: true,
      retryStrategy: () => 100,
      maxRetriesPerRequest: 1,
    });
    ping.on('error', () => {});
    t.teardown(() => ping.disconnect());
    for (let i = 0; i < 50 && (await ping.ping().catch(() => '')) !== 'PONG'; i++)
      await new Promise((r) => setTimeout(r, 100));
    const privateEnv = { ...env, REDIS_URL: `redis://127.0.0.1:${port}` };
    const apiP = await startServe(privateEnv, ['--role', 'api', '--no-demo']);
    const worker = await startServe(privateEnv, ['--role', 'worker', '--no-demo']);
    processes.push(apiP, worker);
    const ids: { id: string; key: string }[] = [];
    for (const acc of accounts.slice(0, 3)) {
      for (let n = 0; n < 2; n++) {
        const r = await api(apiP.port, acc.key, 'POST', '/generations', {
          templateId: acc.template,
          text: text(n).repeat(20),
        });
        t.equal(r.status, 202, JSON.stringify(r.body));
        ids.push({ id: r.body.id as string, key: acc.key });
      }
    }
    // Redis goes away with everything it held (no persistence), and comes back empty.
    server.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 1500));
    server = redisServer();
    for (const { id, key } of ids) {
      const job = await settle(apiP.port, key, id, 90_000);
      t.equal(
        job.status,
        'completed',
        `${id} completed after the restart (${JSON.stringify(job.error ?? '')})`,
      );
    }
    const charges = await ctx.store.db.kysely
      .selectFrom('ledger')
      .selectAll()
      .where('kind', '=', 'charge')
      .where(
        'job_id',
        'in',
        ids.map((i) => i.id),
      )
      .execute();
    t.equal(charges.length, ids.length, 'each charged once');
  },
);
