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
  // State in a typed array of signed words: 32-bit words kept in object fields, or unsigned ones
  // past 2^31, would be boxed as heap numbers, one allocation per draw, and the hand draws
  // several per letter. The bits are sfc32's either way.
  private readonly s = new Int32Array(4);

  constructor(seed: number, label = '') {
    const mix = splitmix32((seed ^ hash(label)) >>> 0);
    for (let i = 0; i < 4; i++) this.s[i] = mix();
  }

  /**
   * One step of sfc32: the next 32-bit word, as a signed integer (a small integer to V8, never a
   * boxed number: the hand draws several a letter, and every boxed draw was garbage).
   */
  private step(): number {
    const s = this.s;
    const a = s[0]!;
    const b = s[1]!;
    const c = s[2]!;
    const d = s[3]!;
    const t = (a + b + d) | 0;
    s[3] = d + 1;
    s[0] = b ^ (b >>> 9);
    s[1] = c + (c << 3);
    s[2] = ((c << 21) | (c >>> 11)) + t;
    return t;
  }

  /** A uniform float in [0, 1). */
  next(): number {
    return (this.step() >>> 0) / 4_294_967_296;
  }

  /** Uniform in [-1, 1). */
  signed(): number {
    return (this.step() >>> 0) / 2_147_483_648 - 1;
  }

  /**
   * Roughly normal in about [-1, 1] (mean of three uniforms), for jitter that clusters at zero.
   * The sum of three `signed()` draws, each exact in a double, so the same numbers as drawing them.
   */
  soft(): number {
    // A loop, not three calls written out: the optimiser counts each inlined step against the
    // caller's budget, and a draw it does not inline comes back as a boxed number (garbage).
    let sum = 0;
    for (let k = 0; k < 3; k++) sum += this.step() >>> 0;
    return (sum / 2_147_483_648 - 3) / 3;
  }

  /**
   * `out[0]`, `out[1]`, … `out[n - 1]` each set to the next `soft()`, in that order (no number
   * boxed on the way). The steps are step()'s, with the state in local variables while they run
   * (the hand draws a dozen a letter, and a load and a store of each word a step were most of
   * their time): the same bits.
   */
  softs(out: Float64Array, n: number): void {
    const s = this.s;
    let a = s[0]!;
    let b = s[1]!;
    let c = s[2]!;
    let d = s[3]!;
    for (let i = 0; i < n; i++) {
      let sum = 0;
      for (let k = 0; k < 3; k++) {
        const t = (a + b + d) | 0;
        d = (d + 1) | 0;
        a = b ^ (b >>> 9);
        b = (c + (c << 3)) | 0;
        c = (((c << 21) | (c >>> 11)) + t) | 0;
        sum += t >>> 0;
      }
      out[i] = (sum / 2_147_483_648 - 3) / 3;
    }
    s[0] = a;
    s[1] = b;
    s[2] = c;
    s[3] = d;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}
