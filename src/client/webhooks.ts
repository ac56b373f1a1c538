// Verifying a webhook delivery (docs/webhooks.md): the service signs `<timestamp>.<raw body>`
// with HMAC-SHA256 under the endpoint's secret and sends
// `Scriptorium-Signature: t=<unix seconds>,v1=<hex>` (several v1 while a secret is rotated).
// A receiver checks the signature over the raw bytes it received, before parsing them, and
// refuses a timestamp older than the tolerance, so a captured delivery cannot be replayed later.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ScriptoriumError } from './errors.ts';
import type { components } from './schema.ts';

export const WEBHOOK_TOLERANCE_SECONDS = 300;
export const SIGNATURE_HEADER = 'Scriptorium-Signature';

/** An event as a webhook delivers it; `id` (`evt_…`) is the same in every delivery of it: process each id once. */
export type WebhookEvent = components['schemas']['WebhookEvent'];
/** `batch.completed` (an extension): every row of a batch ended; the batch with its counts is `data.batch`. */
export type BatchWebhookEvent = components['schemas']['BatchEvent'];
/** The event the dashboard's "Send test event" sends to one endpoint: it names the endpoint, no job. */
export type WebhookTestEvent = components['schemas']['WebhookTestEvent'];

/** The signature header's value for `body` at `timestamp` (seconds) under `secret`. */
export function signWebhook(body: string | Uint8Array, secret: string, timestamp: number): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`;
}

function hmac(secret: string, timestamp: number, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/**
 * Checks a delivery and answers its event: the raw body as received, the Scriptorium-Signature
 * header, the endpoint's secret (`whsec_…`). Throws ScriptoriumError INVALID_SIGNATURE when the
 * header is missing or malformed, no signature matches, or the timestamp is outside the
 * tolerance (300 s either way).
 */
export function verifyWebhook(
  body: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  opts: { toleranceSeconds?: number; now?: Date } = {},
): WebhookEvent | BatchWebhookEvent | WebhookTestEvent {
  const refuse = (why: string) => new ScriptoriumError('INVALID_SIGNATURE', `webhook refused: ${why}`);
  if (!header) throw refuse(`no ${SIGNATURE_HEADER} header`);
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [k, v] = part.trim().split('=', 2);
    if (k === 't' && v && /^\d{1,12}$/.test(v)) timestamp = Number(v);
    else if (k === 'v1' && v && /^[0-9a-f]{64}$/.test(v)) signatures.push(v);
  }
  if (timestamp === undefined || signatures.length === 0)
    throw refuse(`${SIGNATURE_HEADER} must be t=<seconds>,v1=<hex>`);
  const expected = Buffer.from(hmac(secret, timestamp, body), 'hex');
  if (!signatures.some((s) => timingSafeEqual(Buffer.from(s, 'hex'), expected)))
    throw refuse('no signature matches the body under this secret');
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const tolerance = opts.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  if (Math.abs(now - timestamp) > tolerance)
    throw refuse(`the timestamp is ${now - timestamp} s away from now, more than ${tolerance} s`);
  return JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString('utf8')) as
    | WebhookEvent
    | BatchWebhookEvent
    | WebhookTestEvent;
}
