// The tracer the font builder is handed (src/foundry/hand-build.ts): Potrace, in its WebAssembly
// build (esm-potrace-wasm), fits Bézier curves to a bitmap's ink. It is loaded once per thread,
// on first use. Its Node.js branch reads `require` and `__dirname` as globals, which an ES module
// does not have: they are lent to it while it loads, and taken back.
import { createRequire } from 'node:module';
import type { PathCommand } from '../src/render/index.ts';
import type { GrayImage, Tracer } from '../src/foundry/index.ts';

type Potrace = (
  image: { width: number; height: number; data: Uint8ClampedArray },
  options: Record<string, number | boolean>,
) => Promise<string[]>;

let loading: Promise<Potrace> | undefined;

function potrace(): Promise<Potrace> {
  loading ??= (async () => {
    const g = globalThis as { require?: unknown; __dirname?: unknown };
    const lent = !('require' in g);
    if (lent) {
      g.require = createRequire(import.meta.url);
      g.__dirname = '';
    }
    try {
      const mod = await import('esm-potrace-wasm');
      await mod.init();
      return mod.potrace as unknown as Potrace;
    } finally {
      if (lent) {
        delete g.require;
        delete g.__dirname;
      }
    }
  })();
  return loading;
}

/**
 * Potrace's outlines of `ink` (0 ink, 255 paper): closed paths of lines and cubic curves, in the
 * image's pixels, y down. Specks of 2 pixels or fewer are dropped; corners are kept where the
 * ink turns sharply (alphamax 1), and curves are joined where they stay within 0.2 px.
 */
export const traceInk: Tracer = async (ink: GrayImage) => {
  const trace = await potrace();
  const rgba = new Uint8ClampedArray(ink.width * ink.height * 4);
  for (let i = 0; i < ink.data.length; i++) {
    const v = ink.data[i]!;
    rgba[i * 4] = v;
    rgba[i * 4 + 1] = v;
    rgba[i * 4 + 2] = v;
    rgba[i * 4 + 3] = 255;
  }
  const paths = await trace(
    { width: ink.width, height: ink.height, data: rgba },
    { pathonly: true, extractcolors: false, turdsize: 2, alphamax: 1, opticurve: 1, opttolerance: 0.2 },
  );
  return paths.flatMap((d) => potracePath(d, ink.height));
};

/**
 * Potrace's SVG path data (tenths of a pixel, y up from the bottom, relative moves after the
 * first) as absolute commands in pixels, y down.
 */
export function potracePath(d: string, height: number): PathCommand[] {
  const out: PathCommand[] = [];
  const tokens = d.match(/[MmLlCcZz]|-?\d*\.?\d+(?:e-?\d+)?/g) ?? [];
  let [x, y] = [0, 0];
  let [startX, startY] = [0, 0];
  let command = '';
  const at = (px: number, py: number) => [px / 10, height - py / 10];
  for (let i = 0; i < tokens.length; ) {
    if (/[A-Za-z]/.test(tokens[i]!)) command = tokens[i++]!;
    const num = () => Number(tokens[i++]);
    const relative = command === command.toLowerCase();
    const [ox, oy] = relative ? [x, y] : [0, 0];
    switch (command.toUpperCase()) {
      case 'M': {
        [x, y] = [ox + num(), oy + num()];
        [startX, startY] = [x, y];
        out.push({ type: 'M', values: at(x, y) });
        // Pairs after a move are lines.
        command = relative ? 'l' : 'L';
        break;
      }
      case 'L':
        [x, y] = [ox + num(), oy + num()];
        out.push({ type: 'L', values: at(x, y) });
        break;
      case 'C': {
        const [x1, y1, x2, y2, x3, y3] = [num(), num(), num(), num(), num(), num()];
        out.push({
          type: 'C',
          values: [...at(ox + x1, oy + y1), ...at(ox + x2, oy + y2), ...at(ox + x3, oy + y3)],
        });
        [x, y] = [ox + x3, oy + y3];
        break;
      }
      case 'Z':
        out.push({ type: 'Z', values: [] });
        [x, y] = [startX, startY];
        command = '';
        break;
      default:
        throw new Error(`unexpected path command ${command} in Potrace's output`);
    }
  }
  return out;
}
