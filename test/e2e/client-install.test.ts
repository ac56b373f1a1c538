// docs/client.md's install lines, followed as written: the client packed in the checkout, then
// installed into a fresh project outside it, where `import 'scriptorium/client'` talks to a real
// server. And in the checkout itself, the entry is there after `npm ci` (prepare builds it).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startTestServer } from '../helpers/server.ts';
import { childEnv, ROOT } from '../helpers/spawn.ts';

const sh = (line: string, cwd: string) =>
  new Promise<{ code: number; out: string }>((resolve) =>
    execFile(
      'bash',
      ['-c', line],
      { cwd, env: childEnv({ npm_config_audit: 'false', npm_config_fund: 'false' }) },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    ),
  );

t.test('the install lines of docs/client.md, in a fresh project outside the checkout', async (t) => {
  const doc = readFileSync(join(ROOT, 'docs/client.md'), 'utf8');
  const block = /### Installing it[\s\S]*?```sh\n([\s\S]*?)```/.exec(doc)?.[1];
  t.ok(block, 'docs/client.md has its install lines');
  const project = mkdtempSync(join(tmpdir(), 'scriptorium-client-project-'));
  t.teardown(() => rmSync(project, { recursive: true, force: true }));
  t.notOk(project.startsWith(ROOT), 'the project is outside the checkout');
  t.equal((await sh('npm init -y', project)).code, 0, 'a new project');
  let cwd = ROOT;
  for (const line of block!.split('\n').filter(Boolean)) {
    if (line.startsWith('#')) {
      cwd = /your project/.test(line) ? project : ROOT;
      continue;
    }
    const run = await sh(line.replaceAll('<checkout>', ROOT), cwd);
    t.equal(run.code, 0, `${cwd === ROOT ? 'checkout' : 'project'}: ${line}\n${run.out.slice(-2000)}`);
  }
  t.ok(existsSync(join(project, 'node_modules/scriptorium/dist/client/index.js')), 'the client is installed');
  t.notOk(existsSync(join(project, 'node_modules/libsql')), 'and nothing of the service with it');

  const server = await startTestServer(t);
  const a = await server.tenant();
  writeFileSync(
    join(project, 'try.mjs'),
    `import { Scriptorium, ScriptoriumError } from 'scriptorium/client';
const client = new Scriptorium({ apiKey: process.env.KEY, baseUrl: process.env.URL });
const page = await client.templates.list();
console.log(page.data.length, page.data[0].id.slice(0, 4));
try { await client.templates.get('tpl_0000000000000000000000'); } catch (err) { console.log(err instanceof ScriptoriumError, err.code); }
`,
  );
  const used = await sh(`KEY=${a.live} URL=${server.base} node try.mjs`, project);
  t.equal(used.code, 0, used.out);
  t.equal(used.out.trim(), '3 tpl_\ntrue TEMPLATE_NOT_FOUND', 'the client answers from the real server');

  // The integrator's command comes with it: `npx scriptorium batch` in the project.
  const help = await sh('npx scriptorium --help', project);
  t.equal(help.code, 0, help.out);
  t.match(help.out, /generate[\s\S]*render[\s\S]*batch/, 'generate, render and batch');
  t.notMatch(help.out, /\bserve\b|\badmin\b/, 'and nothing of the service');
  writeFileSync(join(project, 'rows.csv'), 'text\n"Dear Ada, thank you."\n"Dear Tom, thank you."\n');
  const batch = await sh(
    `SCRIPTORIUM_API_KEY=${a.test} SCRIPTORIUM_URL=${server.base} npx scriptorium batch --template ${a.templates.test.simple} --csv rows.csv -o letters.zip`,
    project,
  );
  t.equal(batch.code, 0, batch.out);
  t.match(batch.out, /letters\.zip: 2 PDFs/, 'the batch made and downloaded');
  t.equal(
    readFileSync(join(project, 'letters.zip')).subarray(0, 2).toString(),
    'PK',
    'the ZIP in the project',
  );
});

t.test("in the checkout, 'scriptorium/client' resolves after npm ci", async (t) => {
  const r = await sh(
    `node -e "import('scriptorium/client').then((m) => console.log(typeof m.Scriptorium))"`,
    ROOT,
  );
  t.equal(r.out.trim(), 'function', r.out);
});
