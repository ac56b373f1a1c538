// The `scriptorium` command line (DESIGN §8, a fixed contract). Arguments are checked before
// the store is opened, so a malformed command writes nothing; every refusal is one line.
import { readFileSync, statSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import {
  addFont,
  createAccount,
  createKey,
  importTemplate,
  listFonts,
  revokeKey,
  setPlan,
  showAccount,
  topUp,
} from '../app/admin.ts';
import { demoBanner, seedDemo } from '../app/demo.ts';
import { type Context, configFromEnv, openContext } from '../composition.ts';
import { ConfigError, envValue, forgetCiForConsole } from '../config/index.ts';
import { KEY_MODES } from '../domain/api-keys.ts';
import { Refusal } from '../domain/errors.ts';
import { type IdPrefix, isId } from '../domain/ids.ts';
import { PERIODS, PLAN_IDS } from '../domain/plans.ts';
import { type Role, type Service, startService } from '../service.ts';
import { formatAccount } from './format.ts';

function id(prefix: IdPrefix, what: string) {
  return (value: string) => {
    if (!isId(prefix, value))
      throw new InvalidArgumentError(
        `must be ${what} id (${prefix}_ and 22 letters or digits), got "${value}"`,
      );
    return value;
  };
}

function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`must be a whole number, got "${value}"`);
  return Number(value);
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

/** Opens the configured store, runs `work`, prints its result, closes. */
async function withContext<T>(
  opts: { json?: boolean },
  work: (ctx: Context) => Promise<T>,
  human: (result: T) => string,
): Promise<void> {
  const ctx = await openContext(configFromEnv());
  try {
    const result = await work(ctx);
    process.stdout.write(`${opts.json ? JSON.stringify(result) : human(result)}\n`);
  } finally {
    await ctx.close();
  }
}

export function buildProgram(): Command {
  const program = new Command('scriptorium')
    .description('Handwriting rendering service and render farm')
    .showSuggestionAfterError(false)
    .configureOutput({
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
      const config = configFromEnv(opts.port !== undefined ? { port: opts.port } : {});
      const ctx = await openContext(config);
      let service: Service;
      try {
        const demo = !ctx.farm && opts.demo && config.demo ? await seedDemo(ctx) : null;
        service = await startService(ctx, { role: opts.role });
        const mode = ctx.farm ? 'farm' : 'embedded';
        if (service.http) {
          const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
          const base = `http://${host}:${service.http.port}`;
          if (demo) process.stdout.write(`${demoBanner(demo, base)}\n\n`);
          process.stdout.write(
            `scriptorium: listening on ${base}/api/v1 (${mode} mode, role ${opts.role})\n`,
          );
        } else {
          process.stdout.write(
            `scriptorium: worker ready, ${config.poolThreads} render threads (${mode} mode)\n`,
          );
        }
      } catch (err) {
        await ctx.close();
        throw err;
      }
      const stop = (signal: string) => {
        process.stderr.write(`scriptorium: ${signal}: finishing in-flight requests, then stopping\n`);
        service.stop().then(
          () => process.exit(0),
          (err: unknown) => {
            process.stderr.write(`scriptorium: stopped with an error: ${(err as Error).message}\n`);
            process.exit(1);
          },
        );
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
    });

  program
    .command('migrate')
    .description('create or update the database schema')
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const ctx = await openContext(configFromEnv());
      const result = { migrated: true, dialect: ctx.store.db.dialect };
      await ctx.close();
      process.stdout.write(
        `${opts.json ? JSON.stringify(result) : `schema up to date (${result.dialect})`}\n`,
      );
    });

  const admin = program.command('admin').description('operate accounts, keys, templates, fonts and balances');

  const account = admin.command('account').description('accounts');
  account
    .command('create')
    .requiredOption('--name <name>', 'account name')
    .addOption(new Option('--plan <plan>', 'plan').choices(PLAN_IDS).default('none'))
    .option('--period <days>', `plan period: ${PERIODS.join(' or ')} days`, periodDays)
    .addOption(jsonOption())
    .action((opts: { name: string; plan: string; period?: number; json?: boolean }) =>
      withContext(
        opts,
        (ctx) => createAccount(ctx, opts),
        (a) => `created account ${a.id} (${a.name}, plan ${a.plan})`,
      ),
    );
  account
    .command('show')
    .argument('<account>', 'account id', id('acc', 'an account'))
    .addOption(jsonOption())
    .action((accountId: string, opts: { json?: boolean }) =>
      withContext(opts, (ctx) => showAccount(ctx, accountId), formatAccount),
    );

  const key = admin.command('key').description('API keys');
  key
    .command('create')
    .addOption(accountOption())
    .addOption(modeOption())
    .option('--name <name>', 'a name to recognise the key by')
    .addOption(jsonOption())
    .action((opts: { account: string; mode: 'live' | 'test'; name?: string; json?: boolean }) =>
      withContext(
        opts,
        async (ctx) => {
          const { key, record } = await createKey(ctx, opts);
          return { ...record, key };
        },
        (k) =>
          `${k.key}\nkey ${k.id} (${k.mode}) created: the key above is shown this once and cannot be recovered`,
      ),
    );
  key
    .command('revoke')
    .argument('<key>', 'key id (key_…)', id('key', 'a key'))
    .addOption(jsonOption())
    .action((keyId: string, opts: { json?: boolean }) =>
      withContext(
        opts,
        (ctx) => revokeKey(ctx, keyId),
        (k) => `key ${k.id} revoked at ${k.revokedAt}`,
      ),
    );

  admin
    .command('template')
    .description('templates')
    .command('import')
    .addOption(accountOption())
    .requiredOption('--file <file>', 'template JSON file', readableFile)
    .addOption(modeOption())
    .addOption(jsonOption())
    .action((opts: { account: string; file: string; mode: 'live' | 'test'; json?: boolean }) =>
      withContext(
        opts,
        (ctx) => importTemplate(ctx, { ...opts, json: readFileSync(opts.file, 'utf8'), source: opts.file }),
        (t) => `imported template ${t.id} (${t.kind}, ${t.mode}): ${t.name}`,
      ),
    );

  const font = admin.command('font').description('fonts');
  font
    .command('add')
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
          (ctx) =>
            addFont(ctx, { ...opts, bytes: new Uint8Array(readFileSync(opts.file)), source: opts.file }),
          (f) =>
            `added font ${f.id} (${f.family}; ${f.scripts.join(', ')})${f.accountId ? ` for ${f.accountId}` : ''}`,
        ),
    );
  font
    .command('list')
    .option('--account <account>', 'include the personal fonts of this account', id('acc', 'an account'))
    .addOption(jsonOption())
    .action((opts: { account?: string; json?: boolean }) =>
      withContext(
        opts,
        async (ctx) => ({
          data: (await listFonts(ctx, opts.account)).map(({ location: _l, sha256: _s, ...f }) => f),
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
        async (ctx) => ({ accountId: opts.account, balance: await topUp(ctx, opts) }),
        (r) =>
          `${r.accountId} ${r.balance.mode}: ${r.balance.extraSheets} extra sheets, ${r.balance.availableSheets} available`,
      ),
    );

  admin
    .command('plan')
    .description('plans')
    .command('set')
    .addOption(accountOption())
    .addOption(new Option('--plan <plan>', 'plan').choices(PLAN_IDS).makeOptionMandatory())
    .option('--period <days>', `plan period: ${PERIODS.join(' or ')} days`, periodDays)
    .addOption(jsonOption())
    .action((opts: { account: string; plan: string; period?: number; json?: boolean }) =>
      withContext(
        opts,
        (ctx) => setPlan(ctx, opts),
        (a) =>
          `account ${a.id} is on plan ${a.plan}${a.periodDays ? ` (${a.periodDays}-day periods from ${a.planAnchor})` : ''}`,
      ),
    );

  program
    .command('tui')
    .description('operator console')
    .option('--url <url>', 'server', 'http://127.0.0.1:8080')
    .option('--token <token>', 'admin token (default: ADMIN_TOKEN)')
    .action(async (opts: { url: string; token?: string }) => {
      const token = opts.token ?? envValue('ADMIN_TOKEN');
      if (!token)
        throw new Refusal('invalid', 'the console needs the admin token: --token TOKEN or ADMIN_TOKEN');
      if (!/^https?:\/\/[^/]+/.test(opts.url))
        throw new Refusal(
          'invalid',
          `--url must be an http:// or https:// address, got ${JSON.stringify(opts.url)}`,
        );
      if (!process.stdin.isTTY)
        throw new Refusal('invalid', 'the console needs a terminal (stdin is not a TTY)');
      forgetCiForConsole();
      const { runTui } = await import('../../tui/main.tsx');
      await runTui({ url: opts.url, token });
    });

  return program;
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (err) {
  if (err instanceof Refusal || err instanceof ConfigError) {
    process.stderr.write(`scriptorium: ${err.message}\n`);
  } else {
    process.stderr.write(`scriptorium: ${(err as Error).message ?? String(err)}\n`);
    if (envValue('DEBUG')) console.error(err);
  }
  process.exitCode = 1;
}
