// `Idempotency-Key` on POST /generations, /previews and /assets (an extension with Stripe's
// semantics, docs/decisions.md): the first answer is kept 24 hours per account and key mode; the
// same key with the same body gets that answer again, marked `Idempotent-Replayed: true`; the
// same key with another body is 400; a key whose first request is still running is 409. The
// answer kept is built here, from the reply the route gives; src/app/idempotency.ts keeps it.
import { apiRefusal } from '../domain/errors.ts';
import { IDEMPOTENCY, isIdempotencyKey } from '../domain/idempotency.ts';
import { sha256Hex } from '../lib/ids.ts';
import type { Remembered, StoredReply } from '../app/idempotency.ts';
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
    throw apiRefusal('INVALID_REQUEST', `${field} must be sent once, got it ${v.length} times`, { field });
  if (!takes)
    throw apiRefusal(
      'INVALID_REQUEST',
      `${req.method} ${req.path} does not take ${field}: only POST /generations, /previews, /batches and /assets keep their answers`,
      { field },
    );
  if (!isIdempotencyKey(v))
    throw apiRefusal(
      'INVALID_REQUEST',
      `${field} must be 1-${IDEMPOTENCY.maxKeyChars} visible ASCII characters, got ${v.length > IDEMPOTENCY.maxKeyChars ? `${v.length} characters` : JSON.stringify(v)}`,
      { field },
    );
  return v;
}

/**
 * What a request is, for its key: its endpoint, and a hash of its query and of what its body
 * means (a JSON body as canonicalJson writes it, so key order and spacing do not make another
 * request; any other body as its bytes).
 */
export function fingerprint(req: ApiRequest, json: unknown): { endpoint: string; fingerprint: string } {
  const endpoint = `${req.method} ${req.path}`;
  const content = json === undefined ? req.body : canonicalJson(json);
  return {
    endpoint,
    fingerprint: sha256Hex(Buffer.concat([Buffer.from(`${endpoint}\n${req.query}\n`), Buffer.from(content)])),
  };
}

/** A kept answer, sent again. */
export const replayed = (kept: StoredReply): Reply => ({
  status: kept.status,
  headers: { ...kept.headers, [REPLAYED_HEADER]: 'true' },
  raw: { contentType: JSON_TYPE, bytes: kept.body },
});

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
export function remember<T>(
  req: Pick<RouteRequest, 'idempotency'>,
  answer: (result: T) => Reply,
): Remembered<T> | undefined {
  return req.idempotency ? { claim: req.idempotency, reply: (r) => storedReply(answer(r)) } : undefined;
}
