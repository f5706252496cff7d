/**
 * Where webhooks may be sent (docs/design.md: target URLs that resolve to loopback, private or link-local addresses are
 * refused unless a setting allows them; the check is repeated at delivery time). Used at registration (create and
 * PATCH) and by the delivery worker's connection lookup.
 */
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { businessRule } from '../errors.js';

/**
 * Why an address may not be a webhook target, or null when it may. Only globally routable unicast addresses
 * pass: loopback, private (RFC 1918), link-local (169.254.0.0/16, so the cloud metadata address 169.254.169.254),
 * unique-local (fc00::/7, so fd00:ec2::254), CGNAT (100.64.0.0/10), unspecified, multicast, broadcast, reserved,
 * and the IPv6 forms that embed an IPv4 address (mapped, 6to4, Teredo, NAT64) are refused. IPv4-mapped IPv6
 * addresses (`::ffff:a.b.c.d`) are judged as the IPv4 address they carry. The whole IPv4-compatible range `::/96`
 * (`::a.b.c.d`, deprecated by RFC 4291 §2.5.5.1) is refused as `ipv4Compatible`, whatever it embeds: ipaddr.js
 * classes it as unicast, so `[::127.0.0.1]` and `[::169.254.169.254]` would otherwise pass. Classification
 * by `ipaddr.js`.
 */
export function refusedAddress(address: string): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.process(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return 'not an IP address';
  }
  const range = ip.range();
  if (range !== 'unicast') return range;
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0))
    return 'ipv4Compatible';
  return null;
}

/** Thrown when a target resolves to an address the policy refuses (carried into the attempt's `error`). */
export class RefusedTargetError extends Error {
  readonly code = 'EREFUSEDTARGET';
}

/**
 * The refusal, without the address or its range: a tenant must not learn how internal names resolve (the detail
 * goes to the server log at delivery time, never into API answers).
 */
function refusedMessage(host: string): string {
  return `${host} does not resolve to public addresses only; webhook targets must be public`;
}

/**
 * A `lookup` for node:http(s) that refuses hosts resolving (any of their addresses) to a refused address: the
 * delivery-time check runs in the very lookup the connection uses, so DNS rebinding between a check and the
 * connect cannot get through.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) {
      callback(err, '', 0);
      return;
    }
    for (const { address } of addresses) {
      const range = refusedAddress(address);
      if (range) {
        callback(new RefusedTargetError(refusedMessage(hostname)), '', 0);
        return;
      }
    }
    const [first] = addresses;
    if (!first)
      callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
    else if (options.all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
    else callback(null, first.address, first.family);
  });
};

/** The URL's host without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * Delivery-time check of a URL whose host is an IP literal (no lookup happens for those), and of a URL that carries
 * credentials (stored before registration refused them: never sent as an `Authorization` header).
 * @throws RefusedTargetError when refused.
 */
export function checkLiteralTarget(url: URL, allowPrivate: boolean): void {
  if (url.username !== '' || url.password !== '')
    throw new RefusedTargetError('webhook URLs must not carry credentials (user:password@)');
  if (allowPrivate) return;
  if (url.protocol !== 'https:') throw new RefusedTargetError('plain http targets are not allowed');
  const host = hostOf(url);
  if (!ipaddr.isValid(host)) return;
  const range = refusedAddress(host);
  if (range) throw new RefusedTargetError(refusedMessage(host));
}

const LOOKUP_TIMEOUT_MS = 5_000;

/**
 * The registration-time check of a target URL (create and PATCH): no credentials in it (`https://user:pass@host/`:
 * they would be stored and shown to every admin, and `https://127.0.0.1:443@8.8.8.8/` hides its real host behind
 * them; refused whatever the private-target setting), https (http only when private targets are allowed), and a host
 * whose every address is public unless private targets are allowed.
 * @throws AppError 422 `validation_failed` naming `/url`.
 */
export async function assertAllowedTarget(raw: string, allowPrivate: boolean): Promise<void> {
  const refuse = (message: string) => businessRule(message, [{ location: 'body', path: '/url', message }]);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('url is not a valid absolute URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('url must use https.');
  if (url.username !== '' || url.password !== '' || /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(raw))
    throw refuse(
      'url must not carry credentials (user:password@host); authenticate deliveries by their signature instead.',
    );
  if (allowPrivate) return;
  if (url.protocol !== 'https:') throw refuse('url must use https.');
  const host = hostOf(url);
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      const found = await Promise.race([
        dns.promises.lookup(host, { all: true, verbatim: true }),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('timeout')), LOOKUP_TIMEOUT_MS).unref(),
        ),
      ]);
      addresses = found.map((a) => a.address);
    } catch {
      // The same answer as for a private address: whether an internal name exists is not for tenants to learn.
      throw refuse(`url ${refusedMessage(host)}.`);
    }
  }
  if (addresses.some((address) => refusedAddress(address) !== null))
    throw refuse(`url ${refusedMessage(host)}.`);
}
