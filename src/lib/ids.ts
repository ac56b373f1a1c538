// Fresh identifiers and keys from the CSPRNG (the formats live in src/domain).
import { createHash, randomBytes } from 'node:crypto';
import { formatApiKey, type KeyMode } from '../domain/api-keys.ts';
import { base62, type IdPrefix, ID_RANDOM_CHARS, makeId } from '../domain/ids.ts';

export function newId(prefix: IdPrefix): string {
  return makeId(prefix, randomBytes(16));
}

/** A stable id for a thing known by name (bundled fonts): same name, same id, everywhere. */
export function stableId(prefix: IdPrefix, name: string): string {
  return `${prefix}_${base62(createHash('sha256').update(name).digest().subarray(0, 16), ID_RANDOM_CHARS)}`;
}

export function newApiKey(mode: KeyMode): string {
  return formatApiKey(mode, randomBytes(64));
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
