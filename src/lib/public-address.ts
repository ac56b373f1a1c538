// Where a webhook may be sent: public unicast addresses only, so that an endpoint an account
// registers cannot reach this machine or the farm's private network (SSRF). The check is made on
// the address the connection actually uses (a lookup for the socket), so a name that resolves to
// a public address when added and to a private one later is still refused.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Whether `ip` is a public unicast address: not loopback, private, link-local, shared (CGNAT), multicast or reserved. */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  return ipaddr.process(ip).range() === 'unicast';
}

/** The IP address a URL's host is written as (without an IPv6 literal's brackets), or null for a name. */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? host : null;
}

export class NotPublicError extends Error {
  readonly code = 'ENOTPUBLIC';
  constructor(host: string, address: string) {
    super(
      host === address
        ? `${address} is not a public address`
        : `${host} resolves to ${address}, which is not a public address`,
    );
  }
}

/** A socket's lookup that fails, naming the address, when the name resolves to any address that is not public. */
export const publicLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) return callback(new NotPublicError(hostname, refused.address), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
};

/** Where `url` leads when it does not lead to a public address: the reason, or null when it does (or cannot be resolved now). */
export async function privateTarget(url: URL): Promise<string | null> {
  const literal = literalAddress(url);
  if (literal) return isPublicAddress(literal) ? null : new NotPublicError(literal, literal).message;
  const addresses = await new Promise<LookupAddress[]>((resolve) =>
    dnsLookup(url.hostname, { all: true }, (err, all) => resolve(err ? [] : all)),
  );
  const refused = addresses.find((a) => !isPublicAddress(a.address));
  return refused ? new NotPublicError(url.hostname, refused.address).message : null;
}
