// The `scriptorium` command line (DESIGN §8, a fixed contract). Arguments are checked before
// the store is opened, so a malformed command writes nothing; every refusal is one line.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { envValue } from '../config/env.ts';
import { KEY_MODES } from '../domain/api-keys.ts';
import { Refusal } from '../domain/errors.ts';
import { PERIODS, PLAN_IDS } from '../domain/plan-ids.ts';
import { packageFile } from '../lib/package-files.ts';
import type { SheetPaper, SheetSet } from '../foundry/index.ts';
import type { Role, Service } from '../service.ts';
import { id } from './args.ts';
import { openConfigured, setVerbose, withContext } from './context.ts';
import { edgeFor, parseAddress } from './edge.ts';
import { formatAccount } from './format.ts';
import { io } from './io.ts';
import { batchCommand } from './batch.ts';
import { integratorCommands } from './integrator.ts';
import { listCommands } from './lists.ts';
import { webhookCommands } from './webhooks.ts';

/** The package's version, as package.json says it. */
function packageVersion(): string {
  return (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
}

function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`must be a whole number, got "${value}"`);
  return Number(value);
}

/** A whole number within bounds, for options whose 0 would make a broken configuration. */
function within(min: number, max: number) {
  return (value: string): number => {
    const n = wholeNumber(value);
    if (n < min || n > max) throw new InvalidArgumentError(`must be ${min}-${max}, got ${n}`);
    return n;
  };
}

function addressList(value: string, previous: string[]): string[] {
  if (!parseAddress(value)) throw new InvalidArgumentError(`must be host:port, got "${value}"`);
  return [...previous, value];
}

function periodDays(value: string): number {
  if (!PERIODS.map(String).includes(value))
    throw new InvalidArgumentError(`must be ${PERIODS.join(' or ')} days, got "${value}"`);
  return Number(value);
}

function readableFile(value: string): string {
  try {
    if (!statSync(value).isFile()) throw new Error();
  } catch {
    throw new InvalidArgumentError(`must be a readable file, got "${value}"`);
  }
  return value;
}

const accountOption = () =>
  new Option('--account <account>', 'account id').argParser(id('acc', 'an account')).makeOptionMandatory();
const modeOption = () => new Option('--mode <mode>', 'key mode').choices(KEY_MODES).default('live');
const jsonOption = () => new Option('--json', 'print one JSON object');

/**
 * The admin token for a command that talks to a running server (`what` needs it), after its
 * `--url` is checked: from `--token`, else ADMIN_TOKEN.
 */
function adminToken(opts: { url: string; token?: string | undefined }, what: string): string {
  const token = opts.token ?? envValue('ADMIN_TOKEN');
  if (!token) throw new Refusal('invalid', `${what} needs the admin token: --token TOKEN or ADMIN_TOKEN`);
  if (!/^https?:\/\/[^/]+/.test(opts.url))
    throw new Refusal(
      'invalid',
      `--url must be an http:// or https:// address, got ${JSON.stringify(opts.url)}`,
    );
  return token;
}

/** `admin template import --url`: the template posted to the admin API of a running server. */
async function importOverHttp(
  opts: {
    account: string;
    file: string;
    mode: 'live' | 'test';
    url: string;
    token?: string | undefined;
    /** The file's text. */
    text: string;
    /** --json: the template as JSON, not a line. */
    asJson?: boolean | undefined;
  },
  human: (t: { id: string; kind: string; mode: string; name: string }) => string,
): Promise<void> {
  const token = adminToken(opts, 'importing over HTTP');
  let template: unknown;
  try {
    template = JSON.parse(opts.text);
  } catch (err) {
    throw new Refusal('invalid', `${opts.file} is not valid JSON: ${(err as Error).message}`);
  }
  const at = `${opts.url.replace(/\/+$/, '')}/admin/v1/accounts/${encodeURIComponent(opts.account)}/templates`;
  let res: Response;
  try {
    res = await fetch(at, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: opts.mode, template }),
    });
  } catch (err) {
    throw new Refusal('unavailable', `${opts.url} could not be reached: ${(err as Error).message}`);
  }
  const body = (await res.json().catch(() => ({}))) as { error?: { message?: string; field?: string } };
  if (res.status !== 201) {
    const message = `${opts.file}: ${body.error?.message ?? `the server answered ${res.status}`}`;
    throw new Refusal(
      res.status === 404 ? 'missing' : res.status >= 500 ? 'unavailable' : 'invalid',
      message,
      {
        ...(body.error?.field ? { field: body.error.field } : {}),
      },
    );
  }
  // The admin API's template: `mode` is its kind (simple or structured), `keyMode` the key mode.
  const t = body as unknown as { id: string; mode: string; keyMode: string; name: string };
  io.out(`${opts.asJson ? JSON.stringify(t) : human({ ...t, kind: t.mode, mode: t.keyMode })}\n`);
}

export function buildProgram(): Command {
  const program = new Command('scriptorium')
    .description('Handwriting rendering service and render farm')
    .version(`scriptorium ${packageVersion()}`, '-V, --version', 'print the version')
    .option('--verbose', 'print notes about the services (such as an S3 server without lifecycle rules)')
    .hook('preAction', (cmd) => {
      setVerbose(cmd.opts().verbose === true);
    })
    .showSuggestionAfterError(false)
    // Commander throws rather than exits (src/cli/run.ts sets the code), and writes where the
    // command writes; set before the commands, which inherit both.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out(text),
      writeErr: (text) => io.err(text),
      outputError: (text, write) => write(`scriptorium: ${text.replace(/^error: /, '').trimEnd()}\n`),
    });

  program
    .command('serve')
    .description('run the service')
    .addOption(
      new Option('--role <role>', 'what this process runs').choices(['all', 'api', 'worker']).default('all'),
    )
    .option('--port <port>', 'HTTP port (default: PORT or 8080)', wholeNumber)
    .option('--no-demo', 'do not create the demo account on an empty store')
    .action(async (opts: { role: Role; port?: number; demo: boolean }) => {
      const { configFromEnv } = await import('../config/index.ts');
      const config = configFromEnv(opts.port !== undefined ? { port: opts.port } : {});
      // Before anything is opened or loaded: is this a Node the HTTP transport is built for?
      const { runtimeRefusal } = await import('../api/http/runtime.ts');
      const refusal = runtimeRefusal();
      if (refusal) throw new Refusal('invalid', refusal);
      const [{ openContext }, { seedDemo, demoBanner }, { startService }] = await Promise.all([
        import('../composition.ts'),
        import('../app/demo.ts'),
        import('../service.ts'),
      ]);
      const ctx = await openContext(config);
      let service: Service;
      const stop = (signal: string) => {
        io.err(
          service.http
            ? `scriptorium: ${signal}: finishing in-flight requests and running jobs, then stopping\n`
            : `scriptorium: ${signal}: finishing running jobs, then stopping\n`,
        );
        service.stop().then(
          () => process.exit(0),
          (err: unknown) => {
            io.err(`scriptorium: stopped with an error: ${(err as Error).message}\n`);
            process.exit(1);
          },
        );
      };
      try {
        const demo = !ctx.farm && opts.demo && config.demo ? await seedDemo(ctx) : null;
        service = await startService(ctx, { role: opts.role });
        // Heard before the process says it is ready: a supervisor may stop it the moment it reads that.
        process.once('SIGTERM', () => stop('SIGTERM'));
        process.once('SIGINT', () => stop('SIGINT'));
        const mode = ctx.farm ? 'farm' : 'embedded';
        if (service.http) {
          const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
          const base = `http://${host}:${service.http.port}`;
          if (demo) io.out(`${demoBanner(demo, base)}\n\n`);
          io.out(
            `scriptorium: listening on ${base}/api/v1 (${mode} mode, role ${opts.role}); dashboard on ${base}/dashboard\n`,
          );
        } else {
          io.out(
            `scriptorium: worker ready, ${config.poolThreads} render threads (${mode} mode); probes on http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${service.probes?.port}\n`,
          );
        }
      } catch (err) {
        await ctx.close();
        throw err;
      }
    });

  program
    .command('migrate')
    .description('create or update the database schema; says what it applied')
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const ctx = await openConfigured();
      const result = { dialect: ctx.store.db.dialect, applied: [...ctx.store.migrated] };
      await ctx.close();
      const human = result.applied.length
        ? `applied ${result.applied.length} migration${result.applied.length === 1 ? '' : 's'} (${result.dialect}): ${result.applied.join(', ')}`
        : `schema up to date (${result.dialect}): nothing to apply`;
      io.out(`${opts.json ? JSON.stringify(result) : human}\n`);
    });

  const admin = program.command('admin').description('operate accounts, keys, templates, fonts and balances');

  const account = admin.command('account').description('accounts');
  account
    .command('create')
    .description('create an account on a plan')
    .requiredOption('--name <name>', 'account name')
    .addOption(new Option('--plan <plan>', 'plan').choices(PLAN_IDS).default('none'))
    .option('--period <days>', `plan period: ${PERIODS.join(' or ')} days`, periodDays)
    .addOption(jsonOption())
    .action((opts: { name: string; plan: string; period?: number; json?: boolean }) =>
      withContext(
        opts,
        (ctx, use) => use.admin.createAccount(ctx, opts),
        (a) => `created account ${a.id} (${a.name}, plan ${a.plan})`,
      ),
    );
  account
    .command('show')
    .description('an account: plan, balances of both modes, keys')
    .argument('<account>', 'account id', id('acc', 'an account'))
    .addOption(jsonOption())
    .action((accountId: string, opts: { json?: boolean }) =>
      withContext(opts, (ctx, use) => use.admin.showAccount(ctx, accountId), formatAccount),
    );

  const key = admin.command('key').description('API keys');
  key
    .command('create')
    .description('create an API key; it is shown this once')
    .addOption(accountOption())
    .addOption(modeOption())
    .option('--name <name>', 'a name to recognise the key by')
    .addOption(jsonOption())
    .action((opts: { account: string; mode: 'live' | 'test'; name?: string; json?: boolean }) =>
      withContext(
        opts,
        async (ctx, use) => {
          const { key, record } = await use.admin.createKey(ctx, opts);
          return { ...record, key };
        },
        (k) =>
          `${k.key}\nkey ${k.id} (${k.mode}) created: the key above is shown this once and cannot be recovered`,
      ),
    );
  key
    .command('revoke')
    .description('revoke an API key at once')
    .argument('<key>', 'key id (key_…)', id('key', 'a key'))
    .addOption(jsonOption())
    .action((keyId: string, opts: { json?: boolean }) =>
      withContext(
        opts,
        (ctx, use) => use.admin.revokeKey(ctx, keyId),
        (k) => `key ${k.id} revoked at ${k.revokedAt}`,
      ),
    );

  admin
    .command('template')
    .description('templates')
    .command('import')
    .description('import a template from its JSON file')
    .addOption(accountOption())
    .requiredOption('--file <file>', 'template JSON file', readableFile)
    .addOption(modeOption())
    .option('--url <url>', "import through a running server's admin API instead of its store")
    .option('--token <token>', 'the admin token for --url (default: ADMIN_TOKEN)')
    .addOption(jsonOption())
    .action(
      (opts: {
        account: string;
        file: string;
        mode: 'live' | 'test';
        url?: string;
        token?: string;
        json?: boolean;
      }) => {
        const human = (t: { id: string; kind: string; mode: string; name: string }) =>
          `imported template ${t.id} (${t.kind}, ${t.mode}): ${t.name}`;
        const json = readFileSync(opts.file, 'utf8');
        if (opts.url)
          return importOverHttp(
            {
              account: opts.account,
              file: opts.file,
              mode: opts.mode,
              url: opts.url,
              token: opts.token,
              text: json,
              asJson: opts.json,
            },
            human,
          );
        return withContext(
          opts,
          (ctx, use) => use.admin.importTemplate(ctx, { ...opts, json, source: opts.file }),
          human,
        );
      },
    );

  const font = admin.command('font').description('fonts');
  font
    .command('add')
    .description('add a shared or personal font from a TrueType or OpenType file')
    .requiredOption('--file <file>', 'TrueType or OpenType font file', readableFile)
    .requiredOption('--name <name>', 'font name')
    .option('--account <account>', 'make it a personal font of this account', id('acc', 'an account'))
    .option('--premium', 'only plans with premium fonts may use it', false)
    .option('--license <license>', 'licence of the font', 'proprietary')
    .addOption(jsonOption())
    .action(
      (opts: {
        file: string;
        name: string;
        account?: string;
        premium: boolean;
        license: string;
        json?: boolean;
      }) =>
        withContext(
          opts,
          (ctx, use) =>
            use.admin.addFont(ctx, {
              ...opts,
              bytes: new Uint8Array(readFileSync(opts.file)),
              source: opts.file,
            }),
          (f) =>
            `added font ${f.id} (${f.family}; ${f.scripts.join(', ')})${f.accountId ? ` for ${f.accountId}` : ''}`,
        ),
    );
  font
    .command('sheet')
    .description(
      'write a handwriting sample sheet to fill in by hand (a PDF to print) and its layout (JSON, beside it)',
    )
    .requiredOption('-o, --output <file>', 'the PDF to write; the layout goes to the same name with .json')
    .addOption(new Option('--paper <paper>', 'paper size').choices(['a4', 'letter']).default('a4'))
    .addOption(
      new Option(
        '--set <set>',
        'characters: basic (Latin letters, digits, punctuation, currency), latin1 (and accented letters) or ligatures (basic and th ff fi fl tt ll oo ee, written joined)',
      )
        .choices(['basic', 'latin1', 'ligatures'])
        .default('basic'),
    )
    .addOption(jsonOption())
    .action(async (opts: { output: string; paper: SheetPaper; set: SheetSet; json?: boolean }) => {
      const { sampleSheet } = await import('../app/sample-sheet.ts');
      const { layout, pdf } = await sampleSheet(opts.set, opts.paper, new Date());
      const json = opts.output.replace(/(\.pdf)?$/i, '.json');
      writeFileSync(opts.output, pdf);
      writeFileSync(json, `${JSON.stringify(layout, null, 2)}\n`);
      const result = {
        pdf: opts.output,
        layout: json,
        code: layout.code,
        pages: layout.pages,
        boxes: layout.boxes.length,
      };
      io.out(
        `${opts.json ? JSON.stringify(result) : `wrote ${result.pdf} (${layout.code}, ${result.pages} pages, ${result.boxes} boxes) and ${json}`}\n`,
      );
    });
  font
    .command('build')
    .description(
      "build a personal font of an account from a filled handwriting sample sheet's pages, scanned or photographed (PNG or JPEG)",
    )
    .requiredOption('--account <account>', 'the account the font is for', id('acc', 'an account'))
    .requiredOption('--name <name>', 'font name')
    .requiredOption(
      '--scan <file>',
      'a picture of a filled page (repeat for each page)',
      (file: string, files: string[] = []) => [...files, readableFile(file)],
    )
    .addOption(jsonOption())
    .action((opts: { account: string; name: string; scan: string[]; json?: boolean }) =>
      withContext(
        opts,
        async (ctx) => {
          // Built on a render thread of its own, under the service's time and memory limits.
          const { renderThread } = await import('../composition.ts');
          const { buildAccountFont } = await import('../app/hands.ts');
          const renderer = await renderThread(ctx.config);
          try {
            return await buildAccountFont(
              { ...ctx, renderer },
              {
                account: opts.account,
                name: opts.name,
                scans: opts.scan.map((file) => ({ bytes: new Uint8Array(readFileSync(file)) })),
              },
            );
          } finally {
            await renderer.close();
          }
        },
        ({ font, build }) =>
          [
            font.id,
            `built ${font.name} for ${font.accountId}: ${build.characters.length} characters, ${build.characters.reduce((n, c) => n + c.drawings.length, 0)} drawings from ${build.pages.length} ${build.pages.length === 1 ? 'page' : 'pages'}`,
            ...build.warnings.map((w) => `warning: ${w.message}`),
          ].join('\n'),
      ),
    );
  font
    .command('list')
    .description('the shared fonts, and the personal ones of an account')
    .option('--account <account>', 'include the personal fonts of this account', id('acc', 'an account'))
    .addOption(jsonOption())
    .action((opts: { account?: string; json?: boolean }) =>
      withContext(
        opts,
        async (ctx, use) => ({
          data: (await use.admin.listFonts(ctx, opts.account)).map(({ location: _l, sha256: _s, ...f }) => f),
        }),
        (r) =>
          r.data
            .map((f) => `${f.id}  ${f.premium ? 'premium' : '       '}  ${f.name} (${f.scripts.join(', ')})`)
            .join('\n'),
      ),
    );

  admin
    .command('topup')
    .description('add a pack of sheets (50 to 1,000) to a balance')
    .addOption(accountOption())
    .requiredOption('--sheets <n>', 'sheets, 50 to 1,000', wholeNumber)
    .addOption(modeOption())
    .addOption(jsonOption())
    .action((opts: { account: string; sheets: number; mode: 'live' | 'test'; json?: boolean }) =>
      withContext(
        opts,
        async (ctx, use) => ({ accountId: opts.account, balance: await use.admin.topUp(ctx, opts) }),
        (r) =>
          `${r.accountId} ${r.balance.mode}: ${r.balance.extraSheets} extra sheets, ${r.balance.availableSheets} available`,
      ),
    );

  admin
    .command('plan')
    .description('plans')
    .command('set')
    .description("change an account's plan; a new period starts now")
    .addOption(accountOption())
    .addOption(new Option('--plan <plan>', 'plan').choices(PLAN_IDS).makeOptionMandatory())
    .option('--period <days>', `plan period: ${PERIODS.join(' or ')} days`, periodDays)
    .addOption(jsonOption())
    .action((opts: { account: string; plan: string; period?: number; json?: boolean }) =>
      withContext(
        opts,
        (ctx, use) => use.admin.setPlan(ctx, opts),
        (a) =>
          `account ${a.id} is on plan ${a.plan}${a.periodDays ? ` (${a.periodDays}-day periods from ${a.planAnchor})` : ''}`,
      ),
    );

  listCommands(admin, account, withContext);
  webhookCommands(admin, withContext);
  integratorCommands(program);
  batchCommand(program);

  program
    .command('edge')
    .description('print the HAProxy configuration of the edge in front of the API processes')
    .option('--host <host>', 'address clients connect to', '0.0.0.0')
    .option('--port <port>', 'port clients connect to', within(1, 65_535), 8080)
    .option('--api <host:port...>', 'an API process (repeat for each)', addressList, [])
    .option('--max-conn <n>', 'connections held open at once', within(1, 1_000_000), 4096)
    .option('--check-ms <ms>', 'how often each API process is asked for /ready', within(100, 60_000), 1000)
    .action(async (opts: { host: string; port: number; api: string[]; maxConn: number; checkMs: number }) => {
      if (opts.api.length === 0)
        throw new Refusal('invalid', 'the edge needs at least one API process: --api host:port');
      const { configFromEnv } = await import('../config/index.ts');
      io.out(
        edgeFor(configFromEnv(), {
          host: opts.host,
          port: opts.port,
          apis: opts.api,
          maxConnections: opts.maxConn,
          checkMs: opts.checkMs,
        }),
      );
    });

  program
    .command('tui')
    .description('operator console')
    .option('--url <url>', 'server', 'http://127.0.0.1:8080')
    .option('--token <token>', 'admin token (default: ADMIN_TOKEN)')
    .action(async (opts: { url: string; token?: string }) => {
      const token = adminToken(opts, 'the console');
      if (!process.stdin.isTTY)
        throw new Refusal('invalid', 'the console needs a terminal (stdin is not a TTY)');
      (await import('../config/index.ts')).forgetCiForConsole();
      const { runTui } = await import('../../tui/main.tsx');
      await runTui({ url: opts.url, token });
    });

  return program;
}
