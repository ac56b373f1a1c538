// Fresh identifiers and keys from the CSPRNG (the formats live in src/domain).
import { createHash, hash, randomBytes, randomFillSync } from 'node:crypto';
import { formatApiKey, type KeyMode } from '../domain/api-keys.ts';
import { base62, type IdPrefix, ID_RANDOM_CHARS, makeId } from '../domain/ids.ts';

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

/** A stable id for a thing known by name (bundled fonts): same name, same id, everywhere. */
export function stableId(prefix: IdPrefix, name: string): string {
  return `${prefix}_${base62(createHash('sha256').update(name).digest().subarray(0, 16), ID_RANDOM_CHARS)}`;
}

export function newApiKey(mode: KeyMode): string {
  return formatApiKey(mode, randomBytes(64));
}

export function sha256Hex(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}
