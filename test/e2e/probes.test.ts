// Probes: GET /health and /ready on the API port with no key, and on a worker's probe port with
// its /metrics; /ready answers 503 naming the service that does not answer (the blob directory
// gone; in a farm, Redis frozen with SIGSTOP, S3 stopped), within its deadline, and 200 again once
// it is back.
import { renameSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { promtoolAvailable, promtoolProblems } from '../helpers/promtool.ts';
import { startRedis } from '../helpers/redis.ts';
import { startS3 } from '../helpers/s3.ts';
import { call, startTestServer } from '../helpers/server.ts';
import { unavailable } from '../helpers/services.ts';
import { runCommand, startServe } from '../helpers/spawn.ts';
import { postgresFactory } from '../helpers/stores.ts';

async function probe(port: number, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: a test reads any shape of answer
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body, headers: res.headers };
}

t.test('embedded: /health and /ready with no key; the blob directory gone is 503 naming it', async (t) => {
  const server = await startTestServer(t);
  const health = await call(t, server, 'GET', '//health');
  t.equal(health.status, 200);
  t.same(health.body, { status: 'ok' });
  const ready = await call(t, server, 'GET', '//ready');
  t.equal(ready.status, 200);
  t.same(ready.body, { status: 'ready', checks: { store: 'ok', blobs: 'ok' } });
  const head = await fetch(`${server.base}/ready`, { method: 'HEAD' });
  t.equal(head.status, 200, 'HEAD too');

  const blobs = join(server.dir, 'blobs');
  renameSync(blobs, `${blobs}.away`);
  writeFileSync(blobs, 'not a directory');
  // Not an API error: the readiness report itself, with the status that tells.
  const unready = await probe(server.port, '/ready');
  t.equal(unready.status, 503);
  t.match(unready.body, { status: 'unready', checks: { store: 'ok', blobs: /is not a directory/ } });
  rmSync(blobs);
  renameSync(`${blobs}.away`, blobs);
  t.equal((await call(t, server, 'GET', '//ready')).status, 200, 'ready again');
});

t.test(
  'farm: the API port and a worker probe port; Redis frozen and S3 stopped are named, and recover',
  { skip: await unavailable('postgres') },
  async (t) => {
    const pg = await postgresFactory();
    t.teardown(() => pg.cleanup());
    const s3 = await startS3(t);
    const redis = await startRedis();
    t.teardown(() => {
      redis.child.kill('SIGCONT');
      redis.child.kill('SIGKILL');
    });
    const token = 'probe-admin-token-0123456789';
    const env = {
      DATABASE_URL: pg.target.dialect === 'postgres' ? pg.target.url : '',
      REDIS_URL: redis.url,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: s3.accessKey,
      S3_SECRET_KEY: s3.secretKey,
      S3_BUCKET: 'probes',
      PROBE_PORT: '0',
      PROBE_DEADLINE_MS: '500',
      ADMIN_TOKEN: token,
    };
    const api = await startServe(env, ['--role', 'api']);
    const worker = await startServe(env, ['--role', 'worker']);
    t.teardown(async () => {
      await api.stop('SIGKILL');
      await worker.stop('SIGKILL');
    });
    const probePort = Number(/probes on http:\/\/127\.0\.0\.1:(\d+)/.exec(worker.stdout())?.[1]);
    t.ok(probePort > 0, `the worker says where its probes are (${probePort})`);

    for (const [who, port] of [
      ['api', api.port],
      ['worker', probePort],
    ] as const) {
      t.same((await probe(port, '/health')).body, { status: 'ok' }, `${who}: alive`);
      const ready = await probe(port, '/ready');
      t.equal(ready.status, 200, `${who}: ready`);
      t.same(ready.body.checks, { store: 'ok', blobs: 'ok', redis: 'ok' }, `${who}: every service checked`);
    }
    const metrics = await probe(probePort, '/metrics', { authorization: `Bearer ${token}` });
    t.equal(metrics.status, 200, 'the worker is scraped on its probe port');
    t.match(metrics.headers.get('content-type'), /^text\/plain/);
    t.match(metrics.body, /^# HELP /m);
    t.match(
      metrics.body,
      /scriptorium_pool_threads\{process="[^"]+",role="worker"\} \d/,
      "the worker's own figures",
    );
    if (promtoolAvailable || process.env.CI)
      t.same(promtoolProblems(metrics.body), [], 'promtool check metrics passes');
    t.equal((await probe(probePort, '/metrics')).status, 401, 'with the admin token');
    t.equal((await probe(probePort, '/api/v1/templates')).status, 404, 'and nothing else');

    // A second worker on the same host and probe port is refused at once, in one line, and stops
    // cleanly: the first goes on.
    const twin = await runCommand(['serve', '--role', 'worker'], {
      ...env,
      PROBE_PORT: String(probePort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    });
    t.equal(twin.code, 1, 'the second worker exits 1');
    const said = twin.stderr.trim().split('\n');
    t.match(
      said.at(-1),
      `scriptorium: PROBE_PORT ${probePort} is in use on 127.0.0.1 (another worker on this host?): give each worker a PROBE_PORT of its own, or PROBE_PORT=0 for any free port (printed at start)`,
      'its last line names PROBE_PORT',
    );
    t.same(
      said.slice(0, -1).filter((l) => !/S3 lifecycle rule/.test(l)),
      [],
      `and nothing else goes wrong on the way out (${JSON.stringify(twin.stderr.slice(0, 300))})`,
    );
    t.equal((await probe(probePort, '/health')).status, 200, 'the first worker still answers');

    redis.child.kill('SIGSTOP');
    for (const [who, port] of [
      ['api', api.port],
      ['worker', probePort],
    ] as const) {
      const started = Date.now();
      const frozen = await probe(port, '/ready');
      t.equal(frozen.status, 503, `${who}: Redis frozen, unready`);
      // Said as the probe met it: no answer in time, or the connection a frozen Redis had dropped.
      t.match(frozen.body.checks, {
        store: 'ok',
        blobs: 'ok',
        redis: /no answer within 500 ms|timed out|isn't writeable/i,
      });
      t.ok(Date.now() - started < 5000, `${who}: answered within the deadline, not the freeze`);
      t.equal((await probe(port, '/health')).status, 200, `${who}: still alive`);
    }
    redis.child.kill('SIGCONT');
    let back = 0;
    for (let i = 0; i < 50 && back !== 200; i++) {
      back = (await probe(api.port, '/ready')).status;
      if (back !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    t.equal(back, 200, 'ready again once Redis thaws');

    await s3.stop();
    const noS3 = await probe(api.port, '/ready');
    t.equal(noS3.status, 503, 'S3 stopped: unready');
    t.match(noS3.body.checks, { store: 'ok', redis: 'ok', blobs: /./ });
    t.not(noS3.body.checks.blobs, 'ok', `blobs named (${noS3.body.checks.blobs})`);
    await s3.restart();
    t.equal((await probe(api.port, '/ready')).status, 200, 'and back');

    // A worker serves no requests: on SIGTERM it says it finishes its jobs, not requests.
    t.equal(await worker.stop('SIGTERM'), 0, 'the worker stops on SIGTERM');
    t.match(worker.stderr(), /scriptorium: SIGTERM: finishing running jobs, then stopping/);
    t.notMatch(worker.stderr(), /in-flight requests/, 'and claims no requests');
  },
);
