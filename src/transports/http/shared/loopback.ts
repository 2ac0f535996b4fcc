/**
 * @module Whether an address a server binds is a loopback one (reachable from this machine only):
 * `localhost`, 127.0.0.0/8, `::1` and 127.0.0.0/8 mapped into IPv6, in any spelling. Everything
 * else (`0.0.0.0`, `::`, a LAN address, another host name) may be reachable from the network.
 */

/** True for a loopback bind address. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  let hostname: string;
  try {
    // The URL parser writes addresses canonically: 127.1 -> 127.0.0.1, 0:0::1 -> [::1].
    hostname = new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}/`).hostname;
  } catch {
    return false;
  }
  if (hostname === 'localhost') return true;
  if (/^127\./.test(hostname) && /^[\d.]+$/.test(hostname)) return true;
  // ::ffff:127.x.y.z is written [::ffff:7fxx:yyzz].
  return hostname === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(hostname);
}
