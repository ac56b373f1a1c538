// CRC-32 (ISO 3309, as in zlib and PNG), pure: over bytes, or over a string's char codes (the
// API key checksum, whose keys are ASCII).

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(data: Uint8Array | string): number {
  let crc = 0xffffffff;
  if (typeof data === 'string') for (let i = 0; i < data.length; i++) crc = TABLE[(crc ^ data.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  else for (let i = 0; i < data.length; i++) crc = TABLE[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
