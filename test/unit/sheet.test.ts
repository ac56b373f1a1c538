// The sample sheet's layout: every character of its set with its drawings (three of a lowercase
// letter, two of a capital or a digit, one of a sign), every box on its page clear of the marks,
// the code and each other; the page code's cells said and read back, a damaged one refused.
import t from 'tap';
import {
  readSheetCode,
  SHEET_PAPERS,
  SHEET_SETS,
  type SheetPaper,
  type SheetSet,
  sheetCodeBits,
  sheetLayout,
} from '../../src/foundry/index.ts';

type Rect = { x: number; y: number; width: number; height: number };
const overlap = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

for (const set of Object.keys(SHEET_SETS) as SheetSet[])
  for (const paper of Object.keys(SHEET_PAPERS) as SheetPaper[])
    t.test(`${set} on ${paper}`, async (t) => {
      const l = sheetLayout(set, paper);
      t.equal(l.code, `SCR1-${set.toUpperCase()}-${SHEET_PAPERS[paper].name.toUpperCase()}`);
      t.same(l.paper, SHEET_PAPERS[paper]);
      const count = (c: string) => l.boxes.filter((b) => b.char === c).length;
      t.same(
        SHEET_SETS[set].chars.filter((c) => count(c) === 0),
        [],
        'every character of the set has boxes',
      );
      t.equal(count('a'), 3, 'three drawings of a lowercase letter');
      t.equal(count('Q'), 2, 'two of a capital');
      t.equal(count('7'), 2, 'two of a digit');
      t.equal(count('?'), 1, 'one of a sign');
      t.equal(count('€'), 1);
      if (set === 'latin1') {
        t.equal(count('é'), 3, 'an accented lowercase letter is a lowercase letter');
        t.equal(count('Ø'), 2);
        t.equal(count('ß'), 3);
      } else t.equal(count('é'), 0, 'the basic set has no accented letters');
      t.same(
        l.boxes.filter((b) => b.variant > count(b.char) || b.variant < 1),
        [],
        'variants numbered from 1',
      );
      t.equal(Math.max(...l.boxes.map((b) => b.page)), l.pages, 'every page used');
      const code = {
        x: l.codeCells.x,
        y: l.codeCells.y,
        width: l.codeCells.size * l.codeCells.count,
        height: l.codeCells.size,
      };
      const marks = l.marks.map((m) => ({ x: m.x, y: m.y, width: m.size, height: m.size }));
      const faults: string[] = [];
      for (const [i, b] of l.boxes.entries()) {
        const at = `${b.char} ${b.variant}`;
        if (
          b.x < 10 ||
          b.y < 10 ||
          b.x + b.width > l.paper.width - 10 ||
          b.y + b.height > l.paper.height - 10
        )
          faults.push(`${at} leaves the page's margins`);
        if ([code, ...marks].some((r) => overlap(b, r))) faults.push(`${at} covers a mark or the code`);
        if (l.boxes.slice(i + 1).some((o) => o.page === b.page && overlap(b, o)))
          faults.push(`${at} overlaps a box`);
        if (!(b.xHeight > 3.5 && b.xHeight < b.baseline && b.baseline < b.height - 4))
          faults.push(`${at} guides`);
      }
      t.same(faults, [], 'each box within the margins, clear of the marks, the code and the other boxes');
      for (let page = 1; page <= l.pages; page++) {
        const said = { version: 1, set, paper, page, pages: l.pages };
        t.same(readSheetCode(sheetCodeBits(said)), said, `page ${page}'s code reads back`);
      }
    });

t.test('a damaged code says nothing', async (t) => {
  const bits = sheetCodeBits({ version: 1, set: 'basic', paper: 'a4', page: 2, pages: 2 });
  for (let i = 0; i < bits.length; i++) {
    const flipped = bits.map((b, j) => (j === i ? !b : b));
    t.equal(readSheetCode(flipped), null, `bit ${i} flipped`);
  }
  t.equal(readSheetCode(Array(20).fill(false)), null, 'no cells: no code');
  t.equal(readSheetCode(bits.slice(1)), null, 'a cell short');
});
