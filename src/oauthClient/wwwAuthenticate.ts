/**
 * @module Reading the `Bearer` challenge of a `WWW-Authenticate` header (RFC 6750 §3, RFC 9728
 * §5.1): `resource_metadata`, `scope`, `error`. The header may hold several challenges, each with
 * comma-separated `name=value` or `name="quoted value"` parameters, and a token68 form; only the
 * Bearer challenge is read, and a header that cannot be parsed yields no parameters.
 */

/** The parameters of a Bearer challenge, names lowercased. */
export type BearerChallenge = ReadonlyMap<string, string>;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

/** The Bearer challenge's parameters, or undefined when the header has no Bearer challenge. */
export function bearerChallenge(header: string | null): BearerChallenge | undefined {
  if (!header) return undefined;
  let rest = header;
  let current: Map<string, string> | undefined;
  let bearer: Map<string, string> | undefined;
  const skip = (pattern: RegExp) => {
    rest = rest.replace(pattern, '');
  };
  while (rest.length > 0) {
    skip(/^[\s,]+/);
    const name = TOKEN.exec(rest)?.[0];
    if (!name) break;
    rest = rest.slice(name.length);
    const afterSpace = rest.replace(/^\s+/, '');
    if (afterSpace.startsWith('=') && !/^=+\s*(,|$)/.test(afterSpace)) {
      // name=value: a parameter of the current challenge.
      rest = afterSpace.slice(1).replace(/^\s+/, '');
      let value: string;
      if (rest.startsWith('"')) {
        const m = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
        if (!m) break;
        value = (m[1] ?? '').replace(/\\(.)/g, '$1');
        rest = rest.slice(m[0].length);
      } else {
        value = TOKEN.exec(rest)?.[0] ?? '';
        rest = rest.slice(value.length);
      }
      current?.set(name.toLowerCase(), value);
      continue;
    }
    // A scheme name starts a new challenge (a token68 may follow it).
    current = new Map();
    if (name.toLowerCase() === 'bearer' && !bearer) bearer = current;
    const token68 = /^\s+([A-Za-z0-9._~+/-]+=*)\s*(,|$)/.exec(rest);
    if (token68 && !/^\s+[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*=[^=]/.test(rest))
      rest = rest.slice(token68[0].length);
  }
  return bearer;
}
