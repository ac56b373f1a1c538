// `Idempotency-Key` on POST /generations, /previews and /assets (an extension with Stripe's
// semantics, docs/decisions.md): the first answer is kept 24 hours per account and key mode; the
// same key with the same body gets that answer again, marked `Idempotent-Replayed: true`; the
// same key with another body is 400; a key whose first request is still running is 409.
import { ApiError } from '../domain/errors.ts';
import { IDEMPOTENCY, isIdempotencyKey } from '../domain/idempotency.ts';
import { sha256Hex } from '../lib/ids.ts';
import type { IdempotencyClaim, Remembered, Store, StoredReply } from '../store/index.ts';
import { type ApiRequest, JSON_TYPE, type Reply, type RouteRequest } from './types.ts';

const HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * The request's key, checked: 1-255 visible ASCII characters or spaces, sent once. A route that
 * keeps no answers refuses it, so nobody believes a retried render is free.
 */
export function idempotencyKey(req: ApiRequest, takes: boolean): string | undefined {
  const v = req.headers[HEADER];
  if (v === undefined) return undefined;
  const field = 'Idempotency-Key';
  if (typeof v !== 'string')
    throw new ApiError('INVALID_REQUEST', `${field} must be sent once, got it ${v.length} times`, { field });
  if (!takes)
    throw new ApiError(
      'INVALID_REQUEST',
      `${req.method} ${req.path} does not take ${field}: only POST /generations, /previews and /assets keep their answers`,
      { field },
    );
  if (!isIdempotencyKey(v))
    throw new ApiError(
      'INVALID_REQUEST',
      `${field} must be 1-${IDEMPOTENCY.maxKeyChars} visible ASCII characters, got ${v.length > IDEMPOTENCY.maxKeyChars ? `${v.length} characters` : JSON.stringify(v)}`,
      { field },
    );
  return v;
}

/**
 * Takes the key for this request, or answers from what the key already holds. `content` is what
 * the body means: a JSON body as canonicalJson writes it (key order and spacing do not make
 * another request), any other body as its bytes.
 */
export async function takeKey(
  store: Store,
  req: ApiRequest,
  content: Uint8Array | string,
  claimant: { tenant: IdempotencyClaim['tenant'] },
  key: string,
  now: Date,
): Promise<{ claim: IdempotencyClaim } | { replay: Reply }> {
  const endpoint = `${req.method} ${req.path}`;
  const fingerprint = sha256Hex(
    Buffer.concat([Buffer.from(`${endpoint}\n${req.query}\n`), Buffer.from(content)]),
  );
  const t = await store.idempotency.take(claimant.tenant, key, { endpoint, fingerprint }, now, IDEMPOTENCY);
  const shown = JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key);
  switch (t.state) {
    case 'taken':
      return { claim: t.claim };
    case 'done':
      return {
        replay: {
          status: t.reply.status,
          headers: { ...t.reply.headers, [REPLAYED_HEADER]: 'true' },
          raw: { contentType: JSON_TYPE, bytes: t.reply.body },
        },
      };
    case 'mismatch':
      throw new ApiError(
        'INVALID_REQUEST',
        t.endpoint === endpoint
          ? `Idempotency-Key ${shown} was first used at ${t.createdAt} with another body; a key stands for one request: send a new key with a new request`
          : `Idempotency-Key ${shown} was first used at ${t.createdAt} on ${t.endpoint}; a key stands for one request: send a new key with a new request`,
        { field: 'Idempotency-Key' },
      );
    case 'running':
      throw new ApiError(
        'IDEMPOTENCY_KEY_IN_USE',
        `the first request with Idempotency-Key ${shown} is still being answered; retry in 1 s`,
        { retryAfter: 1 },
      );
  }
}

/** A JSON value written with the keys of every object sorted and no spaces: one text per value. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** An answer as it is kept: its status, its own headers (Location), its JSON body. */
export function storedReply(reply: Reply): StoredReply {
  return { status: reply.status, headers: { ...reply.headers }, body: JSON.stringify(reply.json) };
}

/** What a use-case needs to keep the answer in its own commit, when the request holds a key. */
export function remember<T>(req: RouteRequest, answer: (result: T) => Reply): Remembered<T> | undefined {
  return req.idempotency ? { claim: req.idempotency, reply: (r) => storedReply(answer(r)) } : undefined;
}
