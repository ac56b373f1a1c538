// The integrator's commands, built on the client (src/client): `generate` submits a PDF job,
// waits for it and downloads it; `render` draws one image. On a terminal a progress line shows
// where the job stands; `--json` prints one object; the exit code says how it ended.
import { readFileSync, writeFileSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { type Command, InvalidArgumentError, Option } from 'commander';
import {
  type Generation,
  type GenerationRequest,
  type Progress,
  Scriptorium,
  ScriptoriumError,
} from '../client/index.ts';
import { envValue } from '../config/env.ts';
import { Refusal } from '../domain/errors.ts';
import { badUtf8, whereNotUtf8 } from '../domain/utf8.ts';
import { io } from './io.ts';

/** How a command ended (documented in docs/client.md). */
export const EXIT = {
  ok: 0,
  /** Arguments, a file or the key are wrong: nothing was sent. */
  usage: 2,
  /** The API refused the request (4xx): nothing was made. */
  refused: 3,
  /** The job ended failed (GENERATION_FAILED, INSUFFICIENT_BALANCE) or cancelled. */
  failed: 4,
  /** The service could not be reached, answered 5xx, or the wait ran out. */
  unavailable: 5,
} as const;

/** A usage error (arguments, a file, the key): said as the domain says a refusal of input. */
export const usage = (message: string) => new Refusal('invalid', message);

export interface Common {
  url?: string;
  key?: string;
  template: string;
  json?: boolean;
  timeout: number;
}

export function readInput(file: string, what: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file === '-' ? 0 : file);
  } catch (err) {
    throw usage(
      `--${what}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  // Decoding would turn the bytes of another encoding into U+FFFD, which no hand can write.
  const bad = badUtf8(bytes);
  if (bad)
    throw usage(
      `--${what}: ${file === '-' ? 'standard input' : file} is not UTF-8: ${whereNotUtf8(bad)} does not start a UTF-8 character; save it as UTF-8`,
    );
  return bytes.toString('utf8');
}

export function readJson(file: string, what: string): unknown {
  const text = readInput(file, what);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw usage(`--${what}: ${file} is not JSON: ${(err as Error).message}`);
  }
}

export function metadataPair(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf('=');
  if (at < 1) throw new InvalidArgumentError(`must be key=value, got "${value}"`);
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
}

export function seconds(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError(`must be a whole number of seconds, got "${value}"`);
  return Number(value);
}

export function clientOf(opts: Common): Scriptorium {
  const apiKey = opts.key ?? envValue('SCRIPTORIUM_API_KEY');
  if (!apiKey) throw usage('an API key is needed: --key KEY or SCRIPTORIUM_API_KEY');
  const baseUrl = opts.url ?? envValue('SCRIPTORIUM_URL') ?? 'http://127.0.0.1:8080';
  if (!/^https?:\/\/[^/]+/.test(baseUrl))
    throw usage(`--url must be an http:// or https:// address, got ${JSON.stringify(baseUrl)}`);
  return new Scriptorium({
    apiKey,
    baseUrl,
    timeoutMs: Math.min(opts.timeout * 1000, 60_000),
    onRetry: (e) => {
      // A wait after a refusal is said, on a terminal or not: the command is not stuck.
      if (e.status !== 429 && e.code !== 'SERVICE_UNAVAILABLE') return;
      const why = e.status === 429 ? `429${e.reason ? ` (${e.reason})` : ''}` : '503';
      notice(
        `${why}: ${e.message}; waiting ${Math.ceil(e.waitMs / 1000)} s, then try ${e.attempt + 1} of ${e.tries}`,
      );
    },
  });
}

/** A line on standard error that stays (the progress line, if any, is rewritten below it). */
export function notice(text: string): void {
  io.err(`${process.stderr.isTTY ? '\r\x1b[2K' : ''}scriptorium: ${text}\n`);
}

export const kb = (n: number) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(n < 10_240 ? 1 : 0)} KB`);

/** One line on standard error, rewritten in place; nothing is written when it is not a terminal. */
export function terminalLine() {
  const tty = process.stderr.isTTY === true;
  const started = Date.now();
  let shown = false;
  return {
    tty,
    write(text: string) {
      if (!tty) return;
      io.err(`\r\x1b[2K${text}`);
      shown = true;
    },
    /** Seconds since the line was made. */
    seconds: () => Math.round((Date.now() - started) / 1000),
    clear() {
      if (shown) io.err('\r\x1b[2K');
      shown = false;
    },
  };
}

/** A job's progress on the terminal line. */
function progressLine(): { show: (p: Progress) => void; clear: () => void } {
  const line = terminalLine();
  const { tty, write } = line;
  const elapsed = () => `${line.seconds()} s`;
  return {
    show(p) {
      if (p.phase === 'queued' || p.phase === 'processing') write(`${p.job.id}  ${p.phase}  ${elapsed()}`);
      else if (p.phase === 'waiting') {
        const text = `${p.job?.id ?? ''}  waiting ${Math.ceil(p.waitMs / 1000)} s (${p.reason.replace('-', ' ')})  ${elapsed()}`;
        if (tty) write(text);
        else notice(text.trim().replace(/\s{2,}/g, ' '));
      } else if (p.phase === 'downloading')
        write(
          `${p.job.id}  downloading  ${kb(p.bytes)}${Number.isFinite(p.total) ? ` of ${kb(p.total)}` : ''}`,
        );
    },
    clear: line.clear,
  };
}

/** Prints how it ended and sets the exit code. */
export function finish(
  json: boolean | undefined,
  result: { human: string; data: unknown } | ScriptoriumError | Error,
): void {
  if (!(result instanceof Error)) {
    io.out(`${json ? JSON.stringify(result.data) : result.human}\n`);
    return;
  }
  const err = result;
  let code: number = EXIT.unavailable;
  if (err instanceof Refusal) code = EXIT.usage;
  else if (err instanceof ScriptoriumError) {
    if (err.job && ['GENERATION_FAILED', 'INSUFFICIENT_BALANCE', 'GENERATION_CANCELLED'].includes(err.code))
      code = EXIT.failed;
    else if (err.status >= 400 && err.status < 500) code = EXIT.refused;
  } else code = 1;
  process.exitCode = code;
  if (json) {
    const e = err as Partial<ScriptoriumError>;
    const error = {
      code: err instanceof Refusal ? 'USAGE' : (e.code ?? 'INTERNAL'),
      message: err.message,
      ...(e.status ? { status: e.status } : {}),
      ...(e.field ? { field: e.field } : {}),
      ...(e.requestId ? { requestId: e.requestId } : {}),
    };
    io.out(`${JSON.stringify({ error, ...(e.job ? { job: e.job } : {}) })}\n`);
    return;
  }
  const where =
    err instanceof ScriptoriumError
      ? [err.code, err.field && `field ${err.field}`, err.requestId].filter(Boolean).join(', ')
      : '';
  io.err(`scriptorium: ${err.message}${where ? ` (${where})` : ''}\n`);
}

export const common = (cmd: Command) =>
  cmd
    .option('--url <url>', 'the server (default: SCRIPTORIUM_URL or http://127.0.0.1:8080)')
    .option('--key <key>', 'the API key (default: SCRIPTORIUM_API_KEY)')
    .requiredOption('--template <id>', 'template id (tpl_…)')
    .option('--json', 'print one JSON object')
    .option('--timeout <seconds>', 'give up waiting after this long', seconds, 600);

/** A usage error exits 2 (commander's own exit is 1). */
export function usageExits(cmd: Command): Command {
  return cmd.exitOverride((err) => {
    if (err.exitCode !== 0) err.exitCode = EXIT.usage;
    throw err;
  });
}

export function integratorCommands(program: Command): void {
  usageExits(
    common(
      program.command('generate').description('make a PDF: submit, wait, download (an integrator command)'),
    )
      .option('--text-file <file>', 'the text of a simple template (- for stdin)')
      .option('--data-file <file>', 'JSON data of a structured template')
      .option('--content-file <file>', 'JSON content blocks of a Document v1 template')
      .requiredOption('-o, --output <file>', 'where to write the PDF')
      .option('--metadata <key=value>', 'a label for the job (repeatable)', metadataPair)
      .option('--idempotency-key <key>', 'makes a repeated command safe (default: a fresh one per run)'),
  ).action(
    async (
      opts: Common & {
        textFile?: string;
        dataFile?: string;
        contentFile?: string;
        output: string;
        metadata?: Record<string, string>;
        idempotencyKey?: string;
      },
    ) => {
      const line = progressLine();
      try {
        const given = [opts.textFile, opts.dataFile, opts.contentFile].filter((f) => f !== undefined);
        if (given.length !== 1) throw usage('give exactly one of --text-file, --data-file, --content-file');
        const body: GenerationRequest = { templateId: opts.template };
        if (opts.textFile !== undefined) body.text = readInput(opts.textFile, 'text-file');
        else if (opts.dataFile !== undefined)
          body.data = readJson(opts.dataFile, 'data-file') as GenerationRequest['data'];
        else body.content = readJson(opts.contentFile!, 'content-file') as GenerationRequest['content'];
        if (opts.metadata) body.metadata = opts.metadata;
        const client = clientOf(opts);
        const { job, bytes } = await client.generate(body, {
          to: opts.output,
          timeoutMs: opts.timeout * 1000,
          onProgress: line.show,
          ...(opts.idempotencyKey ? { idempotencyKey: opts.idempotencyKey } : {}),
        });
        line.clear();
        finish(opts.json, {
          data: { job, output: opts.output, bytes },
          human: `${opts.output}: ${pages(job)}, ${kb(bytes)} (${job.id})`,
        });
      } catch (err) {
        line.clear();
        finish(opts.json, err as Error);
      }
    },
  );

  usageExits(
    common(
      program
        .command('render')
        .description(
          "draw one SVG or PNG image, or a pen plotter's strokes, at once (an integrator command)",
        ),
    )
      .option('--text <text>', 'the text')
      .option('--text-file <file>', 'or a file of it (- for stdin)')
      .addOption(
        new Option(
          '--format <format>',
          "svg, png or strokes (a pen plotter's SVG of centrelines; default: svg or png from the output name)",
        ).choices(['svg', 'png', 'strokes']),
      )
      .option('--font-size <pt>', 'text size, 6-96 pt', Number)
      .requiredOption('-o, --output <file>', 'where to write the image'),
  ).action(
    async (
      opts: Common & {
        text?: string;
        textFile?: string;
        format?: 'svg' | 'png' | 'strokes';
        fontSize?: number;
        output: string;
      },
    ) => {
      try {
        if ((opts.text === undefined) === (opts.textFile === undefined))
          throw usage('give exactly one of --text, --text-file');
        const text = opts.text ?? readInput(opts.textFile!, 'text-file');
        const format =
          opts.format ?? (/\.svg$/i.test(opts.output) ? 'svg' : /\.png$/i.test(opts.output) ? 'png' : null);
        if (!format)
          throw usage(`--format svg|png, or an output name ending .svg or .png, got ${opts.output}`);
        const client = clientOf(opts);
        const request = {
          templateId: opts.template,
          text,
          ...(opts.fontSize !== undefined ? { fontSize: opts.fontSize } : {}),
        };
        const image =
          format === 'png'
            ? await client.renders.create({ ...request, format: 'png' })
            : await client.renders.create({ ...request, format });
        // Written whole or not at all.
        const part = `${opts.output}.part`;
        try {
          writeFileSync(part, image);
          await rename(part, opts.output);
        } catch (err) {
          await rm(part, { force: true });
          throw err;
        }
        const bytes = typeof image === 'string' ? Buffer.byteLength(image) : image.byteLength;
        finish(opts.json, {
          data: { output: opts.output, format, bytes },
          human: `${opts.output}: ${format.toUpperCase()}, ${kb(bytes)}`,
        });
      } catch (err) {
        finish(opts.json, err as Error);
      }
    },
  );
}

function pages(job: Generation): string {
  const n = job.pages ?? 0;
  return `${n} page${n === 1 ? '' : 's'}, ${job.creditsSpent ?? 0} sheets`;
}
