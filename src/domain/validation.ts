// Zod issues turned into messages that name the field, the allowed values and the received
// value ("style.fontSize must be 6-96 pt, got 120"), the one voice of every validation error.
import { z } from 'zod';
import { show, apiRefusal, type DecidedRefusal } from './errors.ts';

export type Path = readonly PropertyKey[];

/**
 * Names that reach an object's prototype in JavaScript. A key or path segment of a request that is
 * one of them is refused wherever it would name a field: JSON bodies, CSV columns, template keys,
 * metadata (docs/decisions.md, "Reserved keys").
 */
const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export function isReservedKey(key: string): boolean {
  return RESERVED_KEYS.has(key);
}

/**
 * A value parsed from JSON as a request sent it, checked all through: every number finite (1e309
 * parses as Infinity) and no reserved key anywhere. Refusals name the path (`rows/0/data/__proto__`).
 */
export function checkParsedJson(value: unknown, path = ''): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw apiRefusal('INVALID_REQUEST', `${path || 'body'} holds a number too large for a 64-bit float`, {
        field: path || 'body',
      });
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) checkParsedJson(value[i], path ? `${path}/${i}` : String(i));
    return;
  }
  for (const key of Object.keys(value)) {
    const at = path ? `${path}/${key}` : key;
    if (isReservedKey(key)) throw reservedKey(at, key);
    checkParsedJson((value as Record<string, unknown>)[key], at);
  }
}

/** The refusal of the reserved `key` where `field` names it. */
export function reservedKey(field: string, key: string): DecidedRefusal {
  return apiRefusal(
    'INVALID_REQUEST',
    `${field}: the key ${JSON.stringify(key)} is not accepted; __proto__, constructor and prototype may not name a field`,
    { field },
  );
}

/** `style.margins.top`, `blocks[2].key` */
export function dottedPath(path: Path): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out;
}

/** `items/2/price`: the JSON-pointer-like path of INVALID_TEMPLATE_DATA (DESIGN §4). */
export function slashPath(path: Path): string {
  return path.map(String).join('/');
}

/** A number in [min, max]; the message carries the range, the unit and the received value. */
export function range(min: number, max: number, unit = '', opts: { int?: boolean } = {}) {
  const allowed = `${opts.int ? 'a whole number ' : ''}${min}-${max}${unit ? ` ${unit}` : ''}`;
  const error = (iss: { input?: unknown }) => `must be ${allowed}, got ${show(iss.input)}`;
  // The bounds and unit also go into the JSON Schema (the OpenAPI document, the builder's forms).
  return z
    .number({ error })
    .refine((v) => v >= min && v <= max && (!opts.int || Number.isInteger(v)), { error })
    .meta({
      minimum: min,
      maximum: max,
      ...(opts.int ? { type: 'integer' } : {}),
      ...(unit ? { 'x-unit': unit } : {}),
    });
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: (iss) => `must be one of ${values.join(', ')}, got ${show(iss.input)}` });
}

export function boolean() {
  return z.boolean({ error: (iss) => `must be true or false, got ${show(iss.input)}` });
}

export function string(min: number, max: number, what = 'characters') {
  const error = (iss: { input?: unknown }) =>
    typeof iss.input === 'string'
      ? `must be ${min}-${max} ${what}, got ${iss.input.length}`
      : `must be a string, got ${show(iss.input)}`;
  return z.string({ error }).refine((s) => s.length >= min && s.length <= max, { error });
}

export function pattern(re: RegExp, hint: string) {
  const error = (iss: { input?: unknown }) => `must be ${hint}, got ${show(iss.input)}`;
  return z.string({ error }).regex(re, { error });
}

export function array<T extends z.ZodType>(item: T, min: number, max: number, what = 'items') {
  const error = (iss: { input?: unknown }) =>
    Array.isArray(iss.input)
      ? `must have ${min}-${max} ${what}, got ${iss.input.length}`
      : `must be an array, got ${show(iss.input)}`;
  return z.array(item, { error }).refine((a) => a.length >= min && a.length <= max, { error });
}

export function object<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(shape, {
    error: (iss) =>
      iss.code === 'unrecognized_keys' ? undefined : `must be an object, got ${show(iss.input)}`,
  });
}

/** One line per issue, path first. */
export function formatIssue(
  issue: z.core.$ZodIssue,
  pathStyle: (p: Path) => string = dottedPath,
): { field: string; message: string } {
  if (issue.code === 'unrecognized_keys') {
    const field = pathStyle([...issue.path, issue.keys[0]!]);
    return { field, message: `${field} is not a known field` };
  }
  const field = pathStyle(issue.path) || '(body)';
  return { field, message: `${field} ${issue.message}` };
}

/**
 * The first character that is not text: a control character (but tab and line breaks) or an
 * unpaired surrogate half (JSON can carry them; no font draws them).
 */
export function badCharacter(text: string): { index: number; what: string } | null {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let bad: string | null = null;
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) bad = 'a control character';
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else bad = 'an unpaired surrogate';
    } else if (c >= 0xdc00 && c <= 0xdfff) bad = 'an unpaired surrogate';
    if (bad)
      return {
        index: i,
        what: `${bad} (U+${c.toString(16).toUpperCase().padStart(4, '0')}) at position ${i}`,
      };
  }
  return null;
}
