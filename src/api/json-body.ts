// JSON request bodies. JSON.parse alone accepts things a paid API should refuse: nesting deep
// enough to overflow whatever walks it next, keys that name an object's prototype (`__proto__`,
// `constructor`, `prototype`: a later assignment by key would write onto every object), and
// numbers like 1e309 that silently become Infinity.
import { isUtf8 } from 'node:buffer';
import { apiRefusal } from '../domain/errors.ts';
import { firstBadByte } from '../domain/utf8.ts';
import { checkParsedJson } from '../domain/validation.ts';

export const JSON_MAX_DEPTH = 64;

const bad = (message: string) => apiRefusal('INVALID_REQUEST', message, { field: 'body' });

/** Deepest nesting of arrays and objects, counted on the bytes before parsing. */
function nestingDepth(text: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) deepest = depth;
      if (deepest > max) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

export function parseJsonBody(body: Buffer): unknown {
  if (body.length === 0) throw bad('the body must be a JSON object, got nothing');
  if (!isUtf8(body)) {
    const at = firstBadByte(body);
    throw bad(
      `the body must be UTF-8; byte ${at} (0x${body[at]!.toString(16).padStart(2, '0')}) does not start a valid UTF-8 character`,
    );
  }
  const text = body.toString('utf8');
  const depth = nestingDepth(text, JSON_MAX_DEPTH);
  if (depth > JSON_MAX_DEPTH)
    throw bad(
      `the body may nest arrays and objects ${JSON_MAX_DEPTH} levels deep, got more than ${JSON_MAX_DEPTH}`,
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw bad(`the body must be valid JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw bad(
      `the body must be a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
    );
  }
  checkParsedJson(value);
  return value;
}
