// The one error mapper of the public and the admin API: whatever a stage throws becomes
// `{ error: { code, message, requestId, field? } }` with its status. A refusal whose public error
// a use-case decided is answered as decided; any other (a store's, said in the domain's words) by
// its kind; anything else is an unexpected failure, logged with the request and answered 500.
import type { Logger } from 'pino';
import { Refusal, type RefusalKind, apiRefusal, isDecided, type DecidedRefusal } from '../domain/errors.ts';
import type { ApiRequest, Reply } from './types.ts';

/** The public error a refusal of each kind is answered with, where no use-case decided otherwise. */
const BY_KIND: Record<RefusalKind, { code: DecidedRefusal['code']; status: number }> = {
  invalid: { code: 'INVALID_REQUEST', status: 400 },
  missing: { code: 'NOT_FOUND', status: 404 },
  limit: { code: 'RATE_LIMIT_EXCEEDED', status: 429 },
  balance: { code: 'INSUFFICIENT_BALANCE', status: 402 },
  denied: { code: 'FORBIDDEN', status: 403 },
  gone: { code: 'GENERATION_EXPIRED', status: 410 },
  failed: { code: 'INTERNAL_ERROR', status: 500 },
  // Spec §7 pairs INVALID_REQUEST with 400; its 409s belong to the generation codes.
  conflict: { code: 'INVALID_REQUEST', status: 400 },
  unavailable: { code: 'SERVICE_UNAVAILABLE', status: 503 },
};

/** The public error for anything thrown while answering a request. */
export function publicError(err: unknown, req: ApiRequest, log: Logger): DecidedRefusal {
  if (isDecided(err)) return err;
  if (err instanceof Refusal) {
    // A commit refused because the request's idempotency key was taken over by a retry (its lease
    // ran out): that request's answer stands, and a retry of this one gets it.
    if (err.kind === 'conflict' && err.field === 'Idempotency-Key')
      return apiRefusal('IDEMPOTENCY_KEY_IN_USE', `${err.message}; retry to get its answer`, {
        retryAfter: 1,
      });
    const { code, status } = BY_KIND[err.kind];
    // A storage fault is the operator's to see: logged, while the client is told to come back.
    if (err.kind === 'unavailable')
      log.warn({ err, requestId: req.id, method: req.method, path: req.path }, 'storage unavailable');
    return apiRefusal(code, err.message, {
      status,
      field: err.field,
      retryAfter: err.retryAfter,
      ...(err.quota ? { quota: err.quota } : {}),
    });
  }
  log.error({ err, requestId: req.id, method: req.method, path: req.path }, 'request failed');
  return apiRefusal('INTERNAL_ERROR', `an unexpected error; quote request id ${req.id} to support`);
}

/**
 * The reply for a public error. A 429 says when to try again: `Retry-After: 60` (spec §7, §8);
 * and which limit refused: its name as the error's `reason`, and its policy first in the
 * RateLimit fields with nothing left and its true reset (a day's renders end at midnight), before
 * the key's own policy, which every answer carries.
 */
export function errorReply(e: DecidedRefusal, req: ApiRequest, headers: Record<string, string>): Reply {
  if (e.status === 429) headers['Retry-After'] = String(e.retryAfter ?? 60);
  else if (e.retryAfter !== undefined) headers['Retry-After'] = String(e.retryAfter);
  // RFC 6750 §3: the public API's keys are Bearer tokens.
  if (e.code === 'INVALID_API_KEY' || e.code === 'API_KEY_REVOKED')
    headers['WWW-Authenticate'] = 'Bearer realm="api"';
  const body: Record<string, unknown> = { code: e.code, message: e.message, requestId: req.id };
  if (e.field !== undefined) body.field = e.field;
  if (e.quota) {
    const q = e.quota;
    body.reason = q.name;
    // The key's own policy is already there, spent, when it is the one that refused.
    if (q.name !== 'per-key') {
      const policy = `"${q.name}";q=${q.limit}${q.window === undefined ? '' : `;w=${q.window}`}`;
      const state = `"${q.name}";r=0;t=${q.reset}`;
      headers['RateLimit-Policy'] = [policy, headers['RateLimit-Policy']].filter(Boolean).join(', ');
      headers.RateLimit = [state, headers.RateLimit].filter(Boolean).join(', ');
    }
  }
  return { status: e.status, headers, json: { error: body } };
}
