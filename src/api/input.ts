// Strict readers of bodies and parameters, shared by every surface: a field that is not one of
// the request's, or a value out of its range, is refused by name.
import { invalid, apiRefusal } from '../domain/errors.ts';
import type { JobKind, JobStatus } from '../domain/generation.ts';

export const STATUSES: readonly JobStatus[] = ['queued', 'processing', 'completed', 'failed', 'cancelled'];
export const KINDS: readonly JobKind[] = ['pdf', 'preview'];
export const MODES = ['live', 'test'] as const;

/** A JSON object (the body, or one of its fields), refused by name otherwise. */
export function objectBody(json: unknown, field = 'body'): Record<string, unknown> {
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw invalid(field, 'a JSON object', json);
  return json as Record<string, unknown>;
}

export function allowOnly(body: Record<string, unknown>, keys: readonly string[]): void {
  for (const k of Object.keys(body)) {
    if (!keys.includes(k))
      throw apiRefusal(
        'INVALID_REQUEST',
        `${k.slice(0, 40)} is not a field of this request (fields: ${keys.join(', ')})`,
        { field: k },
      );
  }
}

export function oneOf<T extends string>(
  field: string,
  value: unknown,
  allowed: readonly T[],
  fallback?: T,
): T {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value))
    throw invalid(field, `one of ${allowed.join(', ')}`, value);
  return value as T;
}

export function wholeNumber(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw invalid(field, `a whole number ${min}-${max}`, value);
  return value;
}

/** The status and kind filters of a job list, each checked when given. */
export function jobFilters(rest: Record<string, string | undefined>): { status?: JobStatus; kind?: JobKind } {
  return {
    ...(rest.status === undefined ? {} : { status: oneOf('status', rest.status, STATUSES) }),
    ...(rest.kind === undefined ? {} : { kind: oneOf('kind', rest.kind, KINDS) }),
  };
}
