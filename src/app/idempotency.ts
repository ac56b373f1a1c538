// `Idempotency-Key` as a use-case (an extension with Stripe's semantics, docs/decisions.md): a
// request takes its key, or learns the answer the key already holds; a use-case that makes
// something keeps its answer in the same commit (Remembered); the HTTP layer keeps the answers
// of requests that made nothing new, and gives the key up after a refusal.
import { apiRefusal } from '../domain/errors.ts';
import { IDEMPOTENCY } from '../domain/idempotency.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { IdempotencyClaim, Store, StoredReply } from '../store/index.ts';

export type { IdempotencyClaim, StoredReply } from '../store/index.ts';

/**
 * What a use-case that makes something needs to keep a request's answer in its own commit: the
 * claim, and how the caller answers with the thing made. The use-case makes the thing's record
 * before the commit and hands the store the answer made from it: the store keeps bytes.
 */
export interface Remembered<T> {
  claim: IdempotencyClaim;
  reply(result: T): StoredReply;
}

/** The answer to keep for `result`, when the request holds a key. */
export const keptFor = <T>(remember: Remembered<T> | undefined, result: T) =>
  remember ? { claim: remember.claim, reply: remember.reply(result) } : undefined;

interface IdempotencyDeps {
  store: Store;
  now: () => Date;
}

/**
 * Takes `key` for a request to `endpoint` whose content hashes to `fingerprint`, or answers with
 * what the key holds: its kept answer, or a refusal (another request, or one still running).
 */
export async function takeKey(
  d: IdempotencyDeps,
  tenant: Tenant,
  key: string,
  request: { endpoint: string; fingerprint: string },
): Promise<{ claim: IdempotencyClaim } | { replay: StoredReply }> {
  const t = await d.store.idempotency.take(tenant, key, request, d.now(), IDEMPOTENCY);
  const shown = JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key);
  switch (t.state) {
    case 'taken':
      return { claim: t.claim };
    case 'done':
      return { replay: t.reply };
    case 'mismatch':
      throw apiRefusal(
        'INVALID_REQUEST',
        t.endpoint === request.endpoint
          ? `Idempotency-Key ${shown} was first used at ${t.createdAt} with another body; a key stands for one request: send a new key with a new request`
          : `Idempotency-Key ${shown} was first used at ${t.createdAt} on ${t.endpoint}; a key stands for one request: send a new key with a new request`,
        { field: 'Idempotency-Key' },
      );
    case 'running':
      throw apiRefusal(
        'IDEMPOTENCY_KEY_IN_USE',
        `the first request with Idempotency-Key ${shown} is still being answered; retry in 1 s`,
        { retryAfter: 1 },
      );
  }
}

/** Keeps the answer of a request that made nothing new (a claim settled in its commit stays as it is). */
export const keepAnswer = (d: IdempotencyDeps, claim: IdempotencyClaim, reply: StoredReply) =>
  d.store.idempotency.settle(claim, reply);

/** Gives the key up: nothing was done, so a retry runs again. */
export const giveUpKey = (d: IdempotencyDeps, claim: IdempotencyClaim) => d.store.idempotency.release(claim);
