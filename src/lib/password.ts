// Passwords of dashboard users: argon2id (RFC 9106) with the OWASP minimum parameters (19 MiB,
// two passes, one lane) and a random salt, kept in the PHC string format, which names its own
// parameters so that they can be raised later without losing the old hashes.
// The native module loads with the first password, not with the process.
const argon2 = () => import('argon2').then((m) => m.default);

export async function hashPassword(password: string): Promise<string> {
  const a = await argon2();
  return a.hash(password.normalize('NFKC'), {
    type: a.argon2id,
    memoryCost: 19_456,
    timeCost: 2,
    parallelism: 1,
  });
}

/** Whether `password` is the one `stored` was made from; a malformed hash matches nothing. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  const a = await argon2();
  try {
    return await a.verify(stored, password.normalize('NFKC'));
  } catch {
    return false;
  }
}

/**
 * A hash of nothing anyone knows, verified when an email is unknown, so that signing in with an
 * unknown address takes as long as with a wrong password.
 */
let decoy: Promise<string> | null = null;
export async function verifyDecoy(password: string): Promise<false> {
  decoy ??= hashPassword(`decoy-${Math.random()}`);
  await verifyPassword(await decoy, password);
  return false;
}
