// The OpenAPI document says what the server enforces: each request below is refused by the real
// server with 400, and the document, validating the same request, refuses it too; a valid one
// passes both.
import t from 'tap';
import { requestProblems, type Sent } from '../helpers/openapi.ts';
import { call, startTestServer } from '../helpers/server.ts';

const server = await startTestServer(t);
const a = await server.tenant();
const simple = a.templates.test.simple;
const letter = 'Dear Margaret, thank you for the lovely afternoon.';

async function send(s: Sent) {
  const query = s.query ? `?${new URLSearchParams(s.query)}` : '';
  return call(t, server, s.method, `${s.path}${query}`, {
    key: a.test,
    ...(s.body === undefined ? {} : { body: s.body }),
    ...(s.headers ? { headers: s.headers } : {}),
  });
}

const refused: [string, Sent][] = [
  [
    'two input fields',
    { method: 'POST', path: '/generations', body: { templateId: simple, text: letter, data: {} } },
  ],
  ['no input field', { method: 'POST', path: '/generations', body: { templateId: simple } }],
  [
    'a preview with two input fields',
    { method: 'POST', path: '/previews', body: { templateId: simple, text: letter, content: [] } },
  ],
  ['empty text for a job', { method: 'POST', path: '/generations', body: { templateId: simple, text: '' } }],
  [
    'whitespace alone for a job',
    { method: 'POST', path: '/generations', body: { templateId: simple, text: ' \n\t ' } },
  ],
  [
    'empty text for a render',
    { method: 'POST', path: '/renders', body: { templateId: simple, text: '', format: 'svg' } },
  ],
  [
    'a day that does not exist',
    { method: 'GET', path: '/usage', query: { from: '2026-02-30', to: '2026-03-02' } },
  ],
  ['a date that is not one', { method: 'GET', path: '/usage', query: { from: '2026-13-01' } }],
  [
    'createdFrom neither a date nor a date-time',
    { method: 'GET', path: '/generations', query: { createdFrom: 'yesterday' } },
  ],
  [
    'createdTo a date-time without its offset',
    { method: 'GET', path: '/generations', query: { createdTo: '2026-11-24T15:00:00' } },
  ],
  [
    'an Idempotency-Key outside visible ASCII',
    {
      method: 'POST',
      path: '/generations',
      headers: { 'idempotency-key': 'clé-1' },
      body: { templateId: simple, text: letter },
    },
  ],
  [
    'a C1 control character in a metadata value',
    {
      method: 'POST',
      path: '/generations',
      body: { templateId: simple, text: letter, metadata: { note: 'a\u0085b' } },
    },
  ],
  [
    'a control character in a metadata key',
    {
      method: 'POST',
      path: '/generations',
      body: { templateId: simple, text: letter, metadata: { 'k\u0007': 'v' } },
    },
  ],
  [
    'more than 20 metadata keys',
    {
      method: 'POST',
      path: '/generations',
      body: {
        templateId: simple,
        text: letter,
        metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])),
      },
    },
  ],
];

for (const [label, sent] of refused)
  t.test(label, async (t) => {
    const r = await send(sent);
    t.equal(r.status, 400, `the server refuses it: ${JSON.stringify(r.body.error?.message)}`);
    t.equal(r.body.error?.code, 'INVALID_REQUEST');
    const problems = requestProblems(sent);
    t.ok(problems.length > 0, `the document refuses it too (${problems[0] ?? 'no problem found'})`);
  });

t.test('valid requests pass both', async (t) => {
  const valid: Sent[] = [
    { method: 'GET', path: '/usage', query: { from: '2024-02-29', to: '2024-03-01' } },
    {
      method: 'GET',
      path: '/generations',
      query: { createdFrom: '2026-11-24', createdTo: '2026-11-24T15:00:00+01:00' },
    },
    {
      method: 'POST',
      path: '/generations',
      headers: { 'idempotency-key': 'order 17/A' },
      body: { templateId: simple, text: letter, metadata: { note: 'leave it at the door' } },
    },
    { method: 'POST', path: '/renders', body: { templateId: simple, text: 'Hello', format: 'svg' } },
  ];
  for (const sent of valid) {
    t.same(requestProblems(sent), [], `${sent.method} ${sent.path}: the document takes it`);
    const r = await send(sent);
    t.ok(r.status < 300, `and the server (${r.status})`);
  }
});
