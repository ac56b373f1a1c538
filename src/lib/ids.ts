// Fresh identifiers and keys from the CSPRNG (the formats live in src/domain).
import { hash, randomBytes, randomFillSync } from 'node:crypto';
import { formatApiKey, type KeyMode } from '../domain/api-keys.ts';
import { type IdPrefix, makeId } from '../domain/ids.ts';

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
