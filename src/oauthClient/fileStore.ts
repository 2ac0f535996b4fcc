/**
 * @module {@link FileOAuthStore}: the OAuth client's credentials in one JSON file (the command
 * line's store), private to the user (0600 in a 0700 directory), replaced atomically on every
 * change. Each operation reads the file afresh, so several processes share it: a change is made
 * under the file's lock (credentialsLock.ts): the file is read again, the one entry changed, and
 * the whole replaced atomically, so two processes changing it at once (logging in to different
 * servers, refreshing) each keep their change. The OAuth client refreshes under the same lock
 * ({@link FileOAuthStore.exclusive}), so several processes use a refresh token once.
 */
import type { OAuthStore, StoredClient, StoredTokens, TokenKey } from './types.js';
import {
  CredentialsFileError,
  defaultCredentialsPath,
  readCredentialsText,
  writeCredentialsText,
} from './credentialsFile.js';
import { withCredentialsLock } from './credentialsLock.js';

/** The file format's version; a file with a higher one is refused, never overwritten. */
const VERSION = 1;

/** The file's content, in memory. */
interface Credentials {
  /** issuer -> the client's registration with it */
  clients: Map<string, StoredClient>;
  /** issuer -> resource -> tokens */
  tokens: Map<string, Map<string, StoredTokens>>;
  /** resource -> the issuer last used for it */
  issuerOf: Map<string, string>;
}

/** One stored token set, as {@link FileOAuthStore.entries} lists it. */
export interface StoredTokensEntry extends TokenKey {
  readonly tokens: StoredTokens;
}

/** Options of {@link FileOAuthStore}. */
export interface FileOAuthStoreOptions {
  /** The file (default: {@link defaultCredentialsPath}). */
  path?: string;
  /**
   * The lock beside the file (`<path>.lock`): how long a change or a refresh waits for it
   * (default 60 000 ms, then `CredentialsFileError` `locked`), and after how long without
   * renewal a holder's lock is taken over (default 20 000 ms; a holder renews it every 5 s).
   */
  lock?: { waitMs?: number; staleMs?: number };
}

/** What {@link FileOAuthStore.forgetResource} removed. */
export interface ForgottenResource {
  /** The issuers whose tokens for the resource were removed. */
  readonly issuers: readonly string[];
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const optional = (value: unknown, type: 'string' | 'number'): boolean =>
  value === undefined || typeof value === type;

function isTokens(value: unknown): value is StoredTokens {
  return (
    isObject(value) &&
    typeof value['accessToken'] === 'string' &&
    typeof value['tokenType'] === 'string' &&
    optional(value['expiresAt'], 'number') &&
    optional(value['expiresIn'], 'number') &&
    optional(value['refreshToken'], 'string') &&
    optional(value['scope'], 'string')
  );
}

const AUTH_METHODS = new Set(['client_secret_basic', 'client_secret_post', 'none']);
const REGISTRATIONS = new Set(['pre-registered', 'metadata-document', 'dynamic']);

function isClient(value: unknown): value is StoredClient {
  return (
    isObject(value) &&
    typeof value['clientId'] === 'string' &&
    optional(value['clientSecret'], 'string') &&
    AUTH_METHODS.has(value['tokenEndpointAuthMethod'] as string) &&
    REGISTRATIONS.has(value['registration'] as string) &&
    optional(value['clientSecretExpiresAt'], 'number') &&
    (value['redirectUris'] === undefined ||
      (Array.isArray(value['redirectUris']) &&
        value['redirectUris'].every((u) => typeof u === 'string')))
  );
}

/** The entries of a JSON object whose values all pass `check`, or undefined. */
function entriesOf<T>(value: unknown, check: (v: unknown) => v is T): Map<string, T> | undefined {
  if (value === undefined) return new Map();
  if (!isObject(value)) return undefined;
  const map = new Map<string, T>();
  for (const [key, entry] of Object.entries(value)) {
    if (!check(entry)) return undefined;
    map.set(key, entry);
  }
  return map;
}

const isString = (v: unknown): v is string => typeof v === 'string';

/** What is wrong with a file that is not in toolwire's format. */
interface Unusable {
  problem: 'corrupt' | 'newer-version';
  detail: string;
}

/** Parses the file's text. */
function parse(text: string): Credentials | Unusable {
  const corrupt = (detail: string): Unusable => ({ problem: 'corrupt', detail });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return corrupt(`it is not valid JSON (${error instanceof Error ? error.message : ''})`);
  }
  if (!isObject(json)) return corrupt('it does not hold a JSON object');
  if (typeof json['version'] !== 'number') return corrupt('it has no "version"');
  if (json['version'] > VERSION) return { problem: 'newer-version', detail: `${json['version']}` };
  const clients = entriesOf(json['clients'], isClient);
  const perIssuer = entriesOf(json['tokens'], isObject);
  const issuerOf = entriesOf(json['issuerOf'], isString);
  if (!clients) return corrupt('"clients" is not a map of client registrations');
  if (!perIssuer) return corrupt('"tokens" is not a map of issuers');
  if (!issuerOf) return corrupt('"issuerOf" is not a map of resources to issuers');
  const tokens = new Map<string, Map<string, StoredTokens>>();
  for (const [issuer, resources] of perIssuer) {
    const map = entriesOf(resources, isTokens);
    if (!map) return corrupt(`the tokens of ${JSON.stringify(issuer)} are malformed`);
    tokens.set(issuer, map);
  }
  return { clients, tokens, issuerOf };
}

function serialize(credentials: Credentials): string {
  const tokens = [...credentials.tokens].map(
    ([issuer, map]): [string, Record<string, StoredTokens>] => [issuer, Object.fromEntries(map)],
  );
  // Object.fromEntries defines own properties: a key such as "__proto__" stays plain data.
  const json = {
    version: VERSION,
    clients: Object.fromEntries(credentials.clients),
    tokens: Object.fromEntries(tokens),
    issuerOf: Object.fromEntries(credentials.issuerOf),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

/**
 * The OAuth client's credentials in a file only the user can read: registrations keyed by
 * issuer, tokens by issuer and resource, and the issuer last used for each resource. Refuses a
 * file others can read or write, a corrupt one and one a newer toolwire wrote, with a
 * {@link CredentialsFileError} naming the file; never overwrites a file it could not read.
 */
export class FileOAuthStore implements OAuthStore {
  /** The credentials file. */
  readonly path: string;
  private readonly lock: { waitMs?: number; staleMs?: number };

  constructor(options: FileOAuthStoreOptions = {}) {
    this.path = options.path ?? defaultCredentialsPath();
    this.lock = { ...options.lock };
  }

  /**
   * Runs `task` holding the file's lock: no other process (nor another task of this one) changes
   * the file or runs an exclusive task meanwhile; the changes `task` makes itself run at once.
   */
  exclusive<T>(
    task: () => Promise<T>,
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<T> {
    return withCredentialsLock(this.path, task, { ...this.lock, signal: options.signal });
  }

  private async read(): Promise<Credentials> {
    const text = await readCredentialsText(this.path);
    if (text === undefined) return { clients: new Map(), tokens: new Map(), issuerOf: new Map() };
    const parsed = parse(text);
    if (!('problem' in parsed)) return parsed;
    throw new CredentialsFileError(this.path, parsed.problem, {
      message:
        parsed.problem === 'newer-version'
          ? `the credentials file ${this.path} was written by a newer toolwire (format ${parsed.detail}): upgrade toolwire to use it`
          : `the credentials file ${this.path} is corrupt: ${parsed.detail}. Remove it (then log in again) or repair it`,
    });
  }

  /**
   * Applies `change` to the file: to a fresh read under the lock, written back when `change`
   * says so. A change that would write nothing (forgetting what is not there) takes no lock and
   * creates nothing.
   */
  private async change<T>(
    change: (credentials: Credentials) => { result: T; write: boolean },
  ): Promise<T> {
    const unlocked = change(await this.read());
    if (!unlocked.write) return unlocked.result;
    return this.exclusive(async () => {
      const credentials = await this.read();
      const { result, write } = change(credentials);
      if (write) await writeCredentialsText(this.path, serialize(credentials));
      return result;
    });
  }

  async getTokens(key: TokenKey): Promise<StoredTokens | undefined> {
    return (await this.read()).tokens.get(key.issuer)?.get(key.resource);
  }

  async setTokens(key: TokenKey, tokens: StoredTokens): Promise<void> {
    await this.change(({ tokens: all }) => {
      let map = all.get(key.issuer);
      if (!map) all.set(key.issuer, (map = new Map<string, StoredTokens>()));
      map.set(key.resource, { ...tokens });
      return { result: undefined, write: true };
    });
  }

  async deleteTokens(key: TokenKey): Promise<void> {
    await this.change(({ tokens: all }) => {
      const map = all.get(key.issuer);
      const write = map?.delete(key.resource) === true;
      if (map?.size === 0) all.delete(key.issuer);
      return { result: undefined, write };
    });
  }

  async getClient(issuer: string): Promise<StoredClient | undefined> {
    return (await this.read()).clients.get(issuer);
  }

  async setClient(issuer: string, client: StoredClient): Promise<void> {
    await this.change(({ clients }) => {
      clients.set(issuer, { ...client });
      return { result: undefined, write: true };
    });
  }

  async deleteClient(issuer: string): Promise<void> {
    await this.change(({ clients }) => ({ result: undefined, write: clients.delete(issuer) }));
  }

  async getIssuerOf(resource: string): Promise<string | undefined> {
    return (await this.read()).issuerOf.get(resource);
  }

  async setIssuerOf(resource: string, issuer: string): Promise<void> {
    await this.change(({ issuerOf }) => {
      const write = issuerOf.get(resource) !== issuer;
      issuerOf.set(resource, issuer);
      return { result: undefined, write };
    });
  }

  /** Every stored token set (for a listing; the tokens themselves are secrets). */
  async entries(): Promise<StoredTokensEntry[]> {
    const { tokens } = await this.read();
    return [...tokens].flatMap(([issuer, map]) =>
      [...map].map(([resource, stored]) => ({ issuer, resource, tokens: stored })),
    );
  }

  /** Every resource something is stored for (tokens, or the issuer it used). */
  async resources(): Promise<string[]> {
    const { tokens, issuerOf } = await this.read();
    const all = new Set(issuerOf.keys());
    for (const map of tokens.values()) for (const resource of map.keys()) all.add(resource);
    return [...all];
  }

  /**
   * Logs out of a resource: removes its tokens from every issuer and which issuer it used. The
   * client registrations stay (they belong to the issuer and serve its other resources).
   */
  async forgetResource(resource: string): Promise<ForgottenResource> {
    return this.change(({ tokens, issuerOf }) => {
      const issuers: string[] = [];
      for (const [issuer, map] of tokens) {
        if (!map.delete(resource)) continue;
        issuers.push(issuer);
        if (map.size === 0) tokens.delete(issuer);
      }
      const forgotIssuer = issuerOf.delete(resource);
      return { result: { issuers }, write: issuers.length > 0 || forgotIssuer };
    });
  }
}
