// Text that is not UTF-8 is said to be so by line and byte, wherever a file is read: the server's
// JSON reader, the command line's inputs (a CSV saved in Latin-1 as a spreadsheet does) and the
// dashboard's file picker share the same scanner.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { readInput } from '../../src/cli/integrator.ts';
import { badUtf8, firstBadByte, whereNotUtf8 } from '../../src/domain/utf8.ts';

const latin1 = Buffer.from('text\nDear Ren\xe9e, thank you.\n', 'latin1');

t.test('the first byte that is not UTF-8, by line and offset', async (t) => {
  t.equal(
    firstBadByte(Buffer.from('caf\u00e9 and \u{1F600}')),
    -1,
    'two-, three- and four-byte characters are UTF-8',
  );
  t.same(badUtf8(latin1), { byte: 13, line: 2, value: 0xe9 });
  t.equal(whereNotUtf8(badUtf8(latin1)!), 'line 2, byte 13 (0xe9)');
  for (const [name, bytes] of [
    ['an overlong slash', [0xc0, 0xaf]],
    ['a surrogate half', [0xed, 0xa0, 0x80]],
    ['past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['a cut-off character', [0x61, 0xe2, 0x82]],
  ] as const)
    t.not(firstBadByte(Uint8Array.from(bytes)), -1, name);
});

t.test('the command line refuses an input file that is not UTF-8, naming where', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-utf8-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'rows.csv');
  writeFileSync(file, latin1);
  t.throws(() => readInput(file, 'csv'), {
    message: `--csv: ${file} is not UTF-8: line 2, byte 13 (0xe9) does not start a UTF-8 character; save it as UTF-8`,
  });
  writeFileSync(file, 'text\nDear Ren\u00e9e\n');
  t.equal(readInput(file, 'csv'), 'text\nDear Ren\u00e9e\n');
});
