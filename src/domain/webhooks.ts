// Webhooks (an extension: spec §6 has no events; docs/webhooks.md): which event a finished job
// makes, what an endpoint may be, and when a failed delivery is tried again. Pure.
import { invalid, show, apiRefusal } from './errors.ts';
import { type Job, jobView } from './generation.ts';
import { WEBHOOK_EVENTS, type WebhookEventType } from './webhook-events.ts';

export { WEBHOOK_EVENTS, type WebhookEventType } from './webhook-events.ts';

/** The event an owner sends on demand to one endpoint, to see it arrive: never subscribed to. */
export const TEST_EVENT = 'webhook.test';
/** What a delivery carries: one of the job events, or the test event. */
export type DeliveryEventType = WebhookEventType | typeof TEST_EVENT;

/** The event a job's final state makes, or null (a cancel is the integrator's own doing). */
export function eventOf(job: Job): Exclude<WebhookEventType, typeof BATCH_EVENT> | null {
  if (job.status !== 'completed' && job.status !== 'failed') return null;
  return `${job.kind === 'pdf' ? 'generation' : 'preview'}.${job.status}`;
}

/** The body of every delivery of one event: its id, type, time and the job as the API shows it. */
export function eventBody(
  id: string,
  type: Exclude<WebhookEventType, typeof BATCH_EVENT>,
  job: Job,
  at: string,
): string {
  return JSON.stringify({ id, type, createdAt: at, data: { generation: jobView(job) } });
}

/** A batch's event: every one of its rows ended (docs/batches.md). */
export const BATCH_EVENT = 'batch.completed';

/** The body of a batch's event: its id, type, time and the batch as the API shows it, with its counts. */
export function batchEventBody(id: string, type: typeof BATCH_EVENT, batch: unknown, at: string): string {
  return JSON.stringify({ id, type, createdAt: at, data: { batch } });
}

/** The body of a test event: the endpoint it was sent to, nothing of any job. */
export function testEventBody(
  id: string,
  endpoint: { id: string; url: string; mode: string },
  at: string,
): string {
  return JSON.stringify({
    id,
    type: TEST_EVENT,
    createdAt: at,
    data: { endpoint: { id: endpoint.id, url: endpoint.url, mode: endpoint.mode } },
  });
}

/**
 * The waits before each retry, as multiples of the first (WEBHOOK_RETRY_BASE_MS, 10 s): 10 s,
 * 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h, 12 h. Eleven tries over 34.7 hours; then the
 * delivery is failed (an operator may send it again).
 */
export const RETRY_STEPS = [1, 3, 12, 60, 180, 360, 1080, 2160, 4320, 4320] as const;

/** When try `attempts + 1` is due after `attempts` failed ones, or null when none is left. */
export function nextAttemptAt(attempts: number, baseMs: number, now: Date): Date | null {
  const step = RETRY_STEPS[attempts - 1];
  return step === undefined ? null : new Date(now.getTime() + step * baseMs);
}

export const WEBHOOK_LIMITS = { endpointsPerAccount: 10, urlChars: 2048 } as const;

/**
 * A URL as a message may repeat it: whatever stands before the host's `@` (a user name and
 * password) replaced by `***`, also in text that does not parse as a URL (`admin:pw@host`).
 */
export function withoutCredentials(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/?#]*@/i, (_, scheme = '') => `${scheme}***@`);
}

/**
 * An endpoint's URL: http or https, no credentials in it, at most 2,048 characters. A refusal
 * never repeats a user name or password it was sent (nor does the log of the request).
 */
export function checkWebhookUrl(value: unknown): string {
  const what = 'an http:// or https:// URL of at most 2,048 characters, without user:password@';
  const sent = typeof value === 'string' ? withoutCredentials(value) : value;
  if (typeof value !== 'string' || value.length > WEBHOOK_LIMITS.urlChars) throw invalid('url', what, sent);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('url', what, sent);
  }
  if (url.username || url.password)
    throw apiRefusal(
      'INVALID_REQUEST',
      `url must not carry a user name or password (user:password@ before the host); got ${show(sent)}: sign requests with the endpoint's secret instead`,
      { field: 'url' },
    );
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('url', what, sent);
  return url.toString();
}

/** The events an endpoint takes: some of WEBHOOK_EVENTS, every one when none are named. */
export function checkWebhookEvents(value: unknown): WebhookEventType[] {
  if (value === undefined) return [...WEBHOOK_EVENTS];
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : null;
  const what = `a list of ${WEBHOOK_EVENTS.join(', ')}`;
  if (!list?.length) throw invalid('events', what, value);
  for (const e of list) if (!WEBHOOK_EVENTS.includes(e as WebhookEventType)) throw invalid('events', what, e);
  return [...new Set(list as WebhookEventType[])];
}
