// Where webhooks may be sent: http(s) URLs only, and by default never to loopback, private, link-local or
// otherwise internal addresses (every address the host name resolves to is checked), so that a webhook
// cannot make Hearth probe the network it runs in.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

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
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ? internal.check(mapped[1], 'ipv4') : internal.check(address, 'ipv6');
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

/** Refuses a URL whose host is, or resolves to, an internal address, unless those are allowed. */
export async function checkWebhookUrl(text: string, allowPrivate: boolean): Promise<URL> {
  const url = parseWebhookUrl(text);
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw new WebhookAddressError(`The host '${host}' of the webhook URL does not resolve.`);
  }
  const refused = addresses.filter(isInternalAddress);
  if (addresses.length === 0 || refused.length > 0) {
    throw new WebhookAddressError(
      `The host '${host}' resolves to an internal address (${refused.join(', ') || 'none'}); set WEBHOOK_ALLOW_PRIVATE=true to allow it.`,
    );
  }
  return url;
}
