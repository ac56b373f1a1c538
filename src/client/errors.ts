// The client's one error class: every failure an integrator sees, from the API (its code, status,
// message, field and request id, as the service sent them) or from the client itself (a network
// failure, a wait that ran out, a job that ended without a PDF).
import type { components } from './schema.ts';

/** The service's error codes (the OpenAPI document's), as the error body carries them. */
export type ApiErrorCode = components['schemas']['Error']['error']['code'];

/** Which limit refused a 429 (the error body's `reason`). */
export type LimitReason = NonNullable<components['schemas']['Error']['error']['reason']>;

/** Codes the client adds for what happens on its side of the wire. */
export type ClientErrorCode =
  /** The server could not be reached or the connection broke. */
  | 'CONNECTION_FAILED'
  /** A request, a wait or a download took longer than allowed. */
  | 'TIMEOUT'
  /** The caller's AbortSignal fired. */
  | 'ABORTED'
  /** The job ended failed or cancelled: `job` says how. */
  | 'GENERATION_FAILED'
  | 'INSUFFICIENT_BALANCE'
  | 'GENERATION_CANCELLED'
  /** The server answered something that is not this API (a proxy's page, a cut body). */
  | 'UNEXPECTED_RESPONSE'
  /** A webhook delivery whose signature or timestamp does not check out. */
  | 'INVALID_SIGNATURE';

export type ScriptoriumErrorCode = ApiErrorCode | ClientErrorCode;

export class ScriptoriumError extends Error {
  override readonly name = 'ScriptoriumError';
  /** The API's code, or the client's for a failure on its side. */
  readonly code: ScriptoriumErrorCode;
  /** The HTTP status; 0 when no response came. */
  readonly status: number;
  /** The field to blame, when the API named one (`text`, `metadata/order`, `Idempotency-Key`). */
  readonly field: string | undefined;
  /** The request id to quote to support (`req_…`), when a response came. */
  readonly requestId: string | undefined;
  /** Seconds the server asked to wait before trying again (429, 503, 409 in flight). */
  readonly retryAfter: number | undefined;
  /** Which limit refused a 429 (`per-key`, `unfinished-jobs`, `renders-per-day`, …). */
  readonly reason: LimitReason | undefined;
  /** The finished job, for GENERATION_FAILED, INSUFFICIENT_BALANCE and GENERATION_CANCELLED. */
  readonly job: components['schemas']['Generation'] | undefined;

  constructor(
    code: ScriptoriumErrorCode,
    message: string,
    opts: {
      status?: number;
      field?: string | undefined;
      requestId?: string | undefined;
      retryAfter?: number | undefined;
      reason?: LimitReason | undefined;
      job?: components['schemas']['Generation'];
      cause?: unknown;
    } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.code = code;
    this.status = opts.status ?? 0;
    this.field = opts.field;
    this.requestId = opts.requestId;
    this.retryAfter = opts.retryAfter;
    this.reason = opts.reason;
    this.job = opts.job;
  }
}
