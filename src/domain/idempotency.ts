// Idempotency keys (an extension with Stripe's semantics, docs/decisions.md): how long an answer
// is kept, how long a request holds its key, and what a key may be.

export const IDEMPOTENCY = {
  /** How long an answer is kept (Stripe's 24 hours). */
  ttlMs: 24 * 3600_000,
  /** How long a request holds its key; one that dies holding it frees it after this. */
  leaseMs: 60_000,
  maxKeyChars: 255,
} as const;

/** 1-255 visible ASCII characters or spaces (a UUID, a hash, an order number). */
export function isIdempotencyKey(v: string): boolean {
  return v.length >= 1 && v.length <= IDEMPOTENCY.maxKeyChars && /^[\x20-\x7e]+$/.test(v);
}
