// Seeded randomness for the handwriting (same seed + same input = same bytes): sfc32 seeded
// through splitmix32; never the global random source, which no seed can repeat.

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** FNV-1a of a label, to derive independent streams from one seed. */
function hash(label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export class Random {
  // State in a typed array: 32-bit words kept in object fields would be boxed as heap numbers,
  // one allocation per draw, and the hand draws several per letter.
  private readonly s = new Uint32Array(4);

  constructor(seed: number, label = '') {
    const mix = splitmix32((seed ^ hash(label)) >>> 0);
    for (let i = 0; i < 4; i++) this.s[i] = mix();
  }

  /** A uniform float in [0, 1). */
  next(): number {
    const s = this.s;
    const [a, b, c, d] = [s[0]!, s[1]!, s[2]!, s[3]!];
    const t = (((a + b) >>> 0) + d) >>> 0;
    s[3] = d + 1;
    s[0] = b ^ (b >>> 9);
    s[1] = c + (c << 3);
    s[2] = ((c << 21) | (c >>> 11)) + t;
    return t / 4_294_967_296;
  }

  /** Uniform in [-1, 1). */
  signed(): number {
    return this.next() * 2 - 1;
  }

  /** Roughly normal in about [-1, 1] (mean of three uniforms), for jitter that clusters at zero. */
  soft(): number {
    return (this.signed() + this.signed() + this.signed()) / 3;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}
