/**
 * @module Where the OAuth client may send requests and the user. Metadata, authorization and
 * token endpoints come from documents a server serves, so each URL is checked before it is used
 * (and at every redirect hop): `https` only, `http` only on a loopback host when the application
 * opts in for development; no credentials in the URL; and no address on this machine, the local
 * network or a link-local range (the cloud metadata service) unless allowed, host names resolved
 * first (SSRF, RELIABILITY.md). The addresses checked are the ones connected to (see
 * pinnedFetch.ts): a host name is not resolved a second time by the connection, which could
 * answer differently (DNS rebinding).
 */
import { isLoopbackHost } from '../transports/http/shared/loopback.js';
import { addressKind, type AddressKind } from './ipAddress.js';
import { OAuthError } from './oauthError.js';

/** Resolves a host name to its IP addresses. */
export type HostResolver = (hostname: string) => Promise<readonly string[]>;

/** What the application allows the OAuth client to reach. */
export interface NetworkPolicy {
  /** `http:` URLs on loopback hosts, and loopback addresses (development). */
  readonly allowLoopbackHttp: boolean;
  /** Private, loopback and link-local addresses. */
  readonly allowPrivateNetwork: boolean;
  /** Resolves host names before they are fetched; undefined: only address literals are checked. */
  readonly resolveHost: HostResolver | undefined;
}

/**
 * Throws unless `url` may be used for `role` ("the token endpoint"...): https, or http on a
 * loopback host when allowed; no user name or password in it.
 */
export function checkScheme(url: URL, policy: NetworkPolicy, role: string): void {
  if (url.username !== '' || url.password !== '')
    throw new OAuthError('insecure_url', `${role} ${redact(url)} carries credentials in its URL`);
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && policy.allowLoopbackHttp && isLoopbackHost(url.hostname)) return;
  throw new OAuthError(
    'insecure_url',
    `${role} ${redact(url)} is not https` +
      (url.protocol === 'http:' && isLoopbackHost(url.hostname)
        ? ' (http on a loopback host needs allowLoopbackHttp)'
        : ''),
  );
}

function allowed(kind: AddressKind, policy: NetworkPolicy): boolean {
  if (kind === 'public') return true;
  if (kind === 'loopback') return policy.allowLoopbackHttp || policy.allowPrivateNetwork;
  return policy.allowPrivateNetwork;
}

/** An address a host name was resolved to and checked at. */
export interface CheckedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/**
 * Throws unless `url` may be fetched for `role`: its scheme (see {@link checkScheme}) and every
 * address its host stands for. Resolves with the addresses checked when the host is a name that
 * was resolved (the connection must go to one of them), undefined when it is an address literal
 * or there is no resolver.
 */
export async function checkDestination(
  url: URL,
  policy: NetworkPolicy,
  role: string,
): Promise<readonly CheckedAddress[] | undefined> {
  checkScheme(url, policy, role);
  const host = url.hostname;
  const literal = addressKind(host);
  if (literal) {
    refuse([[host, literal]], policy, { url, role });
    return undefined;
  }
  const localhost = host === 'localhost' || host.endsWith('.localhost');
  if (!policy.resolveHost) {
    if (localhost) refuse([[host, 'loopback']], policy, { url, role });
    return undefined;
  }
  let resolved: readonly string[];
  try {
    resolved = await policy.resolveHost(host);
  } catch (error) {
    throw new OAuthError('forbidden_address', `${role} ${redact(url)}: ${host} does not resolve`, {
      cause: error,
    });
  }
  const kinds = resolved.map((address): [string, AddressKind] => [
    address,
    addressKind(address) ?? 'reserved',
  ]);
  // "localhost" is this machine (RFC 6761), whatever a resolver says: only its loopback addresses.
  const usable = localhost ? kinds.filter(([, kind]) => kind === 'loopback') : kinds;
  if (usable.length === 0)
    throw new OAuthError(
      'forbidden_address',
      `${role} ${redact(url)}: ${host} resolves to no ${localhost ? 'loopback ' : ''}address`,
    );
  refuse(usable, policy, { url, role });
  return usable.map(([address]) => ({ address, family: address.includes(':') ? 6 : 4 }));
}

/** Throws for the first address the policy does not allow. */
function refuse(
  addresses: ReadonlyArray<readonly [string, AddressKind]>,
  policy: NetworkPolicy,
  { url, role }: { url: URL; role: string },
): void {
  for (const [address, kind] of addresses)
    if (!allowed(kind, policy))
      throw new OAuthError(
        'forbidden_address',
        `${role} ${redact(url)} is on a ${kind} address (${address}); ` +
          (kind === 'loopback'
            ? 'allowLoopbackHttp or allowPrivateNetwork allows it'
            : 'allowPrivateNetwork allows it'),
      );
}

/** A URL as shown in messages: without its query (codes, states) and fragment. */
export function redact(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

interface DnsModule {
  promises: {
    lookup(
      host: string,
      options: { all: true; verbatim: boolean },
    ): Promise<Array<{ address: string }>>;
  };
}

/**
 * The runtime's resolver: Node's `dns.lookup` (what fetch itself uses), found without a static
 * import so that this file stays runtime-neutral; undefined elsewhere.
 */
export async function defaultResolver(): Promise<HostResolver | undefined> {
  const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  let dns = host?.getBuiltinModule?.('node:dns') as DnsModule | undefined;
  if (!dns && host) {
    const id = 'node:dns';
    dns = (await import(/* @vite-ignore */ id).catch(() => undefined)) as DnsModule | undefined;
  }
  if (!dns?.promises) return undefined;
  const lookup = dns.promises.lookup.bind(dns.promises);
  return async (hostname) =>
    (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);
}
