// Addresses as text, written one way: the address a socket gives and one an operator configures
// are compared as strings (TRUSTED_PROXIES against a request's peer).
import ipaddr from 'ipaddr.js';

/**
 * An IP address written one way: an IPv4 address in IPv6 (`::ffff:a.b.c.d`) as the IPv4 address,
 * IPv6 as RFC 5952 writes it (lower case, the longest run of zero groups as `::`). For a valid
 * address only.
 */
export function canonicalAddress(ip: string): string {
  return ipaddr.process(ip).toString();
}

/**
 * A socket's address as text from its bytes as the transport gives them: four on an IPv4
 * socket, sixteen on an IPv6 one, written as canonicalAddress writes it; `-` for none (a socket
 * already closed).
 */
export function addressText(b: Uint8Array): string {
  if (b.length === 4) return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`;
  if (b.length !== 16) return '-';
  let zeros = true;
  for (let i = 0; i < 10 && zeros; i++) zeros = b[i] === 0;
  if (zeros && b[10] === 0xff && b[11] === 0xff) return `${b[12]}.${b[13]}.${b[14]}.${b[15]}`;
  return ipaddr.fromByteArray([...b]).toString();
}
