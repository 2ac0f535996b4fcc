/**
 * @module `toolwire/node`: running `toolwire/http`'s handler on Node's `http` server, and the
 * Node pieces of the OAuth client: a credentials file, the loopback redirect receiver, and a
 * browser opener.
 */
export {
  serveHttp,
  toNodeListener,
  toRequest,
  writeResponse,
} from './transports/http/server/adapters/node.js';
export { isLoopbackHost } from './transports/http/shared/loopback.js';
export type {
  FetchHandler,
  HttpListener,
  ServeHttpOptions,
} from './transports/http/server/adapters/node.js';
export { FileOAuthStore } from './oauthClient/fileStore.js';
export type {
  FileOAuthStoreOptions,
  ForgottenResource,
  StoredTokensEntry,
} from './oauthClient/fileStore.js';
export {
  CredentialsFileError,
  defaultCredentialsPath,
  // The credentials file's checked read and atomic 0600 write, for any file of the user's own.
  readCredentialsText,
  writeCredentialsText,
} from './oauthClient/credentialsFile.js';
export type {
  CredentialsFileProblem,
  CredentialsPathContext,
} from './oauthClient/credentialsFile.js';
// The lock processes take to change such a file together (read, change, write: none lost).
export { withCredentialsLock } from './oauthClient/credentialsLock.js';
export type { CredentialsLockOptions } from './oauthClient/credentialsLock.js';
export {
  DEFAULT_REDIRECT_TIMEOUT_MS,
  LoopbackRedirectReceiver,
} from './oauthClient/loopbackReceiver.js';
export type { LoopbackRedirectReceiverOptions } from './oauthClient/loopbackReceiver.js';
export {
  authorizationUrlProblem,
  browserOpener,
  openInBrowser,
} from './oauthClient/browserOpener.js';
export type {
  OpenInBrowserOptions,
  SpawnedOpener,
  SpawnFunction,
} from './oauthClient/browserOpener.js';
