// `scriptorium admin account list`, `admin job list` and `admin job cancel`: what the admin API
// offers the console, from the command line, over the configured store.
import { type Command, Option } from 'commander';
import { KEY_MODES } from '../domain/api-keys.ts';
import type { Job, JobKind, JobStatus } from '../domain/generation.ts';
import { id, limitOption } from './args.ts';
import type { WithContext } from './context.ts';

const json = () => new Option('--json', 'print one JSON object');
const more = (page: { hasMore: boolean; nextCursor: string | null }) =>
  page.hasMore ? `\n(more: --cursor ${page.nextCursor})` : '';

const jobLine = (j: Job) =>
  [
    j.id,
    j.status.padEnd(10),
    j.kind.padEnd(7),
    j.accountId,
    j.mode,
    j.createdAt,
    j.pages !== null ? `${j.pages} p` : '',
    j.error ? `${j.error.code}: ${j.error.message}` : '',
  ]
    .filter(Boolean)
    .join('  ');

export function listCommands(admin: Command, account: Command, withContext: WithContext): void {
  account
    .command('list')
    .description('accounts, newest first, with plan and sheets available per mode')
    .addOption(limitOption())
    .option('--cursor <cursor>', 'nextCursor of the previous page')
    .addOption(json())
    .action((opts: { limit: number; cursor?: string; json?: boolean }) =>
      withContext(
        opts,
        (ctx, use) =>
          use.admin.listAccounts(ctx, { limit: opts.limit, ...(opts.cursor ? { cursor: opts.cursor } : {}) }),
        (page) =>
          (page.data
            .map(
              (a) =>
                `${a.account.id}  ${a.account.plan.padEnd(7)}  live ${a.balances.live.availableSheets} sheets  test ${a.balances.test.availableSheets} sheets  ${a.account.name}`,
            )
            .join('\n') || '(no accounts)') + more(page),
      ),
    );

  const job = admin.command('job').description('jobs of every account');
  job
    .command('list')
    .description('jobs, newest first, narrowed by status, account, mode or kind')
    .addOption(
      new Option('--status <status>', 'only these').choices([
        'queued',
        'processing',
        'completed',
        'failed',
        'cancelled',
      ]),
    )
    .option('--account <account>', 'of this account', id('acc', 'an account'))
    .addOption(new Option('--mode <mode>', 'key mode').choices(KEY_MODES))
    .addOption(new Option('--kind <kind>', 'pdf or preview').choices(['pdf', 'preview']))
    .addOption(limitOption())
    .option('--cursor <cursor>', 'nextCursor of the previous page')
    .addOption(json())
    .action(
      (opts: {
        status?: JobStatus;
        account?: string;
        mode?: 'live' | 'test';
        kind?: JobKind;
        limit: number;
        cursor?: string;
        json?: boolean;
      }) =>
        withContext(
          opts,
          (ctx, use) =>
            use.admin
              .listJobs(ctx, {
                limit: opts.limit,
                cursor: opts.cursor,
                status: opts.status,
                accountId: opts.account,
                mode: opts.mode,
                kind: opts.kind,
              })
              // A command holds no queue: the waits are the servers' to say (the console shows them).
              .then(({ waits: _, ...page }) => page),
          (page) => (page.data.map(jobLine).join('\n') || '(no jobs)') + more(page),
        ),
    );
  job
    .command('cancel')
    .description('cancel a queued or processing job of any account, uncharged')
    .argument('<job>', 'job id (gen_…)', id('gen', 'a generation'))
    .addOption(json())
    .action((jobId: string, opts: { json?: boolean }) =>
      withContext(
        opts,
        // A render running in a server stops there when it sees the job cancelled: its result is
        // not kept and nothing is charged.
        (ctx, use) => use.admin.cancelAnyJob(ctx, jobId),
        (j) => `job ${j.id} is ${j.status}`,
      ),
    );
}
