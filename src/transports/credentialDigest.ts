/**
 * @module The digest a client transport gives as its cache context's `credential`: SHA-256 of the
 * credentials its requests carry (headers, or a server's environment), so that a cache can tell
 * authorization contexts apart without holding a token or a secret.
 */

/** Hex SHA-256 of `material` (names and values), in the order of the sorted names. */
export async function credentialDigest(
  material: Readonly<Record<string, string>>,
): Promise<string> {
  const sorted = Object.keys(material)
    .sort()
    .map((name) => [name, material[name]]);
  const bytes = new TextEncoder().encode(JSON.stringify(sorted));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
