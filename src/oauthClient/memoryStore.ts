/**
 * @module The default OAuth store: credentials in this process's memory, gone when it ends.
 */
import type { OAuthStore, StoredClient, StoredTokens, TokenKey } from './types.js';

/** Length-prefixed, so that no issuer and resource spell another pair's key. */
function keyOf(key: TokenKey): string {
  return `${key.issuer.length}:${key.issuer}${key.resource}`;
}

/** Keeps credentials in memory. */
export class MemoryOAuthStore implements OAuthStore {
  private readonly tokens = new Map<string, StoredTokens>();
  private readonly clients = new Map<string, StoredClient>();
  private readonly issuers = new Map<string, string>();
  /** The exclusive tasks, one at a time (OAuth clients sharing this store refresh in turn). */
  private turn: Promise<unknown> = Promise.resolve();

  async exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.turn.then(task);
    this.turn = run.catch(() => {});
    return run;
  }

  async getTokens(key: TokenKey): Promise<StoredTokens | undefined> {
    return this.tokens.get(keyOf(key));
  }

  async setTokens(key: TokenKey, tokens: StoredTokens): Promise<void> {
    this.tokens.set(keyOf(key), tokens);
  }

  async deleteTokens(key: TokenKey): Promise<void> {
    this.tokens.delete(keyOf(key));
  }

  async getClient(issuer: string): Promise<StoredClient | undefined> {
    return this.clients.get(issuer);
  }

  async setClient(issuer: string, client: StoredClient): Promise<void> {
    this.clients.set(issuer, client);
  }

  async deleteClient(issuer: string): Promise<void> {
    this.clients.delete(issuer);
  }

  async getIssuerOf(resource: string): Promise<string | undefined> {
    return this.issuers.get(resource);
  }

  async setIssuerOf(resource: string, issuer: string): Promise<void> {
    this.issuers.set(resource, issuer);
  }
}
