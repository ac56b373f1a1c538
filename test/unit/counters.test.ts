// Counters stay open: the blank inside an o, an e, an a (and every letter with a bowl) is not
// filled in by the ink at any setting. Each letter is written alone many times in every bundled
// hand, with effects off, at the defaults and at the top of every setting, rasterised at 200 DPI;
// its largest counter (the blank its ink encloses, once gaps of a pixel or two are bridged) is
// measured. A letter whose every instance encloses a counter with effects off keeps, in every
// instance at every setting, a counter of at least COUNTER_KEPT of the median one with effects off.
import t from 'tap';
import { HANDS } from '../helpers/fonts.ts';
import { freeImages } from '../helpers/drawn-images.ts';
import { counterArea, wordsInk } from '../helpers/ink.ts';
import { EFFECTS_AT_TOP, EFFECTS_OFF } from '../helpers/specs.ts';

/** The least share of its effects-off counter that a letter keeps (docs/handwriting.md, "Ink"). */
const COUNTER_KEPT = 0.25;
const LETTERS = ['o', 'e', 'a', 'd', 'b', 'p', 'q', 'g'];
const TEXT = [...LETTERS, ...LETTERS, ...LETTERS].join(' ');
const SIZE = 24;
const DPI = 300;
const SETTINGS = { defaults: {}, top: EFFECTS_AT_TOP } as const;

/** The largest counter of each letter of TEXT, in x-height², by letter. */
function counters(slug: string, modifiers: Record<string, unknown>, seed: number): Map<string, number[]> {
  const ink = wordsInk(slug, modifiers, TEXT, seed, SIZE, DPI);
  t.equal(ink.lines, 1, `${slug}: the letters on one line`);
  const by = new Map<string, number[]>();
  TEXT.split(' ').forEach((letter, k) => {
    const area = counterArea(ink.words[k]!) / ink.xHeight ** 2;
    by.set(letter, [...(by.get(letter) ?? []), area]);
  });
  return by;
}

const median = (v: number[]) => v.slice().sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

for (const slug of HANDS) {
  t.test(`${slug}: counters stay open at every setting`, async (t) => {
    const off = counters(slug, EFFECTS_OFF, 3);
    const closed = LETTERS.filter((l) => off.get(l)!.every((a) => a > 0.01));
    t.ok(closed.length >= 2, `${slug}: letters with a counter: ${closed.join(' ')}`);
    for (const [name, modifiers] of Object.entries(SETTINGS)) {
      const at = [counters(slug, modifiers, 3), counters(slug, modifiers, 11)];
      await freeImages();
      let worst = { letter: '', kept: Infinity };
      for (const letter of closed) {
        const base = median(off.get(letter)!);
        for (const area of at.flatMap((m) => m.get(letter)!)) {
          if (area / base < worst.kept) worst = { letter, kept: area / base };
        }
      }
      t.ok(
        worst.kept >= COUNTER_KEPT,
        `${name}: the smallest counter is ${worst.kept.toFixed(2)} of its size with effects off ("${worst.letter}")`,
      );
    }
  });
}
