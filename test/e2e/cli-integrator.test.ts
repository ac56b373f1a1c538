// The integrator commands as real processes against a real server: `generate` writes the PDF and
// says so (or one JSON object), shows a progress line on a terminal, and exits by outcome (0 done,
// 2 usage, 3 refused, 4 failed or cancelled, 5 unreachable); `render` writes an image.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { importTemplate } from '../../src/app/admin.ts';
import { readExample } from '../../src/app/demo.ts';
import { cli } from '../helpers/cli.ts';
import { call, startTestServer } from '../helpers/server.ts';
import { childEnv, ROOT } from '../helpers/spawn.ts';

const server = await startTestServer(t);
const a = await server.tenant();
const dir = mkdtempSync(join(tmpdir(), 'scriptorium-cli-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const letter = file('letter.txt', 'Dear Margaret, thank you for the lovely afternoon tea last Sunday.');
const long = file('long.txt', 'The quick brown fox jumps over the lazy dog, again and again. '.repeat(1500));
const env = { SCRIPTORIUM_API_KEY: a.test, SCRIPTORIUM_URL: server.base };
const simple = a.templates.test.simple;

t.test('generate: the PDF is written and the line says what it is; --json prints one object', async (t) => {
  const out = join(dir, 'letter.pdf');
  const r = await cli(
    ['generate', '--template', simple, '--text-file', letter, '-o', out, '--metadata', 'order=7'],
    env,
  );
  t.equal(r.code, 0, r.stderr);
  t.match(r.stdout, new RegExp(`^${out}: 1 page, 1\\.5 sheets, [\\d.]+ KB \\(gen_\\w{22}\\)\\n$`));
  t.equal(readFileSync(out).subarray(0, 5).toString(), '%PDF-');
  t.equal(r.stderr, '', 'no progress line off a terminal');
  const j = await cli(['generate', '--template', simple, '--text-file', letter, '-o', out, '--json'], {
    ...env,
    SCRIPTORIUM_API_KEY: '',
  });
  t.equal(j.code, 2, 'without a key: a usage error');
  const json = await cli(
    ['generate', '--key', a.test, '--template', simple, '--text-file', letter, '-o', out, '--json'],
    { SCRIPTORIUM_URL: server.base },
  );
  t.equal(json.code, 0);
  const lines = json.stdout.trim().split('\n');
  t.equal(lines.length, 1, 'one line');
  const parsed = JSON.parse(lines[0]!);
  t.match(parsed, { job: { status: 'completed', pages: 1 }, output: out, bytes: readFileSync(out).length });
  const listed = await call(t, server, 'GET', '/generations?status=completed', { key: a.test });
  t.same(
    listed.body.data.find((j: { metadata: Record<string, string> }) => j.metadata.order)?.metadata,
    { order: '7' },
    '--metadata reached the job',
  );
});

t.test('exit codes by outcome', async (t) => {
  const out = join(dir, 'x.pdf');
  const usage = await cli(['generate', '--template', simple, '-o', out], env);
  t.equal(usage.code, 2, 'no input file: 2');
  t.match(usage.stderr, /exactly one of --text-file, --data-file, --content-file/);
  const missing = await cli(
    ['generate', '--template', simple, '--text-file', join(dir, 'nope'), '-o', out],
    env,
  );
  t.equal(missing.code, 2, 'an unreadable file: 2');
  const flag = await cli(
    ['generate', '--template', simple, '--text-file', letter, '-o', out, '--timeout', 'soon'],
    env,
  );
  t.equal(flag.code, 2, 'a bad option value: 2');
  const refused = await cli(
    ['generate', '--template', a.templates.test.structured, '--text-file', letter, '-o', out],
    env,
  );
  t.equal(refused.code, 3, 'refused by the API: 3');
  t.match(refused.stderr, /takes data, got text \(INVALID_REQUEST, field text, req_\w{22}\)/);
  const refusedJson = await cli(
    ['generate', '--template', a.templates.test.structured, '--text-file', letter, '-o', out, '--json'],
    env,
  );
  t.match(JSON.parse(refusedJson.stdout), {
    error: { code: 'INVALID_REQUEST', status: 400, field: 'text', requestId: /^req_/ },
  });
  const away = await cli(
    ['generate', '--url', 'http://127.0.0.1:9', '--template', simple, '--text-file', letter, '-o', out],
    env,
  );
  t.equal(away.code, 5, 'unreachable: 5');
  t.match(away.stderr, /CONNECTION_FAILED/);
  t.notOk(existsSync(out), 'no file was written by any of them');

  // A job cancelled while the command waits: 4, and no file.
  const running = cli(['generate', '--template', simple, '--text-file', long, '-o', out, '--json'], env);
  let id: string | undefined;
  for (let i = 0; i < 200 && !id; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const list = await call(t, server, 'GET', '/generations?createdFrom=2000-01-01&status=processing', {
      key: a.test,
    });
    const queued = await call(t, server, 'GET', '/generations?status=queued', { key: a.test });
    id = list.body.data[0]?.id ?? queued.body.data[0]?.id;
  }
  t.ok(id, 'the job was found running');
  await call(t, server, 'POST', `/generations/${id}/cancel`, { key: a.test });
  const cancelled = await running;
  t.equal(cancelled.code, 4, 'cancelled: 4');
  t.match(JSON.parse(cancelled.stdout), {
    error: { code: 'GENERATION_CANCELLED' },
    job: { id, status: 'cancelled' },
  });
  t.notOk(existsSync(out), 'and no file');
});

t.test('on a terminal, a progress line: queued or processing, then downloading with bytes', async (t) => {
  const out = join(dir, 'long.pdf');
  const command = [
    process.execPath,
    join(ROOT, 'bin/scriptorium.js'),
    'generate',
    '--template',
    simple,
    '--text-file',
    long,
    '-o',
    out,
  ]
    .map((s) => `'${s}'`)
    .join(' ');
  // script(1) gives the command a pseudo-terminal, as an integrator's shell would.
  const typed = await new Promise<{ code: number; output: string }>((resolve) =>
    execFile(
      'script',
      ['-qec', command, '/dev/null'],
      { cwd: ROOT, env: childEnv({ ...env, CI: '' }) },
      (err, stdout) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: stdout }),
    ),
  );
  t.equal(typed.code, 0, typed.output.slice(-300));
  const frames = typed.output
    .split('\r')
    .map((f) => f.replaceAll('\u001b[2K', '').trim())
    .filter(Boolean);
  t.ok(
    frames.some((f) => /^gen_\w{22} {2}(queued|processing) {2}\d+ s$/.test(f)),
    `a waiting frame (${frames.find((f) => /processing|queued/.test(f))})`,
  );
  t.ok(
    frames.some((f) => /^gen_\w{22} {2}downloading {2}[\d.]+ K?B of [\d.]+ KB$/.test(f)),
    `a downloading frame (${frames.find((f) => /downloading/.test(f))})`,
  );
  t.match(frames.at(-1), new RegExp(`^${out}: \\d+ pages`), 'the line is cleared before the result');
});

t.test('render writes an SVG, a PNG or strokes, the format from the name or --format', async (t) => {
  const png = join(dir, 'hello.png');
  const r = await cli(['render', '--template', simple, '--text', 'Hello there', '-o', png], env);
  t.equal(r.code, 0, r.stderr);
  t.same([...readFileSync(png).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  t.match(r.stdout, /hello\.png: PNG, [\d.]+ KB/);
  const svg = join(dir, 'hello.out');
  const s = await cli(
    ['render', '--template', simple, '--text-file', letter, '--format', 'svg', '-o', svg, '--json'],
    env,
  );
  t.equal(s.code, 0, s.stderr);
  t.match(JSON.parse(s.stdout), { format: 'svg', output: svg });
  t.match(readFileSync(svg, 'utf8'), /^<svg/);
  const plot = join(dir, 'plot.svg');
  const p = await cli(
    ['render', '--template', simple, '--text', 'Hi', '--format', 'strokes', '-o', plot, '--json'],
    env,
  );
  t.equal(p.code, 0, p.stderr);
  t.match(JSON.parse(p.stdout), { format: 'strokes', output: plot });
  t.match(
    readFileSync(plot, 'utf8'),
    /^<svg[^>]+><g fill="none" stroke="#[0-9a-f]{6}"/,
    "a pen plotter's strokes",
  );
  const big = await cli(
    ['render', '--template', simple, '--text', 'Hi', '--font-size', '200', '-o', png],
    env,
  );
  t.equal(big.code, 3, 'fontSize out of range: refused, 3');
  t.match(big.stderr, /fontSize must be 6-96 pt, got 200/);
  const noFormat = await cli(['render', '--template', simple, '--text', 'Hi', '-o', join(dir, 'x.gif')], env);
  t.equal(noFormat.code, 2);
});

t.test('generate says what it waits for while it waits out a 429', async (t) => {
  // Three requests per 8 s for the key, spent here just before the command starts (well within
  // a second): its submission is refused with 429 and tried again once the window resets.
  const paced = await startTestServer(t, { rateLimitPerMinute: 3, rateLimitWindowSeconds: 8 });
  const p = await paced.tenant();
  const out = join(dir, 'paced.pdf');
  for (let i = 0; i < 3; i++) await call(t, paced, 'GET', '/fonts', { key: p.test });
  const r = await cli(['generate', '--template', p.templates.test.simple, '--text-file', letter, '-o', out], {
    SCRIPTORIUM_API_KEY: p.test,
    SCRIPTORIUM_URL: paced.base,
  });
  t.equal(r.code, 0, r.stderr);
  t.equal(readFileSync(out).subarray(0, 5).toString(), '%PDF-', 'the PDF is written in the end');
  t.match(
    r.stderr,
    /^scriptorium: 429 \(per-key\): this key may make 3 requests per 8 s; wait 60 s; waiting \d+ s, then try 2 of 3$/m,
    'off a terminal too, a line names the limit, the wait and the try',
  );
});

t.test(
  'batch: CSV rows in, a progress bar on a terminal, the ZIP out; a partly failed batch exits 4',
  async (t) => {
    const b = await server.tenant();
    const csv = file(
      'rows.csv',
      `text,metadata.name\n${['ada', 'tom', 'grace', 'alan', 'mary', 'john']
        .map(
          (n) =>
            `"Dear ${n}, ${'thank you for the garden party and the long talk about roses. '.repeat(20)}",${n}`,
        )
        .join('\n')}\n`,
    );
    const out = join(dir, 'letters.zip');
    const command = [
      process.execPath,
      join(ROOT, 'bin/scriptorium.js'),
      'batch',
      '--template',
      b.templates.test.simple,
      '--csv',
      csv,
      '-o',
      out,
      '--name',
      'name',
    ]
      .map((s) => `'${s}'`)
      .join(' ');
    const typed = await new Promise<{ code: number; output: string }>((resolve) =>
      execFile(
        'script',
        ['-qec', command, '/dev/null'],
        {
          cwd: ROOT,
          env: childEnv({ SCRIPTORIUM_API_KEY: b.test, SCRIPTORIUM_URL: server.base, CI: '' }),
        },
        (err, stdout) =>
          resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: stdout }),
      ),
    );
    t.equal(typed.code, 0, typed.output.slice(-300));
    const frames = typed.output
      .split('\r')
      .map((f) => f.replaceAll('\u001b[2K', '').trim())
      .filter(Boolean);
    t.ok(
      frames.some((f) => /^bat_\w{22} {2}\[#*-+\] {2}[0-5]\/6 rows {2}\d+ s$/.test(f)),
      `a bar part way (${frames.find((f) => /rows/.test(f))})`,
    );
    t.match(
      frames.at(-1),
      new RegExp(`^${out}: 6 PDFs, \\d+ pages, [\\d.]+ sheets, [\\d.]+ KB \\(bat_\\w{22}\\)`),
    );
    t.equal(readFileSync(out).subarray(0, 2).toString(), 'PK', 'the ZIP is written');

    const json = await cli(
      [
        'batch',
        '--template',
        b.templates.test.simple,
        '--rows',
        file('rows.json', '[{"text":"Dear Ada."}]'),
        '-o',
        out,
        '--json',
      ],
      { SCRIPTORIUM_API_KEY: b.test, SCRIPTORIUM_URL: server.base },
    );
    t.equal(json.code, 0, json.stderr);
    t.match(JSON.parse(json.stdout), { batch: { status: 'completed', rows: { completed: 1 } }, output: out });

    const bad = await cli(
      [
        'batch',
        '--template',
        b.templates.test.simple,
        '--csv',
        file('bad.csv', 'text,colour\nhi,blue\n'),
        '-o',
        out,
      ],
      {
        SCRIPTORIUM_API_KEY: b.test,
        SCRIPTORIUM_URL: server.base,
      },
    );
    t.equal(bad.code, 3, 'a refused batch exits 3');
    t.match(bad.stderr, /csv column 2 "colour".*field csv\/colour/);
    const none = await cli(['batch', '--template', b.templates.test.simple, '-o', out], {
      SCRIPTORIUM_API_KEY: b.test,
      SCRIPTORIUM_URL: server.base,
    });
    t.equal(none.code, 2, 'neither --csv nor --rows: a usage error');
  },
);

t.test('batch --merge --envelope-template: one PDF of the letters, one of their envelopes', async (t) => {
  const b = await server.tenant();
  const envelope = await importTemplate(server.ctx, {
    account: b.accountId,
    mode: 'test',
    json: readExample('envelope', {}).template,
    source: 'envelope',
  });
  const csv = file(
    'addressed.csv',
    [
      'text,envelope.name,envelope.street,envelope.city',
      '"Dear Margaret, thank you for the roses.",Mrs Margaret Hale,14 Rosemary Lane,Helstone SO41 8QT',
      '"Dear John, thank you for the tour of the mill.",Mr John Thornton,Marlborough Mills,Milton',
      '"Dear Fanny, thank you for the letters.",Miss Fanny Price,Mansfield Park,Northampton',
    ].join('\n'),
  );
  const out = join(dir, 'addressed.pdf');
  const env = { SCRIPTORIUM_API_KEY: b.test, SCRIPTORIUM_URL: server.base };
  const args = ['batch', '--template', b.templates.test.simple, '--csv', csv, '-o', out, '--merge'];
  const refused = await cli(args, env);
  t.equal(refused.code, 3, 'envelope columns without an envelope template: refused, exit 3');
  t.match(refused.stderr, /envelope/);
  const r = await cli([...args, '--envelope-template', envelope.id], env);
  t.equal(r.code, 0, r.stderr);
  const envelopes = join(dir, 'addressed-envelopes.pdf');
  t.match(r.stdout, new RegExp(`^${out}: 3 letters in one PDF, \\d+ pages`), 'the letters, merged');
  t.match(r.stdout, new RegExp(`\\n${envelopes}: the envelopes in one PDF`), 'and the envelopes beside them');
  const pages = (f: string) =>
    Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [f], { encoding: 'utf8' }))![1]);
  t.equal(pages(out), 3, 'a page a letter');
  t.equal(pages(envelopes), 3, 'an envelope a row');
  t.match(
    execFileSync('pdftotext', [envelopes, '-'], { encoding: 'utf8' }),
    /Mrs Margaret Hale/,
    'addressed',
  );
  const bad = await cli([...args, '--envelope-template', 'envelope.json'], env);
  t.equal(bad.code, 2, 'an envelope template that is no id: a usage error');
});
