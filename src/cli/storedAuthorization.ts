/**
 * @module The authorization `list` and `call` give a URL's transport: the tokens `toolwire login`
 * stored, used and refreshed, never a new authorization (that is login's, with a browser). A
 * credentials file that cannot be used (readable by others, corrupt...) stops only a server that
 * asks for a token: one that asks for none works as it did before there were logins.
 */
import { OAuthClient, type ChallengeContext, type HttpAuthorization } from '../http.js';
import { CredentialsFileError, FileOAuthStore } from '../node.js';
import type { ServerTarget } from './args.js';
import { packageVersion } from './version.js';

/** The stored tokens as a transport's authorization. */
class StoredAuthorization implements HttpAuthorization {
  constructor(private readonly oauth: OAuthClient) {}

  async header(endpoint: URL, signal?: AbortSignal): Promise<string | undefined> {
    try {
      return await this.oauth.header(endpoint, signal);
    } catch (error) {
      // Sent without a token: a 401 reads the file again and fails with its problem and fix.
      if (error instanceof CredentialsFileError) return undefined;
      throw error;
    }
  }

  challenged(endpoint: URL, response: Response, context: ChallengeContext): Promise<boolean> {
    return this.oauth.challenged(endpoint, response, context);
  }
}

/**
 * The authorization of a URL target; none when the command line gives an Authorization header
 * of its own.
 */
export function storedAuthorization(
  target: ServerTarget & { kind: 'url' },
): HttpAuthorization | undefined {
  if (Object.keys(target.headers).some((name) => name.toLowerCase() === 'authorization'))
    return undefined;
  return new StoredAuthorization(
    new OAuthClient({
      store: new FileOAuthStore(),
      clientName: 'toolwire',
      softwareVersion: packageVersion(),
      allowLoopbackHttp: target.allowLoopbackHttp,
    }),
  );
}
