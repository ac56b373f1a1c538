// Which Node the server runs on: the refusal's words for each release the transport lacks.
import t from 'tap';
import { nativeNodeVersions, runtimeRefusal } from '../../src/api/http/runtime.ts';

t.test('the installed transport has native builds up to Node 20 on this platform', async (t) => {
  const versions = nativeNodeVersions();
  t.ok(versions.includes(20), `builds for ${versions.join(', ')}`);
  t.notOk(versions.includes(22) || versions.includes(24), 'none for Node 22 or 24');
});

t.test('a release without a build is refused, naming those with one and how to run', async (t) => {
  const supported = [16, 18, 20];
  t.equal(runtimeRefusal({ version: '20.20.2', abi: '115' }, supported), null, 'Node 20 runs');
  for (const [version, abi] of [
    ['22.11.0', '127'],
    ['24.22.3', '137'],
    ['25.0.0', '141'],
  ] as const) {
    const refusal = runtimeRefusal({ version, abi }, supported);
    t.match(refusal, new RegExp(`^Node ${version.replaceAll('.', '\\.')} is not supported: `), version);
    t.match(refusal, /native builds for Node 16, 18, 20 on /, `${version}: the releases with a build`);
    t.match(refusal, /run scriptorium with Node 20/, `${version}: how to run it`);
    t.notOk(refusal!.includes('\n'), `${version}: one line`);
  }
  t.match(runtimeRefusal({ version: '20.20.2', abi: '115' }, []), /native builds for no Node release/);
});
