// A held read (src/app/waits.ts): answered at the first change, at the work's end, when the
// caller left, or once its time is up; `end` lets changes pass. Pure: the reads are counted.
import t from 'tap';
import { heldRead, LOOK_MS } from '../../src/app/waits.ts';

/** A read that answers `states` in turn, then the last one for good; how often it was asked. */
function reads(...states: { status: string; n: number }[]) {
  let asked = 0;
  const read = async () => states[Math.min(asked++, states.length - 1)]!;
  return { read, asked: () => asked };
}
const ended = (s: { status: string }) => s.status === 'completed';

t.test('answered at once: no hold asked, or the work already ended', async (t) => {
  const a = reads({ status: 'queued', n: 0 }, { status: 'processing', n: 0 });
  t.same(await heldRead(a.read, { seconds: 0, until: 'change' }, ended), { status: 'queued', n: 0 });
  t.equal(a.asked(), 1, 'one read');
  const b = reads({ status: 'completed', n: 3 });
  t.same(await heldRead(b.read, { seconds: 30, until: 'change' }, ended), { status: 'completed', n: 3 });
  t.equal(b.asked(), 1, 'one read: it ended');
});

t.test('held until the first change: a status or a count', async (t) => {
  const a = reads(
    { status: 'processing', n: 0 },
    { status: 'processing', n: 0 },
    { status: 'processing', n: 1 },
  );
  t.same(await heldRead(a.read, { seconds: 30, until: 'change' }, ended), { status: 'processing', n: 1 });
  t.equal(a.asked(), 3, 'the third read showed the change');
});

t.test('until the end: the changes before it pass', async (t) => {
  const a = reads(
    { status: 'queued', n: 0 },
    { status: 'processing', n: 1 },
    { status: 'processing', n: 2 },
    { status: 'completed', n: 3 },
  );
  t.same(await heldRead(a.read, { seconds: 30, until: 'end' }, ended), { status: 'completed', n: 3 });
  t.equal(a.asked(), 4);
});

t.test('its time up, or the caller gone: the last answer', async (t) => {
  const a = reads({ status: 'processing', n: 0 });
  t.same(await heldRead(a.read, { seconds: 1, until: 'change' }, ended), { status: 'processing', n: 0 });
  t.ok(
    a.asked() >= 2 && a.asked() <= 1 + Math.ceil(1000 / LOOK_MS),
    `looked again every ${LOOK_MS} ms within the second (${a.asked()} reads)`,
  );
  let gone = false;
  const b = reads({ status: 'processing', n: 0 });
  setTimeout(() => {
    gone = true;
  }, 300);
  t.same(await heldRead(b.read, { seconds: 30, until: 'change' }, ended, () => gone), {
    status: 'processing',
    n: 0,
  });
  t.ok(b.asked() <= 3, `stopped when the caller left (${b.asked()} reads, not 120)`);
});
