// What the dashboard's account calls share: the tenant a call reads (an account the signed-in
// user belongs to, in the mode asked for), and the account as the public API's caller would be.
import type { Caller } from '../../app/auth.ts';
import { membership } from '../../app/dashboard.ts';
import { accountOf } from '../../app/reads.ts';
import { Refusal } from '../../domain/errors.ts';
import { shownId } from '../../domain/ids.ts';
import type { Role } from '../../domain/users.ts';
import type { ApiDeps } from '../deps.ts';
import { MODES, oneOf } from '../input.ts';
import { queryParams } from '../query.ts';
import type { RouteRequest } from '../types.ts';

type Mode = 'live' | 'test';
type Req = RouteRequest<'session'>;

/** The `?mode=` of a call. */
export const modeOf = (req: Req): Mode => oneOf('mode', queryParams(req, ['mode']).mode, MODES);

/** The tenant a dashboard call reads: an account the user belongs to (with `role`, when the call needs it), in the mode asked for. */
export function tenantOf(req: Req, m: Mode = modeOf(req), role?: Role) {
  membership(req.session, req.params.account!, role);
  return { accountId: req.params.account!, mode: m };
}

/** The tenant of a call only an owner may make (webhook endpoints: they receive the account's events). */
export const ownerTenant = (req: Req, m: Mode = modeOf(req)) => tenantOf(req, m, 'owner');

/** The account a dashboard call acts for, as the public API's caller would be. */
export async function callerOf(d: ApiDeps, req: Req, m: Mode = modeOf(req)): Promise<Caller> {
  const tenant = tenantOf(req, m);
  const account = await accountOf(d, tenant.accountId);
  if (!account) throw new Refusal('missing', `account ${shownId(tenant.accountId)} does not exist`);
  return { keyId: '', tenant, account };
}
