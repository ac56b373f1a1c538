// The dashboard's members and invitations: who belongs to an account, with which role.
import { invite, members, removeMember, revokeInvitation, setMemberRole } from '../../app/dashboard.ts';
import { ROLES, type Role } from '../../domain/users.ts';
import type { ApiDeps } from '../deps.ts';
import { allowOnly, oneOf } from '../input.ts';
import { DASHBOARD_PREFIX } from '../surfaces.ts';
import { ok, type Routes } from '../types.ts';

export const memberRoutes = (d: ApiDeps): Routes<'session'> => [
  {
    method: 'GET',
    path: '/accounts/{account}/members',
    body: 'none',
    handler: async (req) => ok(await members(d, req.session, req.params.account!)),
  },
  {
    method: 'POST',
    path: '/accounts/{account}/members/{user}/role',
    body: 'json',
    handler: async (req) => {
      allowOnly(req.json, ['role']);
      const role = oneOf('role', req.json.role, ROLES) as Role;
      return ok(await setMemberRole(d, req.session, req.params.account!, req.params.user!, role));
    },
  },
  {
    method: 'POST',
    path: '/accounts/{account}/members/{user}/remove',
    body: 'none',
    handler: async (req) => {
      await removeMember(d, req.session, req.params.account!, req.params.user!);
      return ok({ removed: req.params.user! });
    },
  },
  {
    method: 'POST',
    path: '/accounts/{account}/invitations',
    body: 'json',
    handler: async (req) => {
      allowOnly(req.json, ['email', 'role']);
      const role = oneOf('role', req.json.role, ROLES, 'member') as Role;
      const made = await invite(d, req.session, req.params.account!, { email: req.json.email, role });
      return ok({ ...made.invitation, url: `${DASHBOARD_PREFIX}/invite#${made.token}` }, 201);
    },
  },
  {
    method: 'POST',
    path: '/accounts/{account}/invitations/{invitation}/revoke',
    body: 'none',
    handler: async (req) =>
      ok(await revokeInvitation(d, req.session, req.params.account!, req.params.invitation!)),
  },
];
