// Webhooks (an extension, docs/webhooks.md): the operator's endpoint use-cases, and the
// dispatcher that sends the outbox. The dispatcher runs wherever jobs run (a single box, each
// worker of a farm); it takes due deliveries under a lease, POSTs each signed body, and records
// the try: delivered on a 2xx, otherwise due again after the next step of the retry schedule.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Logger } from 'pino';
import { signWebhook } from '../client/webhooks.ts';
import type { Config } from '../config/index.ts';
import { Refusal, apiRefusal } from '../domain/errors.ts';
import { shownId } from '../domain/ids.ts';
import type { KeyMode } from '../domain/api-keys.ts';
import type { Tenant } from '../domain/tenant.ts';
import { checkWebhookEvents, checkWebhookUrl } from '../domain/webhooks.ts';
import { newSecret } from '../lib/ids.ts';
import {
  isPublicAddress,
  literalAddress,
  NotPublicError,
  privateTarget,
  publicLookup,
} from '../lib/public-address.ts';
import type { ClaimedDelivery, DeliveryStatus, Store, WebhookEndpoint } from '../store/index.ts';

export interface WebhookDeps {
  store: Store;
  now: () => Date;
  config: Pick<Config, 'webhookPrivateTargets'>;
}

/** Registers an endpoint for an account and key mode; its secret is shown in the answer once. */
export async function addWebhook(
  d: WebhookDeps,
  input: { account: string; mode: KeyMode; url: unknown; events?: unknown; description?: string },
): Promise<WebhookEndpoint> {
  const url = checkWebhookUrl(input.url);
  const events = checkWebhookEvents(input.events);
  const leads = d.config.webhookPrivateTargets ? null : await privateTarget(new URL(url));
  if (leads)
    throw apiRefusal(
      'INVALID_REQUEST',
      `url must be an endpoint on a public address, got ${JSON.stringify(url)}: ${leads} (an operator may allow private addresses with WEBHOOK_PRIVATE_TARGETS)`,
      { field: 'url' },
    );
  return d.store.webhooks.addEndpoint(
    { accountId: input.account, mode: input.mode },
    { url, events, description: input.description ?? '', secret: newSecret('whsec') },
    d.now(),
  );
}

/** An endpoint as it is listed: the secret by its first characters only. */
export const endpointView = ({ secret, ...e }: WebhookEndpoint) => ({
  ...e,
  secretPrefix: `${secret.slice(0, 12)}…`,
});

const noEndpoint = (id: string) => new Refusal('missing', `webhook endpoint ${shownId(id)} does not exist`);

/** An endpoint of this account and key mode (the dashboard's wall), or 404 as if there were none. */
async function endpointOf(d: WebhookDeps, tenant: Tenant, id: string): Promise<WebhookEndpoint> {
  const e = await d.store.webhooks.getEndpoint(id);
  if (!e || e.accountId !== tenant.accountId || e.mode !== tenant.mode) throw noEndpoint(id);
  return e;
}

/** Removes an endpoint: any (an operator), or only one of `tenant` (an account's owner). */
export async function removeWebhook(d: WebhookDeps, id: string, tenant?: Tenant): Promise<WebhookEndpoint> {
  if (tenant) await endpointOf(d, tenant, id);
  const removed = await d.store.webhooks.removeEndpoint(id, d.now());
  if (!removed) throw noEndpoint(id);
  return removed;
}

/** An account's endpoints of one key mode, newest first, each with its secret's first characters only. */
export async function tenantWebhooks(d: WebhookDeps, tenant: Tenant) {
  const all = await d.store.webhooks.listEndpoints(tenant.accountId);
  return all.filter((e) => e.mode === tenant.mode).map(endpointView);
}

/** Sends the test event to one endpoint of `tenant`: its delivery, due now, tried and retried as any. */
export async function sendTestEvent(d: WebhookDeps, tenant: Tenant, id: string) {
  return d.store.webhooks.enqueueTest(await endpointOf(d, tenant, id), d.now());
}

export function listDeliveries(
  d: WebhookDeps,
  filter: {
    limit: number;
    cursor?: string;
    accountId?: string;
    mode?: KeyMode;
    endpointId?: string;
    status?: DeliveryStatus;
    jobId?: string;
  },
) {
  return d.store.webhooks.listDeliveries(filter);
}

export async function showDelivery(d: WebhookDeps, id: string) {
  const found = await d.store.webhooks.getDelivery(id);
  if (!found) throw new Refusal('missing', `delivery ${shownId(id)} does not exist`);
  return found;
}

export async function redeliver(d: WebhookDeps, id: string) {
  const again = await d.store.webhooks.redeliver(id, d.now());
  if (!again) throw new Refusal('missing', `delivery ${shownId(id)} does not exist`);
  return again;
}

export interface DispatcherDeps {
  store: Store;
  config: Pick<Config, 'webhookRetryBaseMs' | 'webhookTimeoutMs' | 'webhookPollMs' | 'webhookPrivateTargets'>;
  now: () => Date;
  log: Logger;
}

/** How many deliveries one round takes at most. */
const BATCH = 20;
/** How many sends one dispatcher has open at once: slow receivers cannot make it hold more. */
const MAX_IN_FLIGHT = 50;
/** Bytes of a receiver's answer read before the connection is closed: the status is what counts. */
const ANSWER_READ_MAX = 4 * 1024;

export class WebhookDispatcher {
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly d: DispatcherDeps) {}

  start(): void {
    this.timer = setInterval(() => this.nudge(), this.d.config.webhookPollMs);
    this.timer.unref();
    this.nudge();
  }

  /** Looks for due deliveries now (a job just finished here), without waiting for the next poll. */
  nudge(): void {
    if (this.stopped) return;
    if (this.round) {
      this.again = true;
      return;
    }
    this.round = this.tick()
      .then(() => {})
      .catch((err: unknown) => this.d.log.warn({ err }, 'webhook dispatch round failed'))
      .finally(() => {
        this.round = null;
        if (this.again) {
          this.again = false;
          this.nudge();
        }
      });
  }

  /** One round: takes what is due and sends it all; answers how many were taken. */
  async tick(): Promise<number> {
    // Held for two answer times and a second: a try and its record fit well within it.
    const leaseMs = this.d.config.webhookTimeoutMs * 2 + 1000;
    const room = Math.min(BATCH, MAX_IN_FLIGHT - this.inFlight.size);
    if (room <= 0) return 0; // a send that ends nudges the next round
    const claimed = await this.d.store.webhooks.claim(this.d.now(), room, leaseMs);
    for (const c of claimed) {
      const p = this.send(c).finally(() => {
        this.inFlight.delete(p);
        if (this.inFlight.size === MAX_IN_FLIGHT - 1) this.nudge();
      });
      this.inFlight.add(p);
    }
    if (claimed.length === room) this.again = true;
    return claimed.length;
  }

  private async send(c: ClaimedDelivery): Promise<void> {
    const at = this.d.now();
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      statusCode = await this.post(c, {
        'content-type': 'application/json',
        'user-agent': 'Scriptorium-Webhooks/1',
        'scriptorium-signature': signWebhook(c.body, c.secret, Math.floor(at.getTime() / 1000)),
        'scriptorium-event-id': c.delivery.eventId,
        'scriptorium-event-type': c.delivery.eventType,
        'scriptorium-delivery-id': c.delivery.id,
        'scriptorium-attempt': String(c.delivery.attempts + 1),
      });
      if (statusCode < 200 || statusCode >= 300)
        error = `HTTP ${statusCode}${statusCode >= 300 && statusCode < 400 ? ' (redirects are not followed)' : ''}`;
    } catch (err) {
      const e = err as Error & { code?: string };
      error = e.code && !e.message.includes(e.code) ? `${e.message} (${e.code})` : e.message;
    }
    const durationMs = performance.now() - started;
    const done = await this.d.store.webhooks
      .recordAttempt(c, { statusCode, error, durationMs, at }, this.d.config.webhookRetryBaseMs, this.d.now())
      .catch((err: unknown) => {
        // The try happened but could not be written: the lease runs out and it is sent again.
        this.d.log.warn({ err, delivery: c.delivery.id }, 'could not record a webhook delivery');
        return null;
      });
    if (done?.status === 'failed')
      this.d.log.warn(
        { delivery: c.delivery.id, event: c.delivery.eventId, endpoint: c.delivery.endpointId, error },
        'webhook delivery failed for good',
      );
  }

  /**
   * One POST of a delivery; answers the status once the head arrives. Of the answer's body at most
   * ANSWER_READ_MAX bytes are read, then the connection is closed; whatever the receiver does, the
   * whole try ends within the timeout (a body streamed slowly is cut there). No redirect is
   * followed; unless private targets are allowed, the connection goes only to a public address
   * (the check is on the address the socket connects to, so a name that resolves elsewhere later
   * is still refused).
   */
  private post(c: ClaimedDelivery, headers: Record<string, string>): Promise<number> {
    const url = new URL(c.url);
    const literal = literalAddress(url);
    const guard = !this.d.config.webhookPrivateTargets;
    if (guard && literal && !isPublicAddress(literal))
      return Promise.reject(new NotPublicError(literal, literal));
    const ms = this.d.config.webhookTimeoutMs;
    return new Promise<number>((resolve, reject) => {
      const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
        url,
        { method: 'POST', headers, ...(guard ? { lookup: publicLookup } : {}) },
        (res) => {
          resolve(res.statusCode ?? 0);
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > ANSWER_READ_MAX) req.destroy();
          });
          res.on('error', () => {}); // cut off here, or by the timer: the status is already known
        },
      );
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${ms} ms`)), ms);
      req.on('close', () => clearTimeout(timer));
      req.on('error', reject); // after the head, a no-op: the promise is settled
      req.end(c.body);
    });
  }

  /** Stops taking deliveries and waits (up to `graceMs`) for those being sent. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.round;
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise((r) => setTimeout(r, graceMs).unref()),
    ]);
  }
}
