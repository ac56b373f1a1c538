// `scriptorium batch` (an integrator command, built on the client): submits a batch of CSV or
// JSON rows (with an envelope for each, in an envelope template), waits for every row with a
// progress bar on a terminal, and downloads the ZIP of the completed rows' PDFs, or with --merge
// one merged PDF of the letters (and one of the envelopes). The exit code says how it ended
// (docs/client.md).
import type { Command } from 'commander';
import type { Batch, BatchRequest } from '../client/index.ts';
import {
  type Common,
  clientOf,
  common,
  EXIT,
  finish,
  kb,
  metadataPair,
  notice,
  readInput,
  readJson,
  terminalLine,
  usage,
  usageExits,
} from './integrator.ts';

const BAR = 24;

/** The bar of a batch: done rows filled, failed ones counted beside it. */
export function batchBar(b: Batch, elapsedSeconds: number): string {
  const ended = b.rows.completed + b.rows.failed + b.rows.cancelled;
  const filled = b.rows.total ? Math.round((ended / b.rows.total) * BAR) : 0;
  const failed = b.rows.failed ? `, ${b.rows.failed} failed` : '';
  return `${b.id}  [${'#'.repeat(filled)}${'-'.repeat(BAR - filled)}]  ${ended}/${b.rows.total} rows${failed}  ${elapsedSeconds} s`;
}

export function batchCommand(program: Command): void {
  usageExits(
    common(
      program
        .command('batch')
        .description(
          'make one document per row of a CSV or JSON file: submit, wait, download the ZIP (an integrator command)',
        ),
    )
      .option('--csv <file>', 'CSV rows with a header (- for stdin): text, data paths, seed, metadata.KEY')
      .option('--rows <file>', 'or a JSON array of rows, each what one generation takes')
      .requiredOption(
        '-o, --output <file>',
        'where to write the ZIP of the PDFs (with --merge, the merged PDF)',
      )
      .option('--merge', 'download one PDF of every completed letter, in row order, instead of the ZIP')
      .option(
        '--envelope-template <id>',
        'an envelope for every row in this template (CSV envelope.FIELD columns, JSON rows envelope)',
      )
      .option('--name <key>', "name each PDF in the ZIP after the row's index and this metadata value")
      .option('--metadata <key=value>', 'a label for the batch (repeatable)', metadataPair)
      .option('--row-events', "send each row's end to the account's webhooks too")
      .option('--idempotency-key <key>', 'makes a repeated command safe (default: a fresh one per run)'),
  ).action(
    async (
      opts: Common & {
        csv?: string;
        rows?: string;
        output: string;
        merge?: boolean;
        envelopeTemplate?: string;
        name?: string;
        metadata?: Record<string, string>;
        rowEvents?: boolean;
        idempotencyKey?: string;
      },
    ) => {
      const line = terminalLine();
      const { write: show, clear, seconds: elapsed } = line;
      try {
        if ((opts.csv === undefined) === (opts.rows === undefined))
          throw usage('give exactly one of --csv, --rows');
        const body: BatchRequest = { templateId: opts.template };
        if (opts.csv !== undefined) body.csv = readInput(opts.csv, 'csv');
        else body.rows = readJson(opts.rows!, 'rows') as BatchRequest['rows'];
        if (opts.metadata) body.metadata = opts.metadata;
        if (opts.merge) body.merge = true;
        if (opts.envelopeTemplate !== undefined) {
          if (!/^tpl_\w{22}$/.test(opts.envelopeTemplate))
            throw usage(
              `--envelope-template must be a template id (tpl_…), got ${JSON.stringify(opts.envelopeTemplate)}`,
            );
          body.envelope = { templateId: opts.envelopeTemplate };
        }
        if (opts.rowEvents) body.rowEvents = true;
        const client = clientOf(opts);
        const created = await client.batches.create(
          body,
          opts.idempotencyKey ? { idempotencyKey: opts.idempotencyKey } : {},
        );
        show(batchBar(created, elapsed()));
        const done = await client.batches.wait(created.id, {
          timeoutMs: opts.timeout * 1000,
          onProgress: (b) => show(batchBar(b, elapsed())),
        });
        show(batchBar(done, elapsed()));
        clear();
        if (done.rows.completed === 0) {
          process.exitCode = EXIT.failed;
          finish(opts.json, {
            data: { batch: done },
            human: `${done.id} ${done.status} with no completed row (${done.rows.failed} failed, ${done.rows.cancelled} cancelled): no ${opts.merge ? 'PDF' : 'ZIP'}`,
          });
          return;
        }
        const downloading = (bytes: number, total: number) =>
          show(`${done.id}  downloading  ${kb(bytes)}${Number.isFinite(total) ? ` of ${kb(total)}` : ''}`);
        // The envelopes' merged PDF beside the letters': letters.pdf and letters-envelopes.pdf.
        const envelopes =
          opts.merge && done.envelopes ? opts.output.replace(/(\.pdf)?$/i, '-envelopes.pdf') : null;
        const saved = opts.merge
          ? await client.batches.merged(done.id, { to: opts.output, onProgress: downloading })
          : await client.batches.download(done.id, {
              to: opts.output,
              ...(opts.name ? { name: opts.name } : {}),
              onProgress: downloading,
            });
        const savedEnvelopes = envelopes
          ? await client.batches.merged(done.id, { to: envelopes, part: 'envelope', onProgress: downloading })
          : null;
        clear();
        const short = done.rows.completed < done.rows.total;
        if (short) {
          process.exitCode = EXIT.failed;
          notice(
            `${done.rows.total - done.rows.completed} of ${done.rows.total} rows did not complete (${done.rows.failed} failed, ${done.rows.cancelled} cancelled): see GET /api/v1/batches/${done.id}/rows?status=failed`,
          );
        }
        const what = opts.merge ? `${done.rows.completed} letters in one PDF` : `${done.rows.completed} PDFs`;
        finish(opts.json, {
          data: {
            batch: done,
            output: opts.output,
            bytes: saved.bytes,
            ...(envelopes && savedEnvelopes
              ? { envelopes: { output: envelopes, bytes: savedEnvelopes.bytes } }
              : {}),
          },
          human:
            `${opts.output}: ${what}, ${done.pages} pages, ${done.creditsSpent} sheets, ${kb(saved.bytes)} (${done.id})` +
            (envelopes && savedEnvelopes
              ? `\n${envelopes}: the envelopes in one PDF, ${kb(savedEnvelopes.bytes)}`
              : ''),
        });
      } catch (err) {
        clear();
        finish(opts.json, err as Error);
      }
    },
  );
}
