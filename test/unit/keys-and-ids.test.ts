import t from 'tap';
import { crc32, displayPrefix, formatApiKey, parseApiKey } from '../../src/domain/api-keys.ts';
import { isId, makeId } from '../../src/domain/ids.ts';
import { newApiKey, newId } from '../../src/lib/ids.ts';

t.test('ids: prefix and 22 base62 characters drawn uniformly (130.9 bits)', async (t) => {
  t.equal(
    makeId('gen', () => 0),
    'gen_0000000000000000000000',
  );
  const bytes = [248, 61, 255, 62, 247, ...Array(30).fill(1)];
  t.equal(
    makeId('gen', () => bytes.shift()!),
    `gen_z0z${'1'.repeat(19)}`,
    'bytes over 247 are skipped, the rest taken mod 62',
  );
  t.throws(() => makeId('gen', () => 250), /above 247/, 'a broken source fails rather than loops');
  const counts = new Map<string, number>();
  for (let i = 0; i < 2000; i++)
    for (const c of newId('gen').slice(4)) counts.set(c, (counts.get(c) ?? 0) + 1);
  t.equal(counts.size, 62, 'every base62 character occurs');
  t.ok(Math.max(...counts.values()) / Math.min(...counts.values()) < 1.5, 'and about equally often');
  const seen = new Set(Array.from({ length: 2000 }, () => newId('tpl')));
  t.equal(seen.size, 2000, 'no repeats');
  for (const id of [...seen].slice(0, 5)) t.ok(isId('tpl', id));
  t.notOk(isId('gen', [...seen][0]), 'prefix checked');
  t.notOk(isId('tpl', 'tpl_short'));
});

t.test('API keys: shape, checksum, mode, display prefix', async (t) => {
  t.equal(crc32('123456789'), 0xcbf43926, 'CRC-32 check value');
  const live = newApiKey('live');
  t.match(live, /^hw_live_[0-9A-Za-z]{38}$/);
  t.same(parseApiKey(live), { ok: true, mode: 'live', display: live.slice(0, 16) });
  t.match(parseApiKey(newApiKey('test')), { ok: true, mode: 'test' });
  t.equal(displayPrefix(live), live.slice(0, 16));
  const typo = live.slice(0, 20) + (live[20] === 'a' ? 'b' : 'a') + live.slice(21);
  t.same(parseApiKey(typo), { ok: false, reason: 'bad checksum' }, 'one changed character is caught');
  const swapped = live.replace('hw_live_', 'hw_test_');
  t.same(parseApiKey(swapped), { ok: false, reason: 'bad checksum' }, 'the mode is under the checksum');
  for (const bad of [
    '',
    'hw_live_',
    `${live} `,
    ` ${live}`,
    live.slice(0, -1),
    `${live}x`,
    `sk_live_${live.slice(8)}`,
    live.toUpperCase(),
  ]) {
    t.equal(parseApiKey(bad).ok, false, `refused: ${JSON.stringify(bad.slice(0, 12))}…`);
  }
  t.throws(() => formatApiKey('live', new Uint8Array(10)), /not enough random bytes/);
});
