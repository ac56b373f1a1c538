// CRC-32 (ISO 3309, as in zlib and PNG) of the PNG writer's chunks, pure: over bytes four at a
// time ("slicing by 4").

/** Four tables of 256: entry k·256 + n is the CRC of byte n followed by k zero bytes. */
const TABLES = (() => {
  const t = new Uint32Array(1024);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  for (let n = 0; n < 256; n++)
    for (let k = 1; k < 4; k++)
      t[k * 256 + n] = (t[(k - 1) * 256 + n]! >>> 8) ^ t[t[(k - 1) * 256 + n]! & 0xff]!;
  return t;
})();

export function crc32(d: Uint8Array): number {
  let crc = 0xffffffff;
  let i = 0;
  for (const end = d.length - 3; i < end; i += 4) {
    crc ^= d[i]! | (d[i + 1]! << 8) | (d[i + 2]! << 16) | (d[i + 3]! << 24);
    crc =
      TABLES[768 + (crc & 0xff)]! ^
      TABLES[512 + ((crc >>> 8) & 0xff)]! ^
      TABLES[256 + ((crc >>> 16) & 0xff)]! ^
      TABLES[crc >>> 24]!;
  }
  for (; i < d.length; i++) crc = TABLES[(crc ^ d[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
