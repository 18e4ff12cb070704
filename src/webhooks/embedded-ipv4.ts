// The IPv4 addresses an IPv6 address carries inside it (mapped, compatible, translated, NAT64, 6to4, Teredo),
// so that an internal IPv4 address cannot be reached by writing it as IPv6.
import { isIP } from 'node:net';

/** The eight 16-bit groups of an IPv6 address in any textual form (a zone `%eth0` is ignored); null if not IPv6. */
export function ipv6Groups(address: string): number[] | null {
  const text = address.replace(/%.*$/, '');
  if (isIP(text) !== 6) return null;
  const [head = '', tail] = text.split('::');
  const part = (piece: string): number[] =>
    piece === ''
      ? []
      : piece.split(':').flatMap((group) => {
          if (!group.includes('.')) return [Number.parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const left = part(head);
  if (tail === undefined) return left;
  const right = part(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const ipv4 = (high: number, low: number): string => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
const zero = (groups: readonly number[]): boolean => groups.every((g) => g === 0);

/** Every IPv4 address `address` embeds by a known translation or tunnel; empty for a plain IPv6 address. */
export function embeddedIpv4(address: string): string[] {
  const g = ipv6Groups(address);
  if (!g) return [];
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const last = ipv4(g6, g7);
  // ::a.b.c.d (compatible, deprecated), ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated, RFC 2765).
  if (zero([g0, g1, g2, g3]) && ((g4 === 0 && (g5 === 0 || g5 === 0xffff)) || (g4 === 0xffff && g5 === 0)))
    return [last];
  // 64:ff9b::a.b.c.d (NAT64's well-known prefix, RFC 6052).
  if (g0 === 0x64 && g1 === 0xff9b && zero([g2, g3, g4, g5])) return [last];
  // 2002:aabb:ccdd::/48 (6to4, RFC 3056): the IPv4 address follows the prefix.
  if (g0 === 0x2002) return [ipv4(g1, g2)];
  // 2001:0:ssss:ssss::/32 (Teredo, RFC 4380): the server's address, and the client's with every bit inverted.
  if (g0 === 0x2001 && g1 === 0) return [ipv4(g2, g3), ipv4(~g6 & 0xffff, ~g7 & 0xffff)];
  return [];
}
