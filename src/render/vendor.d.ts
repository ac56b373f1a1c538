// Types of the Unicode line-breaking library (it ships none).
declare module 'linebreak' {
  export default class LineBreaker {
    constructor(text: string);
    nextBreak(): { position: number; required: boolean } | null;
  }
}

// Types of the font writer's parts the personal-font builder uses (opentype.js ships none).
declare module 'opentype.js' {
  export class Path {
    moveTo(x: number, y: number): void;
    lineTo(x: number, y: number): void;
    quadraticCurveTo(x1: number, y1: number, x: number, y: number): void;
    curveTo(x1: number, y1: number, x2: number, y2: number, x: number, y: number): void;
    close(): void;
  }
  export class Glyph {
    constructor(options: { name: string; unicode?: number; advanceWidth: number; path: Path });
    getBoundingBox(): { x1: number; y1: number; x2: number; y2: number };
  }
  export class Font {
    constructor(options: {
      familyName: string;
      styleName: string;
      unitsPerEm: number;
      ascender: number;
      descender: number;
      glyphs: Glyph[];
      createdTimestamp?: number;
    });
    substitution: { add(feature: string, sub: { sub: number; by: number | number[] }): void };
    toArrayBuffer(): ArrayBuffer;
  }
}

// Types of Google's WOFF2 encoder built to WebAssembly (wawoff2 ships none).
declare module 'wawoff2' {
  export function compress(sfnt: Uint8Array): Promise<Uint8Array>;
  export function decompress(woff2: Uint8Array): Promise<Uint8Array>;
}
