// Idempotency keys: the first answer of a POST sent with `Idempotency-Key`, kept per account and
// key mode. A request takes the key (state `running`, with an owner token and a lease); the
// transaction that makes its side effect (the job row, the asset row) settles the key in the
// same commit, so a crash leaves either both or neither: a key still `running` after its lease
// made nothing, and the next request with it may take it over.
import type { Selectable } from 'kysely';
import { Refusal } from '../domain/errors.ts';
import type { Tenant } from '../domain/tenant.ts';
import { newToken } from '../lib/ids.ts';
import type { Db, Tx } from './database.ts';
import type { IdempotencyKeysTable } from './schema.ts';

type Row = Selectable<IdempotencyKeysTable>;

/** An answer as it is kept and replayed: JSON bodies only. */
export interface StoredReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A key this request holds: only its owner may settle or release it. */
export interface IdempotencyClaim {
  readonly tenant: Tenant;
  readonly key: string;
  readonly owner: string;
}

/** A claim to settle in the transaction that makes the side effect, with the answer made for it. */
export interface Kept {
  claim: IdempotencyClaim;
  reply: StoredReply;
}

export type Taken =
  /** The key is this request's now: answer it, then settle or release the claim. */
  | { state: 'taken'; claim: IdempotencyClaim }
  /** The key's first request was answered: replay its answer. */
  | { state: 'done'; reply: StoredReply; createdAt: string }
  /** The key was first used with another body or on another endpoint. */
  | { state: 'mismatch'; endpoint: string; createdAt: string }
  /** The key's first request is still being answered. */
  | { state: 'running'; leaseUntil: string };

export interface IdempotencyTimes {
  /** How long an answer is kept (24 h). */
  ttlMs: number;
  /** How long a request holds a key before another may take it over. */
  leaseMs: number;
}

export class IdempotencyRepo {
  constructor(private readonly db: Db) {}

  /**
   * Takes the key for a request of `endpoint` whose body hashes to `fingerprint`, or says why
   * not. An answer older than the time to live is forgotten: the key is taken afresh.
   */
  async take(
    tenant: Tenant,
    key: string,
    request: { endpoint: string; fingerprint: string },
    now: Date,
    times: IdempotencyTimes,
  ): Promise<Taken> {
    const at = now.toISOString();
    const owner = newToken();
    const leaseUntil = new Date(now.getTime() + times.leaseMs).toISOString();
    const fresh: Row = {
      account_id: tenant.accountId,
      mode: tenant.mode,
      key,
      endpoint: request.endpoint,
      fingerprint: request.fingerprint,
      state: 'running',
      owner,
      lease_until: leaseUntil,
      response_status: null,
      response_headers: null,
      response_body: null,
      created_at: at,
    };
    const claim: IdempotencyClaim = { tenant, key, owner };
    // A kept answer is replayed from a plain read: a storm of retries takes no write lock.
    const kept = await this.db.kysely
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('account_id', '=', tenant.accountId)
      .where('mode', '=', tenant.mode)
      .where('key', '=', key)
      .where('state', '=', 'done')
      .executeTakeFirst();
    if (kept && Date.parse(kept.created_at) + times.ttlMs > now.getTime()) return answerOf(kept, request);
    return this.db.write(async (tx) => {
      // Insert-or-nothing first: on PostgreSQL two first requests race on the primary key, and
      // the loser then waits on the winner's row lock below.
      const inserted = await tx
        .insertInto('idempotency_keys')
        .values(fresh)
        .onConflict((oc) => oc.columns(['account_id', 'mode', 'key']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { state: 'taken', claim };
      const row = await this.db
        .forUpdate(
          tx
            .selectFrom('idempotency_keys')
            .selectAll()
            .where('account_id', '=', tenant.accountId)
            .where('mode', '=', tenant.mode)
            .where('key', '=', key),
        )
        .executeTakeFirstOrThrow();
      const expired = Date.parse(row.created_at) + times.ttlMs <= now.getTime();
      const abandoned = row.state === 'running' && row.lease_until <= at;
      if (expired || (abandoned && row.fingerprint === request.fingerprint)) {
        // Forgotten, or its request died before it settled (it made nothing): start afresh.
        await where(tx.updateTable('idempotency_keys').set(fresh), claim).execute();
        return { state: 'taken', claim };
      }
      return answerOf(row, request);
    });
  }

  /**
   * Keeps the answer of a claim whose request made no side effect of its own (an unchanged
   * preview); a claim settled already in its side effect's transaction is left as it is.
   */
  async settle(claim: IdempotencyClaim, reply: StoredReply): Promise<void> {
    await this.db.write((tx) =>
      where(tx.updateTable('idempotency_keys').set(done(reply)), claim)
        .where('owner', '=', claim.owner)
        .where('state', '=', 'running')
        .execute(),
    );
  }

  /** Gives the key up: the request failed and changed nothing, so a retry may run again. */
  async release(claim: IdempotencyClaim): Promise<void> {
    await this.db.write((tx) =>
      where(tx.deleteFrom('idempotency_keys'), claim)
        .where('owner', '=', claim.owner)
        .where('state', '=', 'running')
        .execute(),
    );
  }

  /** Forgets answers older than `ttlMs`. */
  async sweep(now: Date, ttlMs: number): Promise<number> {
    const before = new Date(now.getTime() - ttlMs).toISOString();
    const r = await this.db.write((tx) =>
      tx.deleteFrom('idempotency_keys').where('created_at', '<=', before).executeTakeFirst(),
    );
    return Number(r.numDeletedRows);
  }
}

/**
 * Keeps `reply` as the claim's answer inside `tx`, the transaction of the side effect. A claim
 * this request no longer holds (its lease ran out and another request took the key) is refused,
 * which rolls the side effect back: the other request's answer stands.
 */
export async function settleIn(tx: Tx, claim: IdempotencyClaim, reply: StoredReply): Promise<void> {
  const r = await where(tx.updateTable('idempotency_keys').set(done(reply)), claim)
    .where('owner', '=', claim.owner)
    .where('state', '=', 'running')
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1)
    throw new Refusal(
      'conflict',
      `Idempotency-Key ${JSON.stringify(claim.key)} was taken over by another request while this one ran; nothing was done`,
      { field: 'Idempotency-Key' },
    );
}

/** What a key that is not free answers: another request's, still running, or its kept answer. */
function answerOf(row: Row, request: { endpoint: string; fingerprint: string }): Taken {
  if (row.fingerprint !== request.fingerprint || row.endpoint !== request.endpoint)
    return { state: 'mismatch', endpoint: row.endpoint, createdAt: row.created_at };
  if (row.state === 'running') return { state: 'running', leaseUntil: row.lease_until };
  return {
    state: 'done',
    createdAt: row.created_at,
    reply: {
      status: Number(row.response_status),
      headers: JSON.parse(row.response_headers ?? '{}') as Record<string, string>,
      body: row.response_body ?? '',
    },
  };
}

const done = (reply: StoredReply) => ({
  state: 'done',
  response_status: reply.status,
  response_headers: JSON.stringify(reply.headers),
  response_body: reply.body,
});

function where<Q extends { where: (c: 'account_id' | 'mode' | 'key', op: '=', v: string) => Q }>(
  q: Q,
  claim: IdempotencyClaim,
): Q {
  return q
    .where('account_id', '=', claim.tenant.accountId)
    .where('mode', '=', claim.tenant.mode)
    .where('key', '=', claim.key);
}
