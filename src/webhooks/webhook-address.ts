// Where webhooks may be sent: http(s) URLs only, and by default never to loopback, private, link-local or
// otherwise internal addresses (every address the host name resolves to is checked, and IPv4 addresses written
// as IPv6 are judged as IPv4), so that a webhook cannot make Hearth probe the network it runs in.
import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { embeddedIpv4 } from './embedded-ipv4.js';

/** Resolves a host name to every address it has (DNS by default; tests inject their own). */
export type Resolve = (host: string) => Promise<LookupAddress[]>;
const resolveByDns: Resolve = (host) => lookup(host, { all: true, verbatim: true });

const internal = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  internal.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  // NAT64 for local use (RFC 8215): whatever it translates to is on the operator's own network.
  ['64:ff9b:1::', 48],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  internal.addSubnet(net, prefix, 'ipv6');

class WebhookAddressError extends Error {}

export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return internal.check(address, 'ipv4');
  if (family !== 6) return true;
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1, 64:ff9b::127.0.0.1, 2002:7f00:1::) is judged as the IPv4 address it is.
  return internal.check(address, 'ipv6') || embeddedIpv4(address).some((v4) => internal.check(v4, 'ipv4'));
}

/** Parses a receiver URL; throws a WebhookAddressError saying why it is refused. */
function parseWebhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookAddressError(`'${text}' is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WebhookAddressError(`Webhook URLs must be http or https, not '${url.protocol}'.`);
  if (url.hostname === '') throw new WebhookAddressError('A webhook URL needs a host.');
  if (url.username || url.password)
    throw new WebhookAddressError('A webhook URL must not carry a user name or password.');
  return url;
}

/** A receiver URL, its host (without brackets) and the addresses it was checked to have: connect to those only. */
export interface CheckedUrl {
  url: URL;
  host: string;
  addresses: LookupAddress[];
}

/**
 * Resolves a receiver URL's host once and refuses it when any address is internal, unless those are allowed.
 * The sender connects to the addresses returned, never resolving again, so DNS cannot answer otherwise between
 * the check and the connection (rebinding).
 */
export async function resolveWebhookUrl(
  text: string,
  allowPrivate: boolean,
  resolve: Resolve = resolveByDns,
): Promise<CheckedUrl> {
  const url = parseWebhookUrl(text);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(host);
  let addresses: LookupAddress[];
  try {
    addresses = family === 0 ? await resolve(host) : [{ address: host, family }];
  } catch {
    throw new WebhookAddressError(`The host '${host}' of the webhook URL does not resolve.`);
  }
  if (addresses.length === 0) throw new WebhookAddressError(`The host '${host}' of the webhook URL does not resolve.`);
  const refused = allowPrivate ? [] : addresses.map((a) => a.address).filter(isInternalAddress);
  if (refused.length > 0) {
    throw new WebhookAddressError(
      `The host '${host}' resolves to an internal address (${refused.join(', ')}); set WEBHOOK_ALLOW_PRIVATE=true to allow it.`,
    );
  }
  return { url, host, addresses };
}

/** Refuses a URL whose host is, or resolves to, an internal address, unless those are allowed (then it is not resolved). */
export async function checkWebhookUrl(text: string, allowPrivate: boolean, resolve?: Resolve): Promise<URL> {
  if (allowPrivate) return parseWebhookUrl(text);
  return (await resolveWebhookUrl(text, false, resolve)).url;
}
