// The error catalogue: every code of spec §7 with its HTTP status (DESIGN §4 settles the ones
// the spec leaves open). Messages say what was wrong, what is allowed and what was received.

export const errorCatalog = {
  INVALID_REQUEST: {
    status: 400,
    meaning:
      'The request is malformed or breaks a limit (413 when the body is too large, 431 when the head is).',
  },
  INVALID_TEMPLATE_DATA: {
    status: 400,
    meaning: 'A `data` value does not fit the template; `field` names it.',
  },
  INVALID_API_KEY: { status: 401, meaning: 'The key is missing, malformed or unknown.' },
  API_KEY_REVOKED: { status: 401, meaning: 'The key was revoked.' },
  INSUFFICIENT_BALANCE: { status: 402, meaning: 'Plan allowance and extra balance do not cover the work.' },
  RENDER_ACCESS_DENIED: { status: 403, meaning: 'The plan does not grant synchronous renders.' },
  FONT_ACCESS_DENIED: { status: 403, meaning: 'The template uses a premium font the plan does not grant.' },
  TEMPLATE_NOT_FOUND: { status: 404, meaning: 'No such template for this account and key mode.' },
  GENERATION_NOT_FOUND: { status: 404, meaning: 'No such generation for this account and key mode.' },
  ENDPOINT_NOT_FOUND: { status: 404, meaning: 'No such endpoint.' },
  BATCH_NOT_FOUND: { status: 404, meaning: 'Extension: no such batch for this account and key mode.' },
  FONT_NOT_FOUND: { status: 404, meaning: 'The template names a font that no longer exists.' },
  GENERATION_NOT_READY: {
    status: 409,
    meaning: 'The job is not completed (queued, processing, failed or cancelled).',
  },
  PREVIEW_ONLY: { status: 409, meaning: 'A preview job has images, not a PDF.' },
  IDEMPOTENCY_KEY_IN_USE: {
    status: 409,
    meaning:
      'Extension: the first request sent with this `Idempotency-Key` is still being answered; retry after `Retry-After` seconds to get its answer.',
  },
  GENERATION_EXPIRED: { status: 410, meaning: 'The result is past its retention.' },
  RATE_LIMIT_EXCEEDED: {
    status: 429,
    meaning: 'A rate, quota or concurrency limit; wait `Retry-After` seconds.',
  },
  INTERNAL_ERROR: { status: 500, meaning: 'An unexpected failure; quote the request id.' },
  RENDER_FAILED: { status: 500, meaning: 'The synchronous render failed.' },
  RENDER_DISABLED: { status: 503, meaning: 'Synchronous renders are disabled on this server.' },
  SERVICE_UNAVAILABLE: {
    status: 503,
    meaning:
      'Extension: the service cannot store anything now (disk full, storage unreachable); nothing was changed. Wait `Retry-After` seconds.',
  },
  OUTPUT_DAMAGED: {
    status: 500,
    meaning:
      'Extension: the stored output of a completed job is missing or no longer matches its digest; it is not served. Quote the request id.',
  },
  GENERATION_FAILED: { status: 500, meaning: 'Appears only in the `error` of a failed job.' },
} as const;

export type ErrorCode = keyof typeof errorCatalog;

/** Codes only the operator's admin API answers with (DESIGN §8); the public API never does. */
export const adminErrorCatalog = {
  UNAUTHORIZED: { status: 401, meaning: 'The admin token is missing or wrong.' },
  NOT_FOUND: { status: 404, meaning: 'The account, key or job named does not exist.' },
  FORBIDDEN: {
    status: 403,
    meaning:
      'Dashboard: the signed-in user may not do this (an owner-only action), or a state-changing call came without its CSRF token or from another origin.',
  },
} as const;

export type AdminErrorCode = keyof typeof adminErrorCatalog;

/**
 * What a store or a use-case refuses, said as the domain says it: a kind to branch on and a
 * message for people (what is wrong, what is allowed, what was received). Nothing was changed.
 * A store's carries no code or status; where a use-case wants a particular public error it
 * decides one (apiRefusal); otherwise the API's one error mapper answers by kind.
 */
export type RefusalKind =
  /** The input breaks a rule or a limit of its kind (too long, too many, unknown value). */
  | 'invalid'
  /** What the request names (an account, a key, a job) does not exist. */
  | 'missing'
  /** A rate, quota or concurrency limit; `retryAfter` says when to try again. */
  | 'limit'
  /** The plan allowance and extra balance do not cover the work. */
  | 'balance'
  /** The thing is in a state that does not allow this (a finished job cannot be cancelled). */
  | 'conflict'
  /**
   * The store or the blob store cannot do it now (no space left, unreachable); nothing was
   * changed and the same request may succeed later (`retryAfter`).
   */
  | 'unavailable'
  /** Who asks may not: no key, a revoked key, a plan without the feature, another account's thing. */
  | 'denied'
  /** The thing was there and is no longer (a result past its retention). */
  | 'gone'
  /** The work itself failed (a render, a stored output that no longer matches). */
  | 'failed';

/**
 * Every refusal, of a store, a use-case or a door: one type. Its kind is the domain's word; `code`
 * is set where a use-case decides the public error itself (a code of the catalogue, or of the
 * admin API's, with its status), and otherwise the API's one error mapper answers by kind. A
 * store never sets it (test/unit/architecture.test.ts).
 */
export class Refusal extends Error {
  readonly field: string | undefined;
  readonly retryAfter: number | undefined;
  /** A `limit` refusal: the limit that refused. */
  readonly quota: QuotaState | undefined;
  /** The public error decided for it, if one was; `status` goes with it. */
  readonly code: ErrorCode | AdminErrorCode | undefined;
  readonly status: number | undefined;
  constructor(
    readonly kind: RefusalKind,
    message: string,
    opts: {
      field?: string;
      retryAfter?: number;
      quota?: QuotaState;
      cause?: unknown;
      code?: ErrorCode | AdminErrorCode;
      status?: number;
    } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'Refusal';
    this.field = opts.field;
    this.retryAfter = opts.retryAfter;
    this.quota = opts.quota;
    this.code = opts.code;
    this.status = opts.code === undefined ? undefined : (opts.status ?? statusOf(opts.code));
  }
}

/** A refusal whose public error is decided: its code and status. */
export type DecidedRefusal = Refusal & { code: ErrorCode | AdminErrorCode; status: number };

const statusOf = (code: ErrorCode | AdminErrorCode): number =>
  code in errorCatalog
    ? errorCatalog[code as ErrorCode].status
    : adminErrorCatalog[code as AdminErrorCode].status;

/** The kind a public error's status says. */
function kindOf(status: number): RefusalKind {
  if (status === 401 || status === 403) return 'denied';
  if (status === 402) return 'balance';
  if (status === 404) return 'missing';
  if (status === 409) return 'conflict';
  if (status === 410) return 'gone';
  if (status === 429) return 'limit';
  if (status === 503) return 'unavailable';
  if (status >= 500) return 'failed';
  return 'invalid';
}

/** A use-case's decision of the public error: a refusal with a code of the catalogue (or of the admin API's). */
export function apiRefusal(
  code: ErrorCode | AdminErrorCode,
  message: string,
  opts: { status?: number; field?: string; retryAfter?: number; quota?: QuotaState; cause?: unknown } = {},
): DecidedRefusal {
  return new Refusal(kindOf(opts.status ?? statusOf(code)), message, { ...opts, code }) as DecidedRefusal;
}

/** Whether `err` is a refusal whose public error a use-case decided. */
export function isDecided(err: unknown): err is DecidedRefusal {
  return err instanceof Refusal && err.code !== undefined;
}

/** Seconds a client is told to wait when storage cannot write (a full disk, an unreachable store). */
export const UNAVAILABLE_RETRY_AFTER = 30;

/** A storage fault said as the domain says it: `what` cannot be done now; try again later. */
export function unavailable(what: string, cause: unknown): Refusal {
  const detail = (cause as { code?: string })?.code ?? (cause as Error)?.message ?? String(cause);
  return new Refusal('unavailable', `${what} (${detail}); try again in ${UNAVAILABLE_RETRY_AFTER} s`, {
    retryAfter: UNAVAILABLE_RETRY_AFTER,
    cause,
  });
}

/** Whether an error is a storage fault that may pass (said by an adapter as an `unavailable` refusal). */
export function isUnavailable(err: unknown): err is Refusal {
  return err instanceof Refusal && err.kind === 'unavailable';
}

/**
 * Which limit refused a 429 (an extension: the error's `reason`, and the name of its policy in the
 * `RateLimit` fields), so a client can tell a key's pace from a full account or a day's quota.
 */
export const limitReasons = {
  'per-key': 'The key made its requests of the minute (spec §8: 10 a minute per key by default).',
  'unfinished-jobs': 'The account has its most unfinished jobs (spec §8: 2); wait for one to end.',
  'queue-full': 'This instance holds its most queued jobs (spec §8: 32); try again shortly.',
  'renders-per-minute': 'The account made its synchronous renders of the minute (spec §8: 5).',
  'renders-per-day':
    "The account made its synchronous renders of the UTC day (spec §8: 100); `RateLimit`'s `t` says when the day ends.",
  'render-in-progress': 'Another PNG render of the account is running (spec §8: one active heavy render).',
  'previews-per-minute': 'The account made its new previews of the minute (spec §8: 3).',
  'drafts-per-minute': "Dashboard: the account's builder previews of the minute.",
  'font-uploads': "Dashboard: the account's personal font uploads of the hour.",
  'hand-pictures': 'Dashboard: the pictures of sample-sheet pages the account gave its hands in the hour.',
  'sign-in-tries': 'Dashboard: sign-in and sign-up tries of an address or an email.',
  'admin-token-failures': 'Admin API: wrong admin tokens from one address within a minute.',
} as const;

export type LimitReason = keyof typeof limitReasons;

/**
 * A limit that refused a request, for the `RateLimit` fields (IETF draft) and the error's
 * `reason`: which one, how many it allows (in a window of `window` seconds; none for a
 * concurrency limit), and the seconds until it allows again.
 */
export interface QuotaState {
  name: LimitReason;
  limit: number;
  window?: number;
  reset: number;
}

/** A 429 of `quota`: wait 60 s (spec §7), or `retryAfter` where a door of our own says otherwise. */
export function limitReached(message: string, quota: QuotaState, retryAfter = 60): DecidedRefusal {
  return apiRefusal('RATE_LIMIT_EXCEEDED', message, { retryAfter, quota });
}

/** Shorthand for the most common error: a field outside its allowed range. */
export function invalid(field: string, allowed: string, received: unknown): DecidedRefusal {
  return apiRefusal('INVALID_REQUEST', `${field} must be ${allowed}, got ${show(received)}`, { field });
}

/** A received value as it reads in a message: short, and never a wall of user text. */
/**
 * A whole number with its thousands grouped by commas, as `toLocaleString('en-US')` writes it
 * (100000 → "100,000"). Written out because the locale's formatter pages in several MiB of ICU
 * data in every process that reads a limit (docs/performance.md, "Start-up").
 */
export function grouped(n: number): string {
  const [whole, fraction] = String(Math.abs(n)).split('.');
  const digits = whole!.replace(/\B(?=(\d{3})+$)/g, ',');
  return `${n < 0 ? '-' : ''}${digits}${fraction ? `.${fraction}` : ''}`;
}

export function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string')
    return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return typeof value === 'object' ? 'an object' : typeof value;
}
