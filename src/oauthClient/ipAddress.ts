/**
 * @module What kind of network an IP address is on, for the OAuth client's SSRF guard: metadata
 * and endpoints named by a server must not make the client fetch from this machine, the local
 * network or the cloud's link-local metadata service unless the application allows it.
 */

/** The kind of an address: anything that is not `public` is refused by default. */
export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'reserved';

/** The four bytes of a dotted IPv4 address, or undefined. */
function ipv4Bytes(address: string): number[] | undefined {
  const parts = address.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : undefined;
}

function ipv4Kind([a, b]: number[]): AddressKind {
  if (a === undefined || b === undefined) return 'reserved';
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private'; // carrier-grade NAT
  if (a === 169 && b === 254) return 'link-local';
  if (a === 0 || a >= 224) return 'reserved'; // "this network", multicast, broadcast
  return 'public';
}

/** The eight 16-bit groups of an IPv6 address (embedded IPv4 included), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.replace(/%.*$/, ''); // a zone (fe80::1%eth0)
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1]) {
    const bytes = ipv4Bytes(v4[1]);
    if (!bytes) return undefined;
    const [a = 0, b = 0, c = 0, d = 0] = bytes;
    text = `${text.slice(0, -v4[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const head = parse(halves[0] ?? '');
  const tail = halves.length === 2 ? parse(halves[1] ?? '') : [];
  const fill = 8 - head.length - tail.length;
  if (halves.length === 1 ? fill !== 0 : fill < 1) return undefined;
  const groups = [...head, ...Array<number>(halves.length === 2 ? fill : 0).fill(0), ...tail];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

function ipv6Kind(groups: number[]): AddressKind {
  const [g0 = 0, , , , , g5 = 0, g6 = 0, g7 = 0] = groups;
  const zeroUpTo = (n: number) => groups.slice(0, n).every((g) => g === 0);
  if (zeroUpTo(7) && g7 === 1) return 'loopback';
  if (zeroUpTo(8)) return 'reserved';
  // IPv4-mapped (::ffff:a.b.c.d) and the NAT64 prefix carry an IPv4 address.
  if ((zeroUpTo(5) && g5 === 0xffff) || (g0 === 0x64 && groups[1] === 0xff9b))
    return ipv4Kind([g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff]);
  if ((g0 & 0xfe00) === 0xfc00) return 'private'; // unique local fc00::/7
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xff00) === 0xff00) return 'reserved'; // multicast
  return 'public';
}

/** The kind of an IP address literal (IPv4, or IPv6 with or without brackets); undefined if not one. */
export function addressKind(address: string): AddressKind | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const v4 = ipv4Bytes(bare);
  if (v4) return ipv4Kind(v4);
  if (!bare.includes(':')) return undefined;
  const v6 = ipv6Groups(bare);
  return v6 ? ipv6Kind(v6) : undefined;
}
