// Identifiers (DESIGN §4): a prefix and at least 128 random bits in base62. The random bytes
// come in as an argument so that this module stays pure; src/app draws them from a CSPRNG.

export const ID_PREFIXES = [
  'tpl',
  'gen',
  'asset',
  'req',
  'font',
  'acc',
  'key',
  'led',
  'hook',
  'evt',
  'dlv',
  'usr',
  'inv',
  'bat',
  'hand',
  'preq',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 22 base62 characters: 130.9 random bits. */
export const ID_RANDOM_CHARS = 22;

/** The big-endian number in `bytes`, in base62, left-padded to `width`. */
export function base62(bytes: Uint8Array, width: number): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(width, '0');
}

/**
 * An id: the prefix and 22 base62 characters, each drawn uniformly from `nextByte` (a CSPRNG in
 * src/lib) by rejection sampling: 22 x log2(62) = 130.9 bits.
 */
export function makeId(prefix: IdPrefix, nextByte: () => number): string {
  let out = `${prefix}_`;
  for (let n = 0, draws = 0; n < ID_RANDOM_CHARS; draws++) {
    if (draws > 1000) throw new Error('the random source keeps giving bytes above 247');
    const b = nextByte();
    if (b < 248) {
      out += ALPHABET[b % 62];
      n++;
    }
  }
  return out;
}

const ID_PATTERN = new RegExp(`^(${ID_PREFIXES.join('|')})_[0-9A-Za-z]{${ID_RANDOM_CHARS}}$`);
export function isId(prefix: IdPrefix, value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value) && value.startsWith(`${prefix}_`);
}

/** A string that names an object of this kind (`tpl_…`): one of ours or not, it is looked up and, if not, simply not found. */
export function namesA(prefix: IdPrefix, value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(`${prefix}_`);
}

/** An id as an error message quotes it: at most 40 characters, whatever was sent. */
export function shownId(id: string): string {
  return JSON.stringify(id.length > 40 ? `${id.slice(0, 40)}…` : id);
}

/** Maps random bytes to base62 characters without modulo bias (rejection sampling). */
export function base62Chars(random: Uint8Array, count: number): string {
  let out = '';
  for (const b of random) {
    if (b >= 248) continue; // 248 = 4 * 62
    out += ALPHABET[b % 62];
    if (out.length === count) return out;
  }
  throw new Error(`not enough random bytes for ${count} characters`);
}
