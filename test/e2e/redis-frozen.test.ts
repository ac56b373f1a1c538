// A Redis of the test's own (a real redis-server on a free port) frozen with SIGSTOP, then
// killed: a farm's API process keeps answering, the limits fall back to memory (the PNG render slot too), and
// no limit answers 5xx. Without a command timeout every request waited as long as the freeze.
import t, { type Test } from 'tap';
import { REDIS_COMMAND_TIMEOUT_MS } from '../../src/composition.ts';
import { startRedis } from '../helpers/redis.ts';
import { startTestServer } from '../helpers/server.ts';

const redis = await startRedis();
t.teardown(() => {
  redis.child.kill('SIGCONT');
  redis.child.kill('SIGKILL');
});
const server = await startTestServer(
  t,
  {
    redisUrl: redis.url,
    redisPrefix: 'frozen:',
    rateLimitPerMinute: 1000,
    rendersPerMinute: 1000,
  },
  { role: 'api' },
);
const a = await server.tenant();
const tpl = a.templates.live.simple;

/** Every request a client makes while Redis is in trouble; none may wait past the client's patience. */
async function requests(t: Test): Promise<number> {
  let slowest = 0;
  const ask = async (method: string, path: string, body?: unknown) => {
    const started = Date.now();
    const res = await fetch(`${server.base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${a.live}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      // The freeze lasts as long as the test: a request that waits on Redis never comes back
      // (the first render also starts a render thread: on a loaded machine that takes seconds).
      signal: AbortSignal.timeout(30_000),
    });
    await res.arrayBuffer();
    slowest = Math.max(slowest, Date.now() - started);
    return res.status;
  };
  t.equal(await ask('GET', `/templates/${tpl}`), 200, 'a read, through the per-key limit');
  t.equal(
    await ask('POST', '/renders', { templateId: tpl, text: 'Frozen.', format: 'svg' }),
    200,
    'an SVG render',
  );
  t.equal(
    await ask('POST', '/renders', { templateId: tpl, text: 'Frozen.', format: 'png' }),
    200,
    'a PNG render: its slot falls back to this process',
  );
  t.equal(await ask('GET', '/usage'), 200, 'usage');
  return slowest;
}

t.test('with Redis answering', async (t) => {
  await requests(t);
});

t.test('with Redis frozen by SIGSTOP: answered, limits from memory, no 5xx', async (t) => {
  redis.child.kill('SIGSTOP');
  t.teardown(() => {
    redis.child.kill('SIGCONT');
  });
  // Twice: while the freeze is being found out (each command waits out its timeout), then after.
  const first = await requests(t);
  const then = await requests(t);
  t.comment(`slowest answer ${first} ms, then ${then} ms (command timeout ${REDIS_COMMAND_TIMEOUT_MS} ms)`);
});

t.test('with Redis gone: answered all the same', async (t) => {
  redis.child.kill('SIGCONT');
  redis.child.kill('SIGKILL');
  await new Promise((r) => redis.child.once('exit', r));
  await requests(t);
});
