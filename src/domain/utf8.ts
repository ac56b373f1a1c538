// Where bytes meant as UTF-8 text (RFC 3629) stop being it, said by line and byte, so that a file
// saved in another encoding is refused as such rather than decoded into U+FFFD and drawn.
// Pure: the server's JSON reader, the command line and the dashboard share it.

/** The offset of the first byte that does not begin or continue a UTF-8 character, or -1. */
export function firstBadByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const more = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : 0;
    if (more === 0) return i;
    // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k <= more; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += more + 1;
  }
  return -1;
}

/** The first byte that is not UTF-8: its offset, its line (from 1) and its value; null when all are. */
export function badUtf8(bytes: Uint8Array): { byte: number; line: number; value: number } | null {
  const byte = firstBadByte(bytes);
  if (byte < 0) return null;
  let line = 1;
  for (let i = 0; i < byte; i++) if (bytes[i] === 0x0a) line++;
  return { byte, line, value: bytes[byte]! };
}

/** "line 3, byte 57 (0xe9)": where `bad` is, as a message says it. */
export function whereNotUtf8(bad: { byte: number; line: number; value: number }): string {
  return `line ${bad.line}, byte ${bad.byte} (0x${bad.value.toString(16).padStart(2, '0')})`;
}
