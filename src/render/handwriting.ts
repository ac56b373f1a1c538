// The hand: seeded variation per letter, word, line and sheet, and fatigue that lets it grow
// slowly through a long document. Every effect reads its template setting and has an off switch
// (`enabled: false`); the streams are drawn in document order, so the same seed and the same
// input give the same positions, hence the same bytes.
import type { Style } from './spec.ts';
import { hexRgb } from './color.ts';
import { Random } from './prng.ts';

type Modifiers = Style['modifiers'];

const DEG = Math.PI / 180;
const MM = 72 / 25.4;

/** `hex` lightened (t > 0) or darkened (t < 0) by |t|. */
function shade(hex: string, t: number): string {
  const out = hexRgb(hex).map((c) => Math.round(t >= 0 ? c + (255 - c) * t : c * (1 + t)));
  return `#${out.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

export interface GlyphHand {
  dx: number;
  dy: number;
  rotation: number;
  scale: number;
  color: string;
  opacity: number;
}

export class Handwriting {
  private readonly letters: Random;
  private readonly words: Random;
  private readonly lines: Random;
  private readonly ink: Random;
  private readonly sheets: Random;
  private readonly drawings: Random;
  private index = 0;
  private word = { n: -2, scale: 1, color: '', opacity: 1 };

  constructor(
    private readonly m: Modifiers,
    private color: string,
    private readonly total: number,
  ) {
    this.letters = new Random(m.seed, 'letters');
    this.words = new Random(m.seed, 'words');
    this.lines = new Random(m.seed, 'lines');
    this.ink = new Random(m.seed, 'ink');
    this.sheets = new Random(m.seed, 'sheets');
    this.drawings = new Random(m.seed, 'alternates');
  }

  /** 1 at the start, growing to 1 + amount at the end of the document. */
  private fatigue(): number {
    return this.m.fatigue.enabled ? 1 + this.m.fatigue.amount * (this.index / Math.max(1, this.total)) : 1;
  }

  glyph(word: number): GlyphHand {
    const f = this.fatigue();
    this.index++;
    if (word !== this.word.n) {
      const w = this.m.words;
      const k = this.m.ink;
      this.word = {
        n: word,
        scale: w.enabled ? 1 + w.size * this.words.soft() : 1,
        color:
          k.enabled && k.colorVariation > 0
            ? shade(this.color, k.colorVariation * 0.25 * this.ink.signed())
            : this.color,
        // Pressure changes from word to word, in steps of 5 % (fewer graphics states to write).
        opacity: k.enabled ? Math.round((1 - k.pressure * 0.3 * this.ink.next()) * 20) / 20 : 1,
      };
    }
    const l = this.m.letters;
    const on = l.enabled;
    const hand: GlyphHand = {
      dx: on ? l.spacing * f * this.letters.soft() : 0,
      dy: on ? l.baseline * f * this.letters.soft() : 0,
      rotation: on ? l.rotation * DEG * f * this.letters.soft() : 0,
      scale: this.word.scale * (on ? 1 + l.scale * f * this.letters.soft() : 1),
      color: this.word.color,
      opacity: this.word.opacity,
    };
    return hand;
  }

  /** Writes on in another colour (a block's own); the next word takes it. */
  setInk(color: string): void {
    if (color === this.color) return;
    this.color = color;
    this.word.n = -2;
  }

  /** The ink of the current word, for lines drawn with the same pen. */
  get inkColor(): string {
    return this.color;
  }

  /** Whether letters take the font's alternate drawings (letter effects and alternates on). */
  get alternates(): boolean {
    return this.m.letters.enabled && this.m.letters.alternates;
  }

  /** How much each drawing of a letter departs from the font's outline (0: the outline itself). */
  get shapes(): number {
    const s = this.m.shapes ?? { enabled: this.m.letters.enabled, amount: this.m.letters.warp ?? 0 };
    return s.enabled ? s.amount : 0;
  }

  /** A whole number below `count`, from a stream of its own, so that dealing drawings leaves every other effect where it was. */
  pick(count: number): number {
    return this.drawings.int(count);
  }

  /** Extra pt for one word gap. */
  space(size: number): number {
    const w = this.m.words;
    return w.enabled ? w.spacing * size * 0.25 * this.words.soft() : 0;
  }

  line(): { wobble: number; drift: number; slope: number; angle: number } {
    const l = this.m.lines;
    if (!l.enabled) return { wobble: 0, drift: 0, slope: 0, angle: 0 };
    const f = this.fatigue();
    const angle = l.slope * DEG * f * this.lines.soft();
    return {
      wobble: l.wobble * MM * f * this.lines.soft(),
      drift: l.drift * MM * f * this.lines.soft(),
      slope: Math.tan(angle),
      angle,
    };
  }

  sheet(): { tilt: number; shadow: number; texture: number; scanner: boolean; seed: number } {
    const p = this.m.paper;
    const seed = Math.floor(this.sheets.next() * 1_000_000);
    return p.enabled
      ? {
          tilt: p.tilt * this.sheets.signed(),
          shadow: p.shadow,
          texture: p.texture,
          scanner: p.scanner,
          seed,
        }
      : { tilt: 0, shadow: 0, texture: 0, scanner: false, seed };
  }
}
