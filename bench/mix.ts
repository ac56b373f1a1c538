// An integrator's day in one autocannon run, against a running deployment: each connection goes
// round a cycle of six reads (the template, the usage), one synchronous SVG render and one PDF
// job, as an integrator checks, previews and sends. Prints what came back by status (a 429 by the
// limit that refused it, its body's `reason`) and the figures of the whole mix; docs/operations.md,
// "Load testing", says which limits to raise first.
//
//   node --import tsx bench/mix.ts --url http://127.0.0.1:8080 --key hw_test_… --template tpl_…
//     [--connections 20] [--duration 30]
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    key: { type: 'string', default: process.env.SCRIPTORIUM_API_KEY },
    template: { type: 'string' },
    connections: { type: 'string', default: '20' },
    duration: { type: 'string', default: '30' },
  },
});
if (!args.url || !args.key || !args.template)
  throw new Error('bench/mix.ts needs --url, --key (or SCRIPTORIUM_API_KEY) and --template');

const templateId = args.template;
const json = (body: unknown) => JSON.stringify(body);
/** 429s by the limit that refused them (the error body's `reason`). */
const refusedBy = new Map<string, number>();
const onResponse = (status: number, body: string) => {
  if (status !== 429) return;
  let reason = 'no reason given';
  try {
    reason = (JSON.parse(body) as { error?: { reason?: string } }).error?.reason ?? reason;
  } catch {}
  refusedBy.set(reason, (refusedBy.get(reason) ?? 0) + 1);
};
const read = { method: 'GET' as const, path: `/api/v1/templates/${templateId}`, onResponse };
const usage = { method: 'GET' as const, path: '/api/v1/usage', onResponse };
const result = await autocannon({
  url: args.url.replace(/\/+$/, ''),
  connections: Number(args.connections),
  duration: Number(args.duration),
  headers: { authorization: `Bearer ${args.key}`, 'content-type': 'application/json' },
  requests: [
    read,
    usage,
    read,
    {
      method: 'POST',
      path: '/api/v1/renders',
      body: json({ templateId, text: 'See you soon.', format: 'svg' }),
      onResponse,
    },
    read,
    usage,
    read,
    {
      method: 'POST',
      path: '/api/v1/generations',
      body: json({ templateId, text: 'Dear friend, a short letter from the load test.' }),
      onResponse,
    },
  ],
});

const byStatus = Object.entries(result.statusCodeStats ?? {})
  .map(([status, s]) => `${status}: ${(s as { count: number }).count}`)
  .join(', ');
console.log(
  [
    `requests: ${result.requests.total} in ${result.duration} s, ${Math.round(result.requests.average)} a second`,
    `latency: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
    `answers by status: ${byStatus}; connection errors ${result.errors}, timeouts ${result.timeouts}`,
    `429s by limit: ${
      refusedBy.size ? [...refusedBy].map(([reason, n]) => `${reason} ${n}`).join(', ') : 'none'
    } (docs/operations.md, "Load testing", says how to raise each)`,
  ].join('\n'),
);
