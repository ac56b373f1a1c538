// The files of the bundled fonts, from their npm packages (src/domain/fonts.ts lists them).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BundledFont } from '../domain/fonts.ts';

export function readBundledFont(font: BundledFont): Uint8Array {
  return new Uint8Array(readFileSync(fileURLToPath(import.meta.resolve(font.module))));
}
