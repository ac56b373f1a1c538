// Dashboard people (an extension: the spec's "web dashboard"): users who sign in with an email
// and a password and belong to accounts as owner or member. The rules here are pure; hashing and
// tokens live in src/lib, storage in src/store, the flows in src/app/dashboard.ts.
import { Refusal } from './errors.ts';

export const ROLES = ['owner', 'member'] as const;
export type Role = (typeof ROLES)[number];

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;
export const EMAIL_MAX = 254;
export const NAME_MAX = 120;

/** A session lasts 14 days from sign-in; signing out (or out everywhere) ends it sooner. */
export const SESSION_DAYS = 14;
/**
 * Tries at the doors (sign-in, sign-up, an invitation's answer): 30 a minute from one address,
 * and 10 sign-ins in 15 minutes for one email, whichever comes first.
 */
export const SIGN_IN_LIMITS = {
  perAddress: { points: 30, windowSeconds: 60 },
  perEmail: { points: 10, windowSeconds: 900 },
} as const;

/** The template builder's live previews, per account: a redraw on every pause in typing. */
export const DRAFT_LIMIT = { points: 120, windowSeconds: 60 } as const;

/** An invitation can be accepted for 7 days. */
export const INVITATION_DAYS = 7;

export interface User {
  id: string;
  email: string;
  name: string;
  createdAt: string;
}

export interface Membership {
  accountId: string;
  accountName: string;
  role: Role;
  createdAt: string;
}

/** The address as stored and compared: trimmed and lower-cased; refused unless it looks like one. */
export function normalEmail(value: unknown, field = 'email'): string {
  if (typeof value !== 'string')
    throw new Refusal('invalid', `${field} must be an email address, got ${typeof value}`, { field });
  const email = value.trim().toLowerCase();
  if (email.length > EMAIL_MAX)
    throw new Refusal('invalid', `${field} must be at most ${EMAIL_MAX} characters, got ${email.length}`, {
      field,
    });
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new Refusal(
      'invalid',
      `${field} must be an address like name@example.com, got ${JSON.stringify(email.slice(0, 60))}`,
      { field },
    );
  return email;
}

/** A new password: 12-128 characters. Its value is never repeated in a message. */
export function newPassword(value: unknown, field = 'password'): string {
  if (typeof value !== 'string')
    throw new Refusal('invalid', `${field} must be a string, got ${typeof value}`, { field });
  const length = [...value].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX)
    throw new Refusal(
      'invalid',
      `${field} must be ${PASSWORD_MIN}-${PASSWORD_MAX} characters, got ${length}`,
      { field },
    );
  return value;
}

/** A person's or an account's name: 1-120 characters once trimmed. */
export function displayName(value: unknown, field: string): string {
  if (typeof value !== 'string')
    throw new Refusal('invalid', `${field} must be a string, got ${typeof value}`, { field });
  const name = value.trim();
  if (name.length < 1 || name.length > NAME_MAX)
    throw new Refusal('invalid', `${field} must be 1-${NAME_MAX} characters, got ${name.length}`, { field });
  return name;
}
