/**
 * @module Authenticated `tasks/list` cursors. A cursor carries an HMAC-SHA-256 (cut to 128 bits)
 * of the position it names and of its owner, under a secret of the store, so a tampered, forged or
 * another owner's cursor is refused (-32602) instead of being read as some other position.
 * WebCrypto, so it runs wherever the core does (no `node:crypto` in L2).
 */

const encoder = new TextEncoder();

/** Length of a MAC in a cursor: 16 bytes in base64url. */
export const CURSOR_MAC_LENGTH = 22;

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** 32 random bytes in base64url: a secret for {@link CursorMac}. */
export function randomSecret(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return base64url(bytes);
}

/** Signs and checks cursor positions with one secret. */
export class CursorMac {
  private key: Promise<CryptoKey> | undefined;

  constructor(readonly secret: string = randomSecret()) {}

  /** The MAC of `position` for `owner` (the owner is part of what is signed). */
  async sign(owner: string, position: string): Promise<string> {
    this.key ??= crypto.subtle.importKey(
      'raw',
      encoder.encode(this.secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    // A position never holds a newline, so "owner\nposition" names exactly one pair.
    const mac = await crypto.subtle.sign(
      'HMAC',
      await this.key,
      encoder.encode(`${owner}\n${position}`),
    );
    return base64url(new Uint8Array(mac, 0, 16));
  }

  /** True when `mac` is the MAC of `position` for `owner`; compared in constant time. */
  async verify(owner: string, position: string, mac: string): Promise<boolean> {
    const expected = await this.sign(owner, position);
    if (expected.length !== mac.length) return false;
    let difference = 0;
    for (let i = 0; i < expected.length; i++)
      difference |= expected.charCodeAt(i) ^ mac.charCodeAt(i);
    return difference === 0;
  }
}
