// The stored golden specifications (test/goldens/specs.json) and the resources they name, read
// from their files: bundled fonts from their packages, images from the repository.
import { readFileSync } from 'node:fs';
import type { RenderSpec, Resources } from '../../src/render/index.ts';

export interface GoldenSpecs {
  /** Font id → its slug and the module specifier of its file. */
  fonts: Record<string, { slug: string; module: string }>;
  /** Image id → its file (from the repository's root) and header facts. */
  images: Record<string, { file: string; type: 'image/png' | 'image/jpeg'; width: number; height: number }>;
  cases: { name: string; spec: RenderSpec; page: number }[];
}

export function readGoldenSpecs(): { specs: GoldenSpecs; resources: Resources } {
  const specs = JSON.parse(
    readFileSync(new URL('../goldens/specs.json', import.meta.url), 'utf8'),
  ) as GoldenSpecs;
  const resources: Resources = { fonts: {}, images: {} };
  for (const [id, font] of Object.entries(specs.fonts))
    resources.fonts[id] = new Uint8Array(readFileSync(new URL(import.meta.resolve(font.module))));
  for (const [id, image] of Object.entries(specs.images)) {
    resources.images[id] = {
      type: image.type,
      width: image.width,
      height: image.height,
      bytes: new Uint8Array(readFileSync(new URL(`../../${image.file}`, import.meta.url))),
    };
  }
  return { specs, resources };
}
