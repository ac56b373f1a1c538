// `scriptorium admin webhook …`: an account's endpoints, the delivery log with every try, and a
// redelivery. The same use-cases as the admin API's webhook routes.
import { type Command, Option } from 'commander';
import { id, limitOption } from './args.ts';
import type { WithContext } from './context.ts';
import { KEY_MODES } from '../domain/api-keys.ts';
import { WEBHOOK_EVENTS } from '../domain/webhook-events.ts';
import type { DeliveryStatus, WebhookDelivery } from '../store/index.ts';

/** The webhook use-cases, loaded by these commands alone (with them the HTTP client that delivers). */
const useCases = () => import('../app/webhooks.ts');

const deliveryLine = (x: WebhookDelivery) =>
  `${x.id}  ${x.status.padEnd(9)}  ${x.eventType.padEnd(20)}  ${x.jobId ?? '(test event)'}  tries ${x.attempts}${x.lastStatus !== null ? `  last HTTP ${x.lastStatus}` : ''}${x.lastError && x.status !== 'delivered' ? `  ${x.lastError}` : ''}${x.status === 'pending' && x.nextAttemptAt ? `  next ${x.nextAttemptAt}` : ''}`;

export function webhookCommands(admin: Command, withContext: WithContext): void {
  const hook = admin.command('webhook').description('webhook endpoints and deliveries');
  const json = () => new Option('--json', 'print one JSON object');
  hook
    .command('add')
    .description('register an endpoint; its signing secret is shown this once')
    .addOption(
      new Option('--account <account>', 'account id')
        .argParser(id('acc', 'an account'))
        .makeOptionMandatory(),
    )
    .requiredOption('--url <url>', 'where to POST the events (http or https)')
    .option('--events <list>', `comma-separated, of ${WEBHOOK_EVENTS.join(', ')} (default: all)`)
    .addOption(
      new Option('--mode <mode>', 'the key mode whose jobs it hears of').choices(KEY_MODES).default('live'),
    )
    .option('--description <text>', 'a note to recognise it by')
    .addOption(json())
    .action(
      (opts: {
        account: string;
        url: string;
        events?: string;
        mode: 'live' | 'test';
        description?: string;
        json?: boolean;
      }) =>
        withContext(
          opts,
          async (ctx) => (await useCases()).addWebhook(ctx, opts),
          (e) =>
            `${e.secret}\nendpoint ${e.id} (${e.mode}) → ${e.url} for ${e.events.join(', ')}: the signing secret above is shown this once`,
        ),
    );
  hook
    .command('list')
    .description("an account's endpoints (their secrets by prefix only)")
    .addOption(
      new Option('--account <account>', 'account id')
        .argParser(id('acc', 'an account'))
        .makeOptionMandatory(),
    )
    .addOption(json())
    .action((opts: { account: string; json?: boolean }) =>
      withContext(
        opts,
        async (ctx) => {
          const { endpointView } = await useCases();
          return { data: (await ctx.store.webhooks.listEndpoints(opts.account)).map(endpointView) };
        },
        (r) =>
          r.data.map((e) => `${e.id}  ${e.mode}  ${e.url}  ${e.events.join(',')}`).join('\n') ||
          '(no endpoints)',
      ),
    );
  hook
    .command('remove')
    .description('remove an endpoint: it hears of no more jobs')
    .argument('<endpoint>', 'endpoint id (hook_…)', id('hook', 'an endpoint'))
    .addOption(json())
    .action((endpoint: string, opts: { json?: boolean }) =>
      withContext(
        opts,
        async (ctx) => {
          const { endpointView, removeWebhook } = await useCases();
          return endpointView(await removeWebhook(ctx, endpoint));
        },
        (e) => `endpoint ${e.id} removed at ${e.removedAt}`,
      ),
    );
  hook
    .command('deliveries')
    .description('the delivery log, newest first')
    .option('--account <account>', 'of this account', id('acc', 'an account'))
    .addOption(new Option('--status <status>', 'only these').choices(['pending', 'delivered', 'failed']))
    .option('--job <job>', 'of this job', id('gen', 'a generation'))
    .addOption(limitOption())
    .addOption(json())
    .action(
      (opts: { account?: string; status?: DeliveryStatus; job?: string; limit: number; json?: boolean }) =>
        withContext(
          opts,
          async (ctx) =>
            (await useCases()).listDeliveries(ctx, {
              limit: opts.limit,
              ...(opts.account ? { accountId: opts.account } : {}),
              ...(opts.status ? { status: opts.status } : {}),
              ...(opts.job ? { jobId: opts.job } : {}),
            }),
          (page) => page.data.map(deliveryLine).join('\n') || '(no deliveries)',
        ),
    );
  hook
    .command('show')
    .description('one delivery, its body and every try')
    .argument('<delivery>', 'delivery id (dlv_…)', id('dlv', 'a delivery'))
    .addOption(json())
    .action((delivery: string, opts: { json?: boolean }) =>
      withContext(
        opts,
        async (ctx) => (await useCases()).showDelivery(ctx, delivery),
        (r) =>
          [
            deliveryLine(r.delivery),
            ...r.attempts.map(
              (a) =>
                `  try ${a.attempt} at ${a.at}: ${a.statusCode !== null ? `HTTP ${a.statusCode}` : 'no answer'} in ${a.durationMs} ms${a.error ? ` (${a.error})` : ''}`,
            ),
          ].join('\n'),
      ),
    );
  hook
    .command('redeliver')
    .description('send a delivery again now, with a fresh retry schedule')
    .argument('<delivery>', 'delivery id (dlv_…)', id('dlv', 'a delivery'))
    .addOption(json())
    .action((delivery: string, opts: { json?: boolean }) =>
      withContext(
        opts,
        async (ctx) => (await useCases()).redeliver(ctx, delivery),
        (x) => `delivery ${x.id} is due again now (event ${x.eventId})`,
      ),
    );
}
