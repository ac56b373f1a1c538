// Every setting of the service, once: name, default, parser, description. Defaults are the
// limits of the public API spec (§8); the server may lower or change them. The README's table
// of variables is generated from this list (`npm run docs:config`) and a test keeps it in sync.
import { isIP } from 'node:net';
import { planCatalog } from '../domain/plans.ts';
import { canonicalAddress } from '../lib/ip-text.ts';

export type Parser<T> = (raw: string) => T;

export interface Descriptor<T = unknown> {
  readonly env: string;
  readonly default: T;
  readonly parse: Parser<T>;
  /** How the default is shown in the docs (units spelled out). */
  readonly shown?: string;
  readonly doc: string;
  /** A secret (a token, a key, a URL with a password): an error never repeats its value. */
  readonly secret?: boolean;
}

const KiB = 1024;
const MiB = 1024 * KiB;

function describe<T>(d: Descriptor<T>): Descriptor<T> {
  return d;
}

export function integer(min: number, max: number, unit = ''): Parser<number> {
  return (raw) => {
    const text = raw.trim();
    if (!/^-?\d+$/.test(text))
      throw new Error(`must be a whole number${unit && ` of ${unit}`}, got "${raw}"`);
    const n = Number(text);
    if (n < min || n > max) throw new Error(`must be ${min}-${max}${unit && ` ${unit}`}, got ${n}`);
    return n;
  };
}

export function oneOf<const T extends string>(...values: T[]): Parser<T> {
  return (raw) => {
    const text = raw.trim() as T;
    if (!values.includes(text)) throw new Error(`must be one of ${values.join(', ')}, got "${raw}"`);
    return text;
  };
}

export function text(opts: { nonEmpty?: boolean; pattern?: RegExp; hint?: string } = {}): Parser<string> {
  return (raw) => {
    const value = raw.trim();
    if (opts.nonEmpty && value === '') throw new Error('must not be empty');
    if (opts.pattern && !opts.pattern.test(value))
      throw new Error(`must be ${opts.hint ?? opts.pattern}, got "${raw}"`);
    return value;
  };
}

export function url(...schemes: string[]): Parser<string> {
  return (raw) => {
    const value = raw.trim();
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new Error(`must be a URL (${schemes.join(', ')}), got "${raw}"`);
    }
    if (!schemes.includes(parsed.protocol.replace(/:$/, ''))) {
      throw new Error(`must use ${schemes.join(' or ')}, got "${parsed.protocol}"`);
    }
    return value;
  };
}

export function fraction(): Parser<number> {
  return (raw) => {
    const n = Number(raw);
    if (!/^(0|1|0?\.\d+|1\.0*)$/.test(raw.trim()) || !(n >= 0 && n <= 1))
      throw new Error(`must be a number 0-1, got "${raw}"`);
    return n;
  };
}

function optional<T>(parse: Parser<T>): Parser<T | undefined> {
  return (raw) => (raw.trim() === '' ? undefined : parse(raw));
}

const bool: Parser<boolean> = (raw) => {
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new Error(`must be true or false, got "${raw}"`);
};

/** A comma-separated list of IPv4 or IPv6 addresses. */
const addresses: Parser<readonly string[]> = (raw) => {
  const list = raw
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  for (const a of list)
    if (isIP(a) === 0) throw new Error(`must be comma-separated IP addresses, got "${a}" in "${raw}"`);
  // Written as a request's peer is, so that `0:0:0:0:0:0:0:1` or `::FFFF:10.0.0.5` match it.
  return list.map(canonicalAddress);
};

export const descriptors = {
  // Process and modes (docs: DESIGN §2)
  port: describe({
    env: 'PORT',
    default: 8080,
    parse: integer(0, 65535),
    doc: 'HTTP port of the API (0 = any free port).',
  }),
  host: describe({
    env: 'HOST',
    default: '127.0.0.1',
    parse: text({ nonEmpty: true }),
    doc: "Address the API listens on. The default, loopback, takes this machine's clients only: to serve others, put the edge in front (`scriptorium edge`, HAProxy) or listen on an address they reach (`0.0.0.0`), where the framing check turns on.",
  }),
  probePort: describe({
    env: 'PROBE_PORT',
    default: 9464,
    parse: integer(0, 65535),
    doc: 'Port of a worker process (`--role worker`) for GET /health, /ready and /metrics (0 = any free port, printed at start); API processes answer them on PORT.',
  }),
  probeDeadlineMs: describe({
    env: 'PROBE_DEADLINE_MS',
    default: 2000,
    parse: integer(10, 60_000, 'ms'),
    doc: 'How long GET /ready waits for each service (store, blobs, Redis) before it calls it unready.',
  }),
  framingCheck: describe<boolean | 'auto'>({
    env: 'FRAMING_CHECK',
    default: 'auto',
    parse: (raw) => {
      if (raw.trim().toLowerCase() === 'auto') return 'auto';
      try {
        return bool(raw);
      } catch {
        throw new Error(`must be auto, true or false, got "${raw}"`);
      }
    },
    doc: 'Read every request head in front of the HTTP transport: answers HTTP/1.0, refuses ambiguous lengths and oversized heads. `auto`: on where HOST is an address other machines reach, off on loopback (127.0.0.1, ::1). Off only on loopback or behind a proxy that re-frames each request, such as the edge (docs/operations.md).',
  }),
  trustedProxies: describe<readonly string[]>({
    env: 'TRUSTED_PROXIES',
    default: [],
    shown: 'none',
    parse: addresses,
    doc: 'Comma-separated addresses of the edge in front (HAProxy): a request from one of them is taken to come from the last address of its `X-Forwarded-For`, for the per-address sign-in and admin limits and the access log. `scriptorium edge` replaces that header on every request.',
  }),
  stopDelayMs: describe({
    env: 'STOP_DELAY_MS',
    default: 0,
    parse: integer(0, 60_000, 'ms'),
    doc: 'On SIGTERM an API process answers GET /ready with 503 at once but keeps serving this long before it stops accepting, so that an edge checking it (`scriptorium edge`: every second, out after two failures) has taken it out first. 3000 behind the edge; 0 alone.',
  }),
  dataDir: describe({
    env: 'DATA_DIR',
    default: './data',
    parse: text({ nonEmpty: true }),
    doc: 'Directory of the embedded store, blobs and bundled data.',
  }),
  databaseUrl: describe<string | undefined>({
    env: 'DATABASE_URL',
    default: undefined,
    shown: '`$DATA_DIR/scriptorium.db`',
    parse: optional(text({ nonEmpty: true })),
    secret: true,
    doc: '`postgres://…` for PostgreSQL (farm), otherwise a SQLite file path (embedded).',
  }),
  redisUrl: describe<string | undefined>({
    env: 'REDIS_URL',
    default: undefined,
    shown: 'unset',
    parse: optional(url('redis', 'rediss')),
    secret: true,
    doc: 'Redis for the queue and limits; unset = in-process queue and limits.',
  }),
  redisPrefix: describe({
    env: 'REDIS_PREFIX',
    default: 'scriptorium:',
    parse: text({ pattern: /^[A-Za-z0-9_:.-]{1,64}$/, hint: '1-64 letters, digits, or _ : . -' }),
    doc: 'Prefix of every Redis key, so several deployments (or test runs) can share one Redis.',
  }),
  s3Endpoint: describe<string | undefined>({
    env: 'S3_ENDPOINT',
    default: undefined,
    shown: 'unset',
    parse: optional(url('http', 'https')),
    doc: 'S3/MinIO endpoint for blobs; unset = `$DATA_DIR/blobs`.',
  }),
  s3Bucket: describe({
    env: 'S3_BUCKET',
    default: 'scriptorium',
    parse: text({ nonEmpty: true }),
    doc: 'S3 bucket.',
  }),
  s3Region: describe({
    env: 'S3_REGION',
    default: 'us-east-1',
    parse: text({ nonEmpty: true }),
    doc: 'S3 region (MinIO answers to any).',
  }),
  s3AccessKey: describe({
    env: 'S3_ACCESS_KEY',
    default: '',
    shown: 'empty',
    parse: text(),
    secret: true,
    doc: 'S3 access key.',
  }),
  s3SecretKey: describe({
    env: 'S3_SECRET_KEY',
    default: '',
    shown: 'empty',
    parse: text(),
    secret: true,
    doc: 'S3 secret key.',
  }),
  adminToken: describe({
    env: 'ADMIN_TOKEN',
    default: '',
    shown: 'empty (admin API off)',
    parse: text({ pattern: /^$|^.{24,}$/, hint: 'empty or at least 24 characters' }),
    secret: true,
    doc: 'Bearer token of the admin API.',
  }),
  renderMode: describe({
    env: 'RENDER_MODE',
    default: 'subscription' as 'subscription' | 'credits' | 'disabled',
    parse: oneOf('subscription', 'credits', 'disabled'),
    doc: '`subscription`: the plan must grant renders; `credits`: renders charge sheets; `disabled`: 503.',
  }),
  poolThreads: describe({
    env: 'POOL_THREADS',
    default: 2,
    parse: integer(1, 64),
    doc: 'Render worker threads per process.',
  }),
  accessLogSample: describe({
    env: 'ACCESS_LOG_SAMPLE',
    default: 1,
    parse: fraction(),
    doc: 'Share of requests that get an access line at info level, 0-1 (answers of 500 and more always do).',
  }),
  logLevel: describe({
    env: 'LOG_LEVEL',
    default: 'info' as 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent',
    parse: oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'),
    doc: 'Log level.',
  }),
  demo: describe({
    env: 'DEMO',
    default: true,
    parse: bool,
    doc: 'Create a demo account on an empty embedded store at start.',
  }),

  // Request limits (spec §8)
  rateLimitPerMinute: describe({
    env: 'RATE_LIMIT_PER_MINUTE',
    default: 10,
    parse: integer(1, 10_000_000),
    doc: 'Requests per minute per API key, counting polling and downloads.',
  }),
  rateLimitWindowSeconds: describe({
    env: 'RATE_LIMIT_WINDOW_SECONDS',
    default: 60,
    parse: integer(1, 3600),
    doc: 'The window the per-key limit counts over: RATE_LIMIT_PER_MINUTE requests per this many seconds (the spec: 60).',
  }),
  bodyLimitBytes: describe({
    env: 'BODY_LIMIT_BYTES',
    default: 512 * KiB,
    shown: '524288 (512 KiB)',
    parse: integer(1 * KiB, 64 * MiB, 'bytes'),
    doc: 'Largest JSON request body.',
  }),
  maxUnfinishedJobs: describe({
    env: 'MAX_UNFINISHED_JOBS',
    default: 2,
    parse: integer(1, 1000),
    doc: 'Unfinished jobs per account.',
  }),
  queueMax: describe({
    env: 'QUEUE_MAX',
    default: 32,
    parse: integer(1, 100_000),
    doc: 'Queued jobs per API instance.',
  }),

  // Batches (an extension, docs/batches.md)
  batchBodyLimitBytes: describe({
    env: 'BATCH_BODY_LIMIT_BYTES',
    default: 32 * MiB,
    shown: '33554432 (32 MiB)',
    parse: integer(1 * KiB, 512 * MiB, 'bytes'),
    doc: 'Largest body of POST /batches (10,000 rows of JSON or CSV).',
  }),
  batchShare: describe({
    env: 'BATCH_SHARE',
    default: 4,
    parse: integer(1, 1000),
    doc: "Rows of one account's batches rendering at once, over the whole farm, beside its single jobs; the rest wait in the store, not in the queue, so other accounts' jobs never queue behind a batch.",
  }),

  // Generations (spec §4, §8)
  textMaxChars: describe({
    env: 'TEXT_MAX_CHARS',
    default: 100_000,
    parse: integer(1, 10_000_000),
    doc: 'Text of a PDF generation, with a subscription.',
  }),
  textMaxCharsFree: describe({
    env: 'TEXT_MAX_CHARS_FREE',
    default: 4_000,
    parse: integer(1, 10_000_000),
    doc: 'Text of a PDF generation, without a subscription.',
  }),
  maxPages: describe({
    env: 'MAX_PAGES',
    default: 200,
    parse: integer(1, 10_000),
    doc: 'Pages of one document.',
  }),
  pdfMaxBytes: describe({
    env: 'PDF_MAX_BYTES',
    default: 55_000_000,
    shown: '55000000 (55 MB)',
    parse: integer(1 * MiB, 2_000_000_000, 'bytes'),
    doc: 'Size of one PDF.',
  }),
  renderTimeoutMs: describe({
    env: 'RENDER_TIMEOUT_MS',
    default: 60_000,
    parse: integer(100, 3_600_000, 'ms'),
    doc: 'Rendering time of one document.',
  }),
  renderMemoryMb: describe({
    env: 'RENDER_MEMORY_MB',
    default: 512,
    parse: integer(32, 16_384, 'MiB'),
    doc: 'Heap of one render worker; a task past it is stopped and fails.',
  }),
  renderYoungMb: describe({
    env: 'RENDER_YOUNG_MB',
    default: 16,
    parse: integer(8, 1024, 'MiB'),
    doc: 'Young generation of one render worker\'s heap: larger collects less often, at the cost of memory (docs/performance.md, "Render pool").',
  }),
  fontCacheMb: describe({
    env: 'FONT_CACHE_MB',
    default: 64,
    parse: integer(4, 4096, 'MiB'),
    doc: 'Font files each render thread keeps loaded, least recently used dropped first (the bundled hands take about 6 MiB; a personal font up to 20 MiB). A font larger than this is loaded for the task that needs it.',
  }),
  crashAt: describe<'after-blob' | 'after-commit' | undefined>({
    env: 'CRASH_AT',
    default: undefined,
    shown: 'unset',
    parse: optional(oneOf('after-blob', 'after-commit')),
    doc: 'Test hook: the process kills itself (SIGKILL) at this point of a job completion. Never set in production.',
  }),
  sweepIntervalMs: describe({
    env: 'SWEEP_INTERVAL_MS',
    default: 600_000,
    parse: integer(1_000, 86_400_000, 'ms'),
    doc: 'How often expired outputs and orphaned blobs are deleted.',
  }),
  queueLockMs: describe({
    env: 'QUEUE_LOCK_MS',
    default: 30_000,
    parse: integer(1_000, 600_000, 'ms'),
    doc: "Farm workers: a job whose worker stopped answering (killed) runs elsewhere after this long; also the life of an account's lease.",
  }),
  assetDecodeTimeoutMs: describe({
    env: 'ASSET_DECODE_TIMEOUT_MS',
    default: 10_000,
    parse: integer(100, 120_000, 'ms'),
    doc: 'An uploaded image is decoded in full on a render thread before it is stored; one that takes longer is refused (400).',
  }),
  jobImageMemoryMb: describe({
    env: 'JOB_IMAGE_MEMORY_MB',
    default: 256,
    parse: integer(16, 4096, 'MiB'),
    doc: 'The pixels of the distinct images one job draws, decoded (4 bytes a pixel): a job over it is refused at submission (400). 256 MiB holds eight 8 MP images.',
  }),
  jobMaxAttempts: describe({
    env: 'JOB_MAX_ATTEMPTS',
    default: 10,
    parse: integer(1, 1000),
    doc: 'A job taken this many times without finishing (storage kept failing, its worker kept dying) fails with GENERATION_FAILED, uncharged.',
  }),
  jobRetryBaseMs: describe({
    env: 'JOB_RETRY_BASE_MS',
    default: 1000,
    parse: integer(10, 600_000, 'ms'),
    doc: 'A job whose run hit a storage fault (disk full, store unreachable) runs again after this, doubling each time.',
  }),
  jobRetryMaxMs: describe({
    env: 'JOB_RETRY_MAX_MS',
    default: 60_000,
    parse: integer(10, 3_600_000, 'ms'),
    doc: 'The longest wait between two runs of a job that keeps hitting storage faults.',
  }),
  webhookRetryBaseMs: describe({
    env: 'WEBHOOK_RETRY_BASE_MS',
    default: 10_000,
    parse: integer(10, 3_600_000, 'ms'),
    doc: 'The first wait before a webhook delivery is tried again; the later ones are 3, 12, 60, 180, 360, 1080, 2160 and twice 4320 times it (10 retries over 34.7 h at 10 s).',
  }),
  webhookTimeoutMs: describe({
    env: 'WEBHOOK_TIMEOUT_MS',
    default: 10_000,
    parse: integer(100, 60_000, 'ms'),
    doc: 'How long a webhook receiver has to answer a delivery with a 2xx.',
  }),
  webhookPrivateTargets: describe({
    env: 'WEBHOOK_PRIVATE_TARGETS',
    default: false,
    parse: bool,
    doc: 'Let webhook endpoints be on loopback, private, link-local or other non-public addresses (a receiver on this machine while developing). Off, such an endpoint is refused when added and a delivery to a name that resolves to one is not sent.',
  }),
  webhookPollMs: describe({
    env: 'WEBHOOK_POLL_MS',
    default: 1_000,
    parse: integer(10, 60_000, 'ms'),
    doc: 'How often the dispatcher looks for deliveries that are due (workers and single-box servers).',
  }),
  reconcileIntervalMs: describe({
    env: 'RECONCILE_INTERVAL_MS',
    default: 30_000,
    parse: integer(500, 3_600_000, 'ms'),
    doc: 'Farm workers: how often jobs unfinished in the store but missing from Redis are queued again.',
  }),
  retentionDays: describe({
    env: 'RETENTION_DAYS',
    default: 7,
    parse: integer(1, 365, 'days'),
    doc: 'Result retention.',
  }),
  templatesMax: describe({
    env: 'TEMPLATES_MAX',
    default: 100,
    parse: integer(1, 100_000),
    doc: 'Templates per account.',
  }),
  keysMax: describe({
    env: 'KEYS_MAX',
    default: 10,
    parse: integer(1, 1000),
    doc: 'Active API keys per account.',
  }),

  // Previews (spec §4 Previews)
  previewsPerMinute: describe({
    env: 'PREVIEWS_PER_MINUTE',
    default: 3,
    parse: integer(1, 100_000),
    doc: 'New previews per minute per account.',
  }),
  previewPages: describe({
    env: 'PREVIEW_PAGES',
    default: 4,
    parse: integer(1, 50),
    doc: 'Pages of a preview.',
  }),

  // Renders (spec §4 Render, §8)
  renderTextMax: describe({
    env: 'RENDER_TEXT_MAX',
    default: 3_000,
    parse: integer(1, 1_000_000, 'UTF-16 units'),
    doc: 'Text of one render in UTF-16 code units.',
  }),
  renderLinesMax: describe({
    env: 'RENDER_LINES_MAX',
    default: 20,
    parse: integer(1, 10_000),
    doc: 'Lines of one render, wrapping included.',
  }),
  renderMaxSide: describe({
    env: 'RENDER_MAX_SIDE',
    default: 2048,
    parse: integer(16, 65_536, 'px'),
    doc: 'Side of a render image.',
  }),
  renderMaxPixels: describe({
    env: 'RENDER_MAX_PIXELS',
    default: 4_000_000,
    parse: integer(256, 1_000_000_000, 'px'),
    doc: 'Pixels of a render image at 144 DPI.',
  }),
  renderOutputMaxBytes: describe({
    env: 'RENDER_OUTPUT_MAX_BYTES',
    default: 8_000_000,
    shown: '8000000 (8 MB)',
    parse: integer(1 * KiB, 1_000_000_000, 'bytes'),
    doc: 'Size of one render output.',
  }),
  renderSyncTimeoutMs: describe({
    env: 'RENDER_SYNC_TIMEOUT_MS',
    default: 15_000,
    parse: integer(100, 600_000, 'ms'),
    doc: 'Processing time of one synchronous render.',
  }),
  rendersPerMinute: describe({
    env: 'RENDERS_PER_MINUTE',
    default: 5,
    parse: integer(1, 10_000_000),
    doc: 'Accepted renders per minute per account.',
  }),
  rendersPerDay: describe({
    env: 'RENDERS_PER_DAY',
    default: 100,
    parse: integer(1, 100_000_000),
    doc: 'Accepted renders per UTC day per account.',
  }),

  // Usage and assets (spec §4 Usage, Assets)
  usageMaxDays: describe({
    env: 'USAGE_MAX_DAYS',
    default: 366,
    parse: integer(1, 3660),
    doc: 'Range of GET /usage.',
  }),
  assetMaxBytes: describe({
    env: 'ASSET_MAX_BYTES',
    default: 5 * MiB,
    shown: '5242880 (5 MiB)',
    parse: integer(1 * KiB, 1024 * MiB, 'bytes'),
    doc: 'Size of one uploaded image.',
  }),
  assetMaxSide: describe({
    env: 'ASSET_MAX_SIDE',
    default: 4096,
    parse: integer(1, 65_535, 'px'),
    doc: 'Side of one uploaded image.',
  }),
  assetMaxPixels: describe({
    env: 'ASSET_MAX_PIXELS',
    default: 8_000_000,
    parse: integer(1, 1_000_000_000, 'px'),
    doc: 'Pixels of one uploaded image.',
  }),
  assetsMaxCount: describe({
    env: 'ASSETS_MAX_COUNT',
    default: 200,
    parse: integer(1, 1_000_000),
    doc: 'Images per account.',
  }),
  assetsMaxTotalBytes: describe({
    env: 'ASSETS_MAX_TOTAL_BYTES',
    default: 100 * MiB,
    shown: '104857600 (100 MiB)',
    parse: integer(1 * KiB, 1_000_000_000_000, 'bytes'),
    doc: 'Bytes of all images of an account.',
  }),
  personalFontsMaxCount: describe({
    env: 'PERSONAL_FONTS_MAX_COUNT',
    default: 20,
    parse: integer(1, 10_000),
    doc: 'Personal fonts per account (dashboard).',
  }),
  personalFontsMaxTotalBytes: describe({
    env: 'PERSONAL_FONTS_MAX_TOTAL_BYTES',
    default: 100 * MiB,
    shown: '104857600 (100 MiB)',
    parse: integer(1 * MiB, 1_000_000_000_000, 'bytes'),
    doc: 'Bytes of all personal fonts of an account.',
  }),
  personalFontUploadsPerHour: describe({
    env: 'PERSONAL_FONT_UPLOADS_PER_HOUR',
    default: 10,
    parse: integer(1, 100_000),
    doc: 'Personal font uploads an account may make in an hour, refused ones included (each is parsed and drawn on a render thread before it is kept).',
  }),
  handProcessIdleMs: describe({
    env: 'HAND_PROCESS_IDLE_MS',
    default: 30_000,
    parse: integer(1000, 3_600_000, 'ms'),
    doc: 'How long the process that reads sample-sheet pictures is kept once idle (one starts with the next picture; all its memory goes with it).',
  }),
  handPicturesPerHour: describe({
    env: 'HAND_PICTURES_PER_HOUR',
    default: 30,
    parse: integer(1, 100_000),
    doc: 'Pictures of a filled sample sheet an account may give its hands in an hour, refused ones included (each is read by the renderer before it is kept).',
  }),

  // Billing (DESIGN §6)
  planCatalog: describe<string | undefined>({
    env: 'PLAN_CATALOG',
    default: undefined,
    shown: 'built in',
    parse: optional((raw) => {
      planCatalog(raw);
      return raw;
    }),
    doc: 'JSON object overriding plans of the built-in catalogue (see docs/billing.md).',
  }),
} as const;

export type Descriptors = typeof descriptors;
export type Config = { -readonly [K in keyof Descriptors]: Descriptors[K]['default'] };
