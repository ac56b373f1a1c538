// The shared handwriting fonts that ship with the service (npm packages with the TTF files).
// Their ids are stable (derived from the slug) so templates stay portable between installs.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stableId } from '../lib/ids.ts';

export interface BundledFont {
  slug: string;
  name: string;
  /** Module specifier of the TTF file, resolved at run time. */
  module: string;
  premium: boolean;
  license: 'OFL-1.1' | 'Apache-2.0';
}

const ofl = (slug: string, name: string, module: string, premium = false): BundledFont => ({
  slug,
  name,
  module: `@expo-google-fonts/${module}`,
  premium,
  license: 'OFL-1.1',
});

export const BUNDLED_FONTS: BundledFont[] = [
  ofl('caveat', 'Caveat', 'caveat/400Regular/Caveat_400Regular.ttf'),
  ofl('caveat-bold', 'Caveat Bold', 'caveat/700Bold/Caveat_700Bold.ttf'),
  ofl('indie-flower', 'Indie Flower', 'indie-flower/400Regular/IndieFlower_400Regular.ttf'),
  ofl('kalam', 'Kalam', 'kalam/400Regular/Kalam_400Regular.ttf'),
  ofl('kalam-bold', 'Kalam Bold', 'kalam/700Bold/Kalam_700Bold.ttf'),
  ofl('patrick-hand', 'Patrick Hand', 'patrick-hand/400Regular/PatrickHand_400Regular.ttf'),
  ofl('gochi-hand', 'Gochi Hand', 'gochi-hand/400Regular/GochiHand_400Regular.ttf'),
  ofl('shadows-into-light', 'Shadows Into Light', 'shadows-into-light/400Regular/ShadowsIntoLight_400Regular.ttf'),
  ofl('nanum-pen-script', 'Nanum Pen Script', 'nanum-pen-script/400Regular/NanumPenScript_400Regular.ttf'),
  ofl('aref-ruqaa', 'Aref Ruqaa', 'aref-ruqaa/400Regular/ArefRuqaa_400Regular.ttf'),
  ofl('dancing-script', 'Dancing Script', 'dancing-script/400Regular/DancingScript_400Regular.ttf', true),
  ofl('reenie-beanie', 'Reenie Beanie', 'reenie-beanie/400Regular/ReenieBeanie_400Regular.ttf', true),
  {
    slug: 'homemade-apple',
    name: 'Homemade Apple',
    module: '@expo-google-fonts/homemade-apple/400Regular/HomemadeApple_400Regular.ttf',
    premium: true,
    license: 'Apache-2.0',
  },
];

export function bundledFontId(slug: string): string {
  return stableId('font', `bundled:${slug}`);
}

/** The font file of a bundled font, from its package. */
export function readBundledFont(font: BundledFont): Uint8Array {
  return new Uint8Array(readFileSync(fileURLToPath(import.meta.resolve(font.module))));
}
