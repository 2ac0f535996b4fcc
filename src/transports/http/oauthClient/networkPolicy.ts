/**
 * @module Where the OAuth client may send requests and the user. Metadata, authorization and
 * token endpoints come from documents a server serves, so each URL is checked before it is used
 * (and at every redirect hop): `https` only, `http` only on a loopback host when the application
 * opts in for development; no credentials in the URL; and no address on this machine, the local
 * network or a link-local range (the cloud metadata service) unless allowed, host names resolved
 * first (SSRF, RELIABILITY.md).
 */
import { isLoopbackHost } from '../loopback.js';
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

/**
 * Throws unless `url` may be fetched for `role`: its scheme (see {@link checkScheme}) and every
 * address its host stands for.
 */
export async function checkDestination(
  url: URL,
  policy: NetworkPolicy,
  role: string,
): Promise<void> {
  checkScheme(url, policy, role);
  const host = url.hostname;
  const literal = addressKind(host);
  const addresses: Array<[string, AddressKind]> = [];
  if (literal) addresses.push([host, literal]);
  else if (host === 'localhost' || host.endsWith('.localhost')) addresses.push([host, 'loopback']);
  else if (policy.resolveHost) {
    let resolved: readonly string[];
    try {
      resolved = await policy.resolveHost(host);
    } catch (error) {
      throw new OAuthError(
        'forbidden_address',
        `${role} ${redact(url)}: ${host} does not resolve`,
        {
          cause: error,
        },
      );
    }
    for (const address of resolved) addresses.push([address, addressKind(address) ?? 'reserved']);
  }
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
