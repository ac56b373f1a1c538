// Webhook endpoints and the outbox of their deliveries. A job's final state and its deliveries are
// written in one transaction (enqueue), so an event is never lost nor sent for a state that did
// not commit. Dispatchers take due deliveries under a lease (SKIP LOCKED on PostgreSQL, the write
// lock on SQLite): one sends a delivery at a time; one that dies holding it frees it at the lease's end.
import type { Insertable, Selectable } from 'kysely';
import { Refusal } from '../domain/errors.ts';
import type { Job } from '../domain/generation.ts';
import type { Tenant } from '../domain/tenant.ts';
import {
  BATCH_EVENT,
  batchEventBody,
  type DeliveryEventType,
  eventBody,
  eventOf,
  nextAttemptAt,
  TEST_EVENT,
  testEventBody,
  WEBHOOK_LIMITS,
  type WebhookEventType,
} from '../domain/webhooks.ts';
import { newId, newToken } from '../lib/ids.ts';
import { type Db, num, type Tx } from './database.ts';
import { type Page, pageOf } from './paging.ts';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from './schema.ts';

export interface WebhookEndpoint {
  id: string;
  accountId: string;
  mode: Tenant['mode'];
  url: string;
  secret: string;
  events: WebhookEventType[];
  description: string;
  createdAt: string;
  removedAt: string | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDelivery {
  id: string;
  eventId: string;
  eventType: DeliveryEventType;
  endpointId: string;
  accountId: string;
  mode: Tenant['mode'];
  /** The job whose end made the event; null for a test event. */
  jobId: string | null;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookAttempt {
  attempt: number;
  at: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}

/** A delivery a dispatcher holds: what to send, where, signed with which secret. */
export interface ClaimedDelivery {
  delivery: WebhookDelivery;
  body: string;
  url: string;
  secret: string;
  owner: string;
}

const toEndpoint = (r: Selectable<WebhookEndpointsTable>): WebhookEndpoint => ({
  id: r.id,
  accountId: r.account_id,
  mode: r.mode as Tenant['mode'],
  url: r.url,
  secret: r.secret,
  events: JSON.parse(r.events) as WebhookEventType[],
  description: r.description,
  createdAt: r.created_at,
  removedAt: r.removed_at,
});

/** A new delivery's row: due now, never tried. A test event has no job (an empty job_id). */
function pendingRow(
  e: { eventId: string; type: DeliveryEventType; endpointId: string; tenant: Tenant; jobId: string },
  body: string,
  at: string,
): Insertable<WebhookDeliveriesTable> {
  return {
    id: newId('dlv'),
    event_id: e.eventId,
    event_type: e.type,
    endpoint_id: e.endpointId,
    account_id: e.tenant.accountId,
    mode: e.tenant.mode,
    job_id: e.jobId,
    body,
    status: 'pending',
    attempts: 0,
    schedule_from: 0,
    next_attempt_at: at,
    lease_until: null,
    lease_owner: null,
    last_status: null,
    last_error: null,
    delivered_at: null,
    created_at: at,
    updated_at: at,
  };
}

const toDelivery = (r: Selectable<WebhookDeliveriesTable>): WebhookDelivery => ({
  id: r.id,
  eventId: r.event_id,
  eventType: r.event_type as DeliveryEventType,
  endpointId: r.endpoint_id,
  accountId: r.account_id,
  mode: r.mode as Tenant['mode'],
  jobId: r.job_id || null,
  status: r.status as DeliveryStatus,
  attempts: num(r.attempts),
  nextAttemptAt: r.next_attempt_at,
  lastStatus: r.last_status === null ? null : num(r.last_status),
  lastError: r.last_error,
  deliveredAt: r.delivered_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class WebhookRepo {
  constructor(private readonly db: Db) {}

  /** Registers an endpoint; an account has at most 10 that are not removed (both key modes). */
  async addEndpoint(
    tenant: Tenant,
    e: { url: string; events: WebhookEventType[]; description: string; secret: string },
    now: Date,
  ): Promise<WebhookEndpoint> {
    const row: WebhookEndpointsTable = {
      id: newId('hook'),
      account_id: tenant.accountId,
      mode: tenant.mode,
      url: e.url,
      secret: e.secret,
      events: JSON.stringify(e.events),
      description: e.description,
      created_at: now.toISOString(),
      removed_at: null,
    };
    await this.db.write(async (tx) => {
      const account = await this.db
        .forUpdate(tx.selectFrom('accounts').select('id').where('id', '=', tenant.accountId))
        .executeTakeFirst();
      if (!account) throw new Refusal('missing', `account ${tenant.accountId} does not exist`);
      const active = num(
        (
          await tx
            .selectFrom('webhook_endpoints')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('account_id', '=', tenant.accountId)
            .where('removed_at', 'is', null)
            .executeTakeFirst()
        )?.n,
      );
      if (active >= WEBHOOK_LIMITS.endpointsPerAccount)
        throw new Refusal(
          'invalid',
          `an account may have at most ${WEBHOOK_LIMITS.endpointsPerAccount} webhook endpoints, it has ${active}: remove one first`,
        );
      await tx.insertInto('webhook_endpoints').values(row).execute();
    });
    return toEndpoint(row);
  }

  async listEndpoints(accountId: string): Promise<WebhookEndpoint[]> {
    const rows = await this.db.kysely
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('removed_at', 'is', null)
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map(toEndpoint);
  }

  /** Removes an endpoint: it gets no new deliveries, and its pending ones fail when they come due. */
  async removeEndpoint(id: string, now: Date): Promise<WebhookEndpoint | null> {
    return this.db.write(async (tx) => {
      const row = await this.db
        .forUpdate(tx.selectFrom('webhook_endpoints').selectAll().where('id', '=', id))
        .executeTakeFirst();
      if (!row) return null;
      if (!row.removed_at)
        await tx
          .updateTable('webhook_endpoints')
          .set({ removed_at: now.toISOString() })
          .where('id', '=', id)
          .execute();
      return toEndpoint({ ...row, removed_at: row.removed_at ?? now.toISOString() });
    });
  }

  /**
   * The outbox: inside the transaction that sets `job` to its final state, one delivery of its
   * event to each endpoint of the job's account and key mode that takes that event.
   */
  async enqueue(tx: Tx, job: Job, now: Date): Promise<void> {
    const type = eventOf(job);
    if (type)
      await this.publish(tx, { accountId: job.accountId, mode: job.mode }, type, job.id, now, (id, at) =>
        eventBody(id, type, job, at),
      );
  }

  /** The outbox of a batch whose last row ended: `batch.completed`, with the batch as the API shows it. */
  async enqueueBatch(tx: Tx, tenant: Tenant, batchId: string, view: unknown, now: Date): Promise<void> {
    await this.publish(tx, tenant, BATCH_EVENT, batchId, now, (id, at) =>
      batchEventBody(id, BATCH_EVENT, view, at),
    );
  }

  /** One delivery of an event to each endpoint of the tenant that takes it. */
  private async publish(
    tx: Tx,
    tenant: Tenant,
    type: WebhookEventType,
    subjectId: string,
    now: Date,
    body: (eventId: string, at: string) => string,
  ): Promise<void> {
    const endpoints = await tx
      .selectFrom('webhook_endpoints')
      .select(['id', 'events'])
      .where('account_id', '=', tenant.accountId)
      .where('mode', '=', tenant.mode)
      .where('removed_at', 'is', null)
      .execute();
    const takers = endpoints.filter((e) => (JSON.parse(e.events) as string[]).includes(type));
    if (!takers.length) return;
    const at = now.toISOString();
    const eventId = newId('evt');
    const text = body(eventId, at);
    await tx
      .insertInto('webhook_deliveries')
      .values(
        takers.map((e) =>
          pendingRow({ eventId, type, endpointId: e.id, tenant, jobId: subjectId }, text, at),
        ),
      )
      .execute();
  }

  /** An endpoint that is not removed, or null. */
  async getEndpoint(id: string): Promise<WebhookEndpoint | null> {
    const row = await this.db.kysely
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', id)
      .where('removed_at', 'is', null)
      .executeTakeFirst();
    return row ? toEndpoint(row) : null;
  }

  /** One delivery of a test event to one endpoint, due now (an owner checking that it arrives). */
  async enqueueTest(endpoint: WebhookEndpoint, now: Date): Promise<WebhookDelivery> {
    const at = now.toISOString();
    const eventId = newId('evt');
    const row = pendingRow(
      { eventId, type: TEST_EVENT, endpointId: endpoint.id, tenant: endpoint, jobId: '' },
      testEventBody(eventId, endpoint, at),
      at,
    );
    await this.db.kysely.insertInto('webhook_deliveries').values(row).execute();
    return toDelivery(row as Selectable<WebhookDeliveriesTable>);
  }

  /** Takes up to `limit` due deliveries for `leaseMs`; another dispatcher skips them meanwhile. */
  async claim(now: Date, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const at = now.toISOString();
    const owner = newToken();
    const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
    return this.db.write(async (tx) => {
      let due = tx
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', at)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', at)]))
        .orderBy('next_attempt_at')
        .limit(limit);
      if (this.db.dialect === 'postgres') due = due.forUpdate().skipLocked();
      const ids = (await due.execute()).map((r) => r.id);
      if (!ids.length) return [];
      await tx
        .updateTable('webhook_deliveries')
        .set({ lease_until: leaseUntil, lease_owner: owner })
        .where('id', 'in', ids)
        .execute();
      const rows = await tx
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
        .selectAll('d')
        .select(['e.url', 'e.secret', 'e.removed_at as endpoint_removed_at'])
        .where('d.id', 'in', ids)
        .execute();
      const claimed: ClaimedDelivery[] = [];
      for (const r of rows) {
        if (r.endpoint_removed_at) {
          await tx
            .updateTable('webhook_deliveries')
            .set({
              status: 'failed',
              last_error: 'the endpoint was removed',
              next_attempt_at: null,
              lease_until: null,
              lease_owner: null,
              updated_at: at,
            })
            .where('id', '=', r.id)
            .execute();
          continue;
        }
        claimed.push({ delivery: toDelivery(r), body: r.body, url: r.url, secret: r.secret, owner });
      }
      return claimed;
    });
  }

  /**
   * Records a try of a claimed delivery: delivered on a 2xx; otherwise due again after its step of
   * the schedule, or failed when the schedule is spent. A dispatcher whose lease ran out (another
   * took the delivery over) records nothing.
   */
  async recordAttempt(
    claim: ClaimedDelivery,
    result: { statusCode: number | null; error: string | null; durationMs: number; at: Date },
    retryBaseMs: number,
    now: Date,
  ): Promise<WebhookDelivery | null> {
    return this.db.write(async (tx) => {
      const row = await this.db
        .forUpdate(tx.selectFrom('webhook_deliveries').selectAll().where('id', '=', claim.delivery.id))
        .executeTakeFirst();
      if (!row || row.lease_owner !== claim.owner || row.status !== 'pending') return null;
      const attempts = num(row.attempts) + 1;
      await tx
        .insertInto('webhook_attempts')
        .values({
          delivery_id: row.id,
          attempt: attempts,
          at: result.at.toISOString(),
          duration_ms: Math.round(result.durationMs),
          status_code: result.statusCode,
          error: result.error,
        })
        .execute();
      const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
      const next = ok ? null : nextAttemptAt(attempts - num(row.schedule_from), retryBaseMs, now);
      const at = now.toISOString();
      const set = {
        attempts,
        status: ok ? 'delivered' : next ? 'pending' : 'failed',
        next_attempt_at: next?.toISOString() ?? null,
        lease_until: null,
        lease_owner: null,
        last_status: result.statusCode,
        last_error: result.error,
        delivered_at: ok ? at : null,
        updated_at: at,
      };
      await tx.updateTable('webhook_deliveries').set(set).where('id', '=', row.id).execute();
      return toDelivery({ ...row, ...set });
    });
  }

  async getDelivery(
    id: string,
  ): Promise<{ delivery: WebhookDelivery; body: string; attempts: WebhookAttempt[] } | null> {
    const row = await this.db.kysely
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    const attempts = await this.db.kysely
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery_id', '=', id)
      .orderBy('attempt')
      .execute();
    return {
      delivery: toDelivery(row),
      body: row.body,
      attempts: attempts.map((a) => ({
        attempt: num(a.attempt),
        at: a.at,
        durationMs: num(a.duration_ms),
        statusCode: a.status_code === null ? null : num(a.status_code),
        error: a.error,
      })),
    };
  }

  /** The delivery log, newest first, narrowed by account, key mode, endpoint, status, job or event. */
  listDeliveries(opts: {
    limit: number;
    cursor?: string | undefined;
    accountId?: string | undefined;
    status?: DeliveryStatus | undefined;
    jobId?: string | undefined;
    eventId?: string | undefined;
    endpointId?: string | undefined;
    mode?: Tenant['mode'] | undefined;
  }): Promise<Page<WebhookDelivery>> {
    let q = this.db.kysely.selectFrom('webhook_deliveries').selectAll();
    if (opts.accountId) q = q.where('account_id', '=', opts.accountId);
    if (opts.mode) q = q.where('mode', '=', opts.mode);
    if (opts.endpointId) q = q.where('endpoint_id', '=', opts.endpointId);
    if (opts.status) q = q.where('status', '=', opts.status);
    if (opts.jobId) q = q.where('job_id', '=', opts.jobId);
    if (opts.eventId) q = q.where('event_id', '=', opts.eventId);
    return pageOf(q, opts, toDelivery);
  }

  /**
   * Sends a delivery again (an operator's redelivery): due now, with a fresh retry schedule; the
   * same event id and body, so a receiver that already processed it sees a duplicate it skips.
   */
  async redeliver(id: string, now: Date): Promise<WebhookDelivery | null> {
    return this.db.write(async (tx) => {
      const row = await this.db
        .forUpdate(tx.selectFrom('webhook_deliveries').selectAll().where('id', '=', id))
        .executeTakeFirst();
      if (!row) return null;
      if (
        row.status === 'pending' &&
        row.lease_owner &&
        row.lease_until &&
        row.lease_until > now.toISOString()
      )
        throw new Refusal('conflict', `${id} is being sent right now; look again in a moment`);
      const at = now.toISOString();
      const set = {
        status: 'pending',
        schedule_from: num(row.attempts),
        next_attempt_at: at,
        lease_until: null,
        lease_owner: null,
        delivered_at: null,
        updated_at: at,
      };
      await tx.updateTable('webhook_deliveries').set(set).where('id', '=', id).execute();
      return toDelivery({ ...row, ...set });
    });
  }
}
