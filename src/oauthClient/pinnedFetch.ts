/**
 * @module Requests of the OAuth client that connect where the address check said: Node's http
 * and https, with a `lookup` that answers the addresses checked instead of resolving the host
 * name again. A DNS answer that changes between the check and the connection (DNS rebinding: a
 * public address for the check, then 127.0.0.1 or the cloud metadata service for the
 * connection) can then no longer send a request into this machine or the local network. The URL
 * keeps its host name, so the Host header, TLS SNI and the certificate check are the host
 * name's, as with fetch. Node's modules are found at run time, so that this file stays
 * runtime-neutral: elsewhere there is no pinned fetch, and the client uses `fetch`.
 */
import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type { LookupFunction } from 'node:net';
import type * as Stream from 'node:stream';
import type { CheckedAddress } from './networkPolicy.js';

/** One request of the OAuth client. */
export interface PinnedRequest {
  readonly method: 'GET' | 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
  readonly signal: AbortSignal;
}

/**
 * Sends `request` to `url` over a new connection to one of `addresses` (those its host name was
 * checked at); redirects are not followed. Resolves with the response as fetch would.
 */
export type PinnedFetch = (
  url: URL,
  request: PinnedRequest,
  addresses: readonly CheckedAddress[],
) => Promise<Response>;

/** TLS settings of the connections (the platform's by default). */
export interface PinnedFetchOptions {
  /** Certificate authorities to trust instead of Node's (tests, private PKI). */
  readonly ca?: string | readonly string[];
}

interface NodeModules {
  readonly http: typeof Http;
  readonly https: typeof Https;
  readonly stream: typeof Stream;
}

type Host = { getBuiltinModule?: (id: string) => unknown } | undefined;

async function load<T>(host: NonNullable<Host>, id: string): Promise<T | undefined> {
  const builtin = host.getBuiltinModule?.(id) as T | undefined;
  if (builtin) return builtin;
  return (await import(/* @vite-ignore */ id).catch(() => undefined)) as T | undefined;
}

async function nodeModules(): Promise<NodeModules | undefined> {
  const host = (globalThis as { process?: Host }).process;
  if (!host) return undefined;
  const [http, https, stream] = await Promise.all([
    load<typeof Http>(host, 'node:http'),
    load<typeof Https>(host, 'node:https'),
    load<typeof Stream>(host, 'node:stream'),
  ]);
  return http?.request && https?.request && stream?.Readable?.toWeb
    ? { http, https, stream }
    : undefined;
}

function lookupFailure(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${hostname}: no checked address to connect to`), {
    code: 'ENOTFOUND',
  });
}

/**
 * A `lookup` for a connection to `hostname` that answers only `addresses` (of the family asked
 * for, when one is), never asking DNS.
 */
export function pinnedLookup(
  hostname: string,
  addresses: readonly CheckedAddress[],
): LookupFunction {
  return (name, options, callback) => {
    const asked = options.family;
    const family = asked === 4 || asked === 'IPv4' ? 4 : asked === 6 || asked === 'IPv6' ? 6 : 0;
    const usable = addresses.filter((a) => family === 0 || a.family === family);
    const first = usable[0];
    if (name.toLowerCase() !== hostname.toLowerCase() || !first) {
      callback(lookupFailure(name), '', 0);
      return;
    }
    if (options.all)
      callback(
        null,
        usable.map((a) => ({ address: a.address, family: a.family })),
      );
    else callback(null, first.address, first.family);
  };
}

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** The pinned fetch of this runtime: Node's http and https; undefined elsewhere. */
export async function nodePinnedFetch(
  options: PinnedFetchOptions = {},
): Promise<PinnedFetch | undefined> {
  const modules = await nodeModules();
  if (!modules) return undefined;
  const { http, https, stream } = modules;
  return (url, request, addresses) =>
    new Promise<Response>((resolve, reject) => {
      const body = request.body === undefined ? undefined : new TextEncoder().encode(request.body);
      const headers = {
        ...request.headers,
        ...(body !== undefined ? { 'content-length': String(body.byteLength) } : {}),
      };
      const settings: Https.RequestOptions = {
        method: request.method,
        headers,
        signal: request.signal,
        lookup: pinnedLookup(url.hostname, addresses),
        // A connection of its own: never one pooled for an address checked earlier.
        agent: false,
        ...(options.ca !== undefined ? { ca: options.ca as string | string[] } : {}),
      };
      const sent =
        url.protocol === 'https:'
          ? https.request(url, settings)
          : http.request(url, settings as Http.RequestOptions);
      sent.once('error', reject);
      sent.once('response', (answer) => {
        const received = new Headers();
        const raw = answer.rawHeaders;
        try {
          for (let i = 0; i + 1 < raw.length; i += 2)
            received.append(raw[i] as string, raw[i + 1] as string);
          const status = answer.statusCode ?? 0;
          if (NULL_BODY.has(status)) answer.resume();
          const content = NULL_BODY.has(status)
            ? null
            : (stream.Readable.toWeb(answer) as unknown as ReadableStream<Uint8Array>);
          resolve(
            new Response(content, {
              status,
              statusText: answer.statusMessage ?? '',
              headers: received,
            }),
          );
        } catch (error) {
          // A status or header the Response constructor refuses.
          answer.destroy();
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
      sent.end(body);
    });
}
