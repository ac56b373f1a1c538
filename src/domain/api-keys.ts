// API keys (DESIGN §4): `hw_live_` or `hw_test_`, 32 base62 characters, then a 6-character
// CRC-32 checksum, so a mistyped or truncated key is refused before any store lookup.
import { crc32 } from 'node:zlib';
import { base62, base62Chars } from './ids.ts';

export const KEY_MODES = ['live', 'test'] as const;
export type KeyMode = (typeof KEY_MODES)[number];

const SECRET_CHARS = 32;
const CHECK_CHARS = 6;
const KEY_PATTERN = /^hw_(live|test)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;
/** Length of the part of a key kept for display (`hw_live_AbCd1234`). */
export const DISPLAY_CHARS = 8;

export { crc32 };

/** CRC-32 of the key's ASCII characters (zlib's, as for PNG chunks). */
function checksum(body: string): string {
  const n = crc32(body);
  return base62(new Uint8Array([n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]), CHECK_CHARS);
}

/** Builds a key from random bytes (at least 40; a few are skipped by rejection sampling). */
export function formatApiKey(mode: KeyMode, random: Uint8Array): string {
  const body = `hw_${mode}_${base62Chars(random, SECRET_CHARS)}`;
  return body + checksum(body);
}

export type ParsedKey = { ok: true; mode: KeyMode; display: string } | { ok: false; reason: string };

/** Checks the shape and checksum of a presented key; touches no store. */
export function parseApiKey(presented: string): ParsedKey {
  const m = KEY_PATTERN.exec(presented);
  if (!m) return { ok: false, reason: 'malformed' };
  const body = presented.slice(0, presented.length - CHECK_CHARS);
  if (checksum(body) !== m[3]) return { ok: false, reason: 'bad checksum' };
  return { ok: true, mode: m[1] as KeyMode, display: displayPrefix(presented) };
}

export function displayPrefix(key: string): string {
  const mode = key.startsWith('hw_test_') ? 'test' : 'live';
  return `hw_${mode}_${key.slice(8, 8 + DISPLAY_CHARS)}`;
}
