// The shapes the engine's stages hand each other, beneath the display list: a glyph's outline as
// path commands (as the font draws it), and a pen stroke along a letter's centreline (as a pen
// writes it).

/** One command of an outline: M, L, Q, C or Z with its coordinates, font units, y up. */
export interface PathCommand {
  type: string;
  values: number[];
}

/** One stroke of a letter as a pen writes it. */
export interface PenStroke {
  /** Points along the centreline in writing order: x, y pairs in font units, y up. */
  points: number[];
  /** The ink's width (the pen's, as it pressed) at each point, font units. */
  widths: number[];
  /** A closed stroke ends where it starts (the bowl of an o). */
  closed: boolean;
  /** The stroke starts at the glyph's origin (the letter before joins it) or ends at its advance (it runs into the next). */
  entry: boolean;
  exit: boolean;
}
