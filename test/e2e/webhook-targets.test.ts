// Webhook endpoints reach public addresses only, by default: an endpoint on loopback, a private
// network, link-local (the cloud metadata address) or a name that resolves to one is refused when
// an owner adds it in the dashboard or the operator through the admin API, naming the URL and the
// address; and a delivery whose endpoint resolves to such an address when it is sent (registered
// before, or a name whose address changed) is not sent: its try records why. A URL carrying a
// user name and password is refused without repeating them, wherever it is given and in the logs.
import { pino } from 'pino';
import t from 'tap';
import { cli } from '../helpers/cli.ts';
import { dashboardCall, signUpOverHttp } from '../helpers/dashboard-api.ts';
import { startReceiver, until } from '../helpers/receiver.ts';
import { startTestServer } from '../helpers/server.ts';

const ADMIN = 'webhook-targets-admin-token-0123';
const server = await startTestServer(t, { adminToken: ADMIN, webhookPollMs: 50 });

const PRIVATE = [
  'http://127.0.0.1:8080/hooks',
  'http://localhost/hooks',
  'http://[::1]/hooks',
  'https://10.0.0.7/hooks',
  'http://192.168.1.20/hooks',
  'http://169.254.169.254/latest/meta-data/',
  'http://2130706433/hooks',
];

t.test('refused when added, through the admin API and the dashboard', async (t) => {
  const a = await server.tenant();
  for (const url of PRIVATE) {
    const res = await fetch(`${server.base}/admin/v1/accounts/${a.accountId}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, mode: 'test' }),
    });
    const body = (await res.json()) as { error: { code: string; field: string; message: string } };
    t.equal(res.status, 400, `${url}: 400`);
    t.match(body.error, {
      code: 'INVALID_REQUEST',
      field: 'url',
      message:
        /^url must be an endpoint on a public address, got ".*": .* not a public address \(an operator may allow private addresses with WEBHOOK_PRIVATE_TARGETS\)$/,
    });
  }
  t.equal((await server.ctx.store.webhooks.listEndpoints(a.accountId)).length, 0, 'nothing added');

  // The dashboard: an owner's session, the same refusal.
  const session = await signUpOverHttp(server, 'owner@example.com', {
    name: 'Owner',
    accountName: 'Targets',
  });
  const res = await dashboardCall(
    server,
    session,
    'POST',
    '/webhooks',
    JSON.stringify({ mode: 'live', url: 'http://169.254.169.254/latest/meta-data/' }),
  );
  t.equal(res.status, 400);
  t.match(res.body, {
    error: { field: 'url', message: /169\.254\.169\.254 is not a public address/ },
  });
});

t.test('not sent when the endpoint leads to a private address at sending time', async (t) => {
  const a = await server.tenant();
  const receiver = await startReceiver(t, () => 'unused');
  // Registered past the check (as an endpoint added before the rule, or a name whose address
  // changed since): the dispatcher looks at the address it would connect to.
  const port = new URL(receiver.url).port;
  const byName = await server.ctx.store.webhooks.addEndpoint(
    { accountId: a.accountId, mode: 'test' },
    {
      url: `http://localhost:${port}/hooks`,
      events: ['generation.completed'],
      description: '',
      secret: 'whsec_x',
    },
    new Date(),
  );
  const byAddress = await server.ctx.store.webhooks.addEndpoint(
    { accountId: a.accountId, mode: 'test' },
    { url: receiver.url, events: ['generation.completed'], description: '', secret: 'whsec_x' },
    new Date(),
  );
  const sent = [
    await server.ctx.store.webhooks.enqueueTest(byName, new Date()),
    await server.ctx.store.webhooks.enqueueTest(byAddress, new Date()),
  ];
  const tried = async () =>
    Promise.all(sent.map(async (d) => (await server.ctx.store.webhooks.getDelivery(d.id))!.delivery));
  await until('both are tried', async () => (await tried()).every((d) => d.attempts === 1));
  const [named, literal] = await tried();
  t.match(named, {
    status: 'pending',
    lastStatus: null,
    lastError: /^localhost resolves to (127\.0\.0\.1|::1), which is not a public address \(ENOTPUBLIC\)$/,
  });
  t.match(literal, {
    status: 'pending',
    lastStatus: null,
    lastError: '127.0.0.1 is not a public address (ENOTPUBLIC)',
  });
  t.equal(
    receiver.received.length + receiver.tests.length + receiver.refused.length,
    0,
    'nothing reached the receiver',
  );
});

t.test(
  'a URL with a user name and password is refused without repeating them: admin API, dashboard, command line, logs',
  async (t) => {
    const lines: string[] = [];
    const logged = await startTestServer(
      t,
      { adminToken: ADMIN, accessLogSample: 1 },
      { log: pino({ level: 'info' }, { write: (line: string) => lines.push(line) }) },
    );
    const a = await logged.tenant();
    const session = await signUpOverHttp(logged, 'secrets@example.com');
    for (const url of [
      'http://admin:hunter2@hooks.example.com/in',
      'https://hunter2@hooks.example.com/in',
      'http://admin:hunter2@[not a host',
      'admin:hunter2@hooks.example.com',
    ]) {
      const viaAdmin = await fetch(`${logged.base}/admin/v1/accounts/${a.accountId}/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url, mode: 'test' }),
      });
      const text = await viaAdmin.text();
      t.equal(viaAdmin.status, 400, `admin API, ${url}: 400`);
      t.match(JSON.parse(text).error, { field: 'url', message: /\*\*\*@/ });
      t.notMatch(text, /hunter2/, 'the admin API does not repeat the password');
      const viaDashboard = await dashboardCall(
        logged,
        session,
        'POST',
        '/webhooks',
        JSON.stringify({ mode: 'live', url }),
      );
      t.equal(viaDashboard.status, 400, `dashboard, ${url}: 400`);
      t.notMatch(JSON.stringify(viaDashboard.body), /hunter2/, 'nor does the dashboard');
    }
    const viaCli = await cli(
      [
        'admin',
        'webhook',
        'add',
        '--account',
        a.accountId,
        '--url',
        'http://admin:hunter2@hooks.example.com/in',
      ],
      { DATA_DIR: logged.dir },
    );
    t.not(viaCli.code, 0, 'the command refuses it');
    t.match(viaCli.stderr, /user name or password.*\*\*\*@hooks\.example\.com/);
    t.notMatch(viaCli.stdout + viaCli.stderr, /hunter2/, 'nor does the command line');
    t.ok(
      lines.some((l) => l.includes('/webhooks')),
      'the requests were logged',
    );
    t.notMatch(lines.join('\n'), /hunter2/, 'nor do the logs');
    t.same(await logged.ctx.store.webhooks.listEndpoints(a.accountId), [], 'and nothing was added');
  },
);
