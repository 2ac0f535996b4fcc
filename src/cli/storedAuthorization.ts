/**
 * @module The authorization `list` and `call` give a URL's transport: the tokens `toolwire login`
 * stored, used and refreshed, never a new authorization (that is login's, with a browser). A
 * credentials file that cannot be used (readable by others, corrupt...) stops only a server that
 * asks for a token: one that asks for none works as it did before there were logins.
 */
import type { ChallengeContext, HttpAuthorization } from '../http.js';
import { OAuthClient, resourceKeyOf } from '../oauthClient/oauthClient.js';
import { CredentialsFileError } from '../oauthClient/credentialsFile.js';
import { FileOAuthStore } from '../oauthClient/fileStore.js';
import type { ServerTarget } from './args.js';
import { shellWords } from './failure.js';
import { packageVersion } from './version.js';

/** Scopes that are not the server's to need: the authorization server's own. */
const NOT_RESOURCE_SCOPES = new Set(['offline_access', 'openid']);

/** The stored tokens as a transport's authorization. */
export class StoredAuthorization implements HttpAuthorization {
  /** Whether a token was sent: the server is one that takes them. */
  private sent = false;

  constructor(
    /** The server's URL as the command line gave it. */
    private readonly url: string,
    private readonly store: FileOAuthStore,
    private readonly oauth: OAuthClient,
  ) {}

  async header(endpoint: URL, signal?: AbortSignal): Promise<string | undefined> {
    let header: string | undefined;
    try {
      header = await this.oauth.header(endpoint, signal);
    } catch (error) {
      // Sent without a token: a 401 reads the file again and fails with its problem and fix.
      if (error instanceof CredentialsFileError) return undefined;
      throw error;
    }
    if (header !== undefined) this.sent = true;
    return header;
  }

  challenged(endpoint: URL, response: Response, context: ChallengeContext): Promise<boolean> {
    return this.oauth.challenged(endpoint, response, context);
  }

  /**
   * What an "unknown tool" adds when the server took the login's tokens: a toolwire server (and
   * others) hides the tools a token's scopes do not cover, so the tool may be there. Empty when
   * no token was sent. Reads the store for a message, never on a request's way.
   */
  async hiddenToolHint(): Promise<string> {
    const scopes = this.sent ? await this.scopesHeld().catch(() => undefined) : undefined;
    if (scopes === undefined) return '';
    const login = shellWords([
      'toolwire',
      'login',
      this.url,
      ...scopes.flatMap((s) => ['--scope', s]),
    ]);
    return (
      `\nThe server may hide tools that need scopes your login lacks (it holds: ` +
      `${scopes.join(' ') || 'none'}). To ask for more: ${login} --scope <scope>`
    );
  }

  /** The scopes of the tokens held for the server (its own, not `offline_access`). */
  private async scopesHeld(): Promise<string[] | undefined> {
    const resource = resourceKeyOf(this.url);
    const issuer = await this.store.getIssuerOf(resource);
    const tokens =
      issuer === undefined ? undefined : await this.store.getTokens({ issuer, resource });
    if (!tokens) return undefined;
    return (tokens.scope ?? '').split(' ').filter((s) => s !== '' && !NOT_RESOURCE_SCOPES.has(s));
  }
}

/**
 * The authorization of a URL target; none when the command line gives an Authorization header
 * of its own.
 */
export function storedAuthorization(
  target: ServerTarget & { kind: 'url' },
): StoredAuthorization | undefined {
  if (Object.keys(target.headers).some((name) => name.toLowerCase() === 'authorization'))
    return undefined;
  const store = new FileOAuthStore();
  return new StoredAuthorization(
    target.url,
    store,
    new OAuthClient({
      store,
      clientName: 'toolwire',
      softwareVersion: packageVersion(),
      allowLoopbackHttp: target.allowLoopbackHttp,
    }),
  );
}
