// Fresh identifiers and keys from the CSPRNG (the formats live in src/domain).
import { hash, randomBytes, randomFillSync } from 'node:crypto';
import { formatApiKey, type KeyMode } from '../domain/api-keys.ts';
import { base62Chars, type IdPrefix, makeId } from '../domain/ids.ts';

// Ids are made on every request: draw CSPRNG bytes 4 KiB at a time, never reusing any.
const pool = Buffer.alloc(4096);
let used = pool.length;

function nextByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++]!;
}

export function newId(prefix: IdPrefix): string {
  return makeId(prefix, nextByte);
}

export function newApiKey(mode: KeyMode): string {
  return formatApiKey(mode, randomBytes(64));
}

export function sha256Hex(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}

/** An unguessable token (128 bits, hex): who holds a lease. */
export function newToken(): string {
  return randomBytes(16).toString('hex');
}

/** A shared secret shown once (a webhook's signing key): `prefix_` and 32 base62 characters. */
export function newSecret(prefix: string): string {
  return `${prefix}_${base62Chars(randomBytes(64), 32)}`;
}
