/**
 * @module The key an anonymous HTTP caller is rate-limited by: its network address. An IPv6
 * client usually holds a whole /64 (and can pick any address in it), so IPv6 addresses are cut
 * to their first four groups; IPv4 addresses mapped into IPv6 (`::ffff:1.2.3.4`) count as IPv4.
 */

const MAPPED_V4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** Expands an IPv6 address to its eight groups, or undefined when it is not one. */
function ipv6Groups(address: string): string[] | undefined {
  const zone = address.indexOf('%');
  const bare = zone < 0 ? address : address.slice(0, zone);
  const halves = bare.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] === '' ? [] : (halves[0] as string).split(':');
  const tail = halves.length === 2 && halves[1] !== '' ? (halves[1] as string).split(':') : [];
  // A trailing dotted IPv4 part stands for two groups.
  const last = tail.length > 0 ? tail[tail.length - 1] : head[head.length - 1];
  const groupsOfLast = last !== undefined && last.includes('.') ? 2 : 1;
  const given = head.length + tail.length + groupsOfLast - 1;
  if (halves.length === 1 && given !== 8) return undefined;
  if (halves.length === 2 && given > 7) return undefined;
  const zeros = Array.from({ length: halves.length === 2 ? 8 - given : 0 }, () => '0');
  const groups = [...head, ...zeros, ...tail];
  if (!groups.slice(0, 4).every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  return groups;
}

/**
 * The rate-limit key of a client address: IPv4 as is, IPv4-mapped IPv6 as IPv4, other IPv6 as
 * its /64 prefix (`2001:db8:1:2::/64`). Anything unrecognised is returned unchanged.
 */
export function clientAddressKey(address: string): string {
  if (address === lastAddress) return lastKey;
  lastKey = keyOf(address);
  lastAddress = address;
  return lastKey;
}

// Requests come in runs from one address (a connection's): the last key is kept.
let lastAddress: string | undefined;
let lastKey = '';

function keyOf(address: string): string {
  const mapped = MAPPED_V4.exec(address);
  if (mapped) return mapped[1] as string;
  if (!address.includes(':')) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  const prefix = groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''));
  return `${prefix.join(':')}::/64`;
}
