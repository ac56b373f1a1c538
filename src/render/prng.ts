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
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, label = '') {
    const mix = splitmix32((seed ^ hash(label)) >>> 0);
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix();
  }

  /** A uniform float in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
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
