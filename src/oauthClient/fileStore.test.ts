// FileOAuthStore: the credentials file's permissions, atomic replacement, refusal of corrupt,
// foreign or exposed files, and the keys (issuer; issuer + resource; resource -> issuer).
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CredentialsFileError,
  defaultCredentialsPath,
  writeCredentialsText,
} from './credentialsFile.js';
import { FileOAuthStore } from './fileStore.js';
import type { StoredClient, StoredTokens } from './types.js';

const A = 'https://as-a.example';
const B = 'https://as-b.example';
const R1 = 'https://mcp.example/mcp';
const R2 = 'https://other.example/';

const tokens = (accessToken: string, extra: Partial<StoredTokens> = {}): StoredTokens => ({
  accessToken,
  tokenType: 'Bearer',
  ...extra,
});
const client: StoredClient = {
  clientId: 'cli-1',
  tokenEndpointAuthMethod: 'none',
  registration: 'dynamic',
  redirectUris: ['http://127.0.0.1/callback'],
};

let dir = '';
let path = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolwire-store-'));
  path = join(dir, 'config', 'toolwire', 'credentials.json');
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const mode = (p: string) => statSync(p).mode & 0o777;

/** The error a promise rejects with. */
async function failure(promise: Promise<unknown>): Promise<CredentialsFileError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CredentialsFileError);
  return error as CredentialsFileError;
}

describe('the file', () => {
  it('is created 0600 in a 0700 directory (the parents made too), and holds the format', async () => {
    const store = new FileOAuthStore({ path });
    await store.setTokens({ issuer: A, resource: R1 }, tokens('t1', { expiresAt: 5 }));
    expect(mode(path)).toBe(0o600);
    expect(mode(join(dir, 'config', 'toolwire'))).toBe(0o700);
    expect(mode(join(dir, 'config'))).toBe(0o700);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      version: 1,
      clients: {},
      tokens: { [A]: { [R1]: { accessToken: 't1', tokenType: 'Bearer', expiresAt: 5 } } },
      issuerOf: {},
    });
  });

  it('reading or deleting what is absent creates nothing', async () => {
    const store = new FileOAuthStore({ path });
    expect(await store.getTokens({ issuer: A, resource: R1 })).toBeUndefined();
    expect(await store.getClient(A)).toBeUndefined();
    expect(await store.getIssuerOf(R1)).toBeUndefined();
    await store.deleteTokens({ issuer: A, resource: R1 });
    await store.deleteClient(A);
    expect(await store.forgetResource(R1)).toEqual({ issuers: [] });
    expect(existsSync(join(dir, 'config'))).toBe(false);
  });

  it('is replaced atomically: concurrent writers and readers never see a partial file, no temporary or lock file stays', async () => {
    // Two stores on one file behave as two processes would (each reads the file afresh).
    const one = new FileOAuthStore({ path });
    const two = new FileOAuthStore({ path });
    const writes = Array.from({ length: 20 }, (_, i) =>
      (i % 2 ? one : two).setTokens({ issuer: A, resource: `${R1}/${i}` }, tokens(`t${i}`)),
    );
    const reads = Array.from({ length: 20 }, () => two.entries());
    await Promise.all([...writes, ...reads]);
    expect(readdirSync(join(dir, 'config', 'toolwire'))).toEqual(['credentials.json']);
    const entries = await new FileOAuthStore({ path }).entries();
    // Changes are made under the file's lock on a fresh read: none is lost (issue 19).
    expect(entries.length).toBe(20);
    expect(mode(path)).toBe(0o600);
  });

  it('one store applies its own concurrent changes one after another (none is lost)', async () => {
    const store = new FileOAuthStore({ path });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.setTokens({ issuer: A, resource: `${R1}/${i}` }, tokens(`t${i}`)),
      ),
    );
    expect(await store.entries()).toHaveLength(20);
  });

  it('a write that fails leaves the old file and no temporary file', async () => {
    mkdirSync(join(dir, 'target', 'child'), { recursive: true });
    const target = join(dir, 'target');
    const error = await failure(writeCredentialsText(target, '{}'));
    expect(error.problem).toBe('unwritable');
    expect(error.message).toContain(target);
    expect(readdirSync(dir).sort()).toEqual(['target']);
    expect(readdirSync(target)).toEqual(['child']);
  });
});

describe('refused files', () => {
  async function seed(text: string): Promise<void> {
    await new FileOAuthStore({ path }).setClient(A, client);
    writeFileSync(path, text);
  }

  it.each([
    ['{"version": 1, "tokens": ', 'is not valid JSON'],
    ['[1, 2]', 'does not hold a JSON object'],
    ['{"clients": {}}', 'has no "version"'],
    [`{"version": 1, "tokens": {"${A}": {"${R1}": {"accessToken": 7}}}}`, 'are malformed'],
    ['{"version": 1, "clients": {"x": {"clientId": "c"}}}', '"clients" is not a map'],
    ['{"version": 1, "issuerOf": {"r": 1}}', '"issuerOf" is not a map'],
  ])('a corrupt file (%s) is named in the error, and never overwritten', async (text, why) => {
    await seed(text);
    const store = new FileOAuthStore({ path });
    const error = await failure(store.getTokens({ issuer: A, resource: R1 }));
    expect(error.problem).toBe('corrupt');
    expect(error.message).toContain(path);
    expect(error.message).toContain(why);
    expect((await failure(store.setTokens({ issuer: A, resource: R1 }, tokens('t')))).problem).toBe(
      'corrupt',
    );
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('a file a newer toolwire wrote is refused, never overwritten', async () => {
    await seed('{"version": 2, "tokens": []}');
    const error = await failure(new FileOAuthStore({ path }).setClient(A, client));
    expect(error.problem).toBe('newer-version');
    expect(error.message).toContain('newer toolwire');
    expect(readFileSync(path, 'utf8')).toBe('{"version": 2, "tokens": []}');
  });

  it.each([0o644, 0o640, 0o604, 0o620])(
    'a file others may access (mode %o) is refused, with the fix',
    async (m) => {
      await seed('{"version": 1}');
      chmodSync(path, m);
      const error = await failure(new FileOAuthStore({ path }).getClient(A));
      expect(error.problem).toBe('insecure-permissions');
      expect(error.message).toContain(`chmod 600 ${path}`);
      chmodSync(path, 0o600);
      expect(await new FileOAuthStore({ path }).getClient(A)).toBeUndefined();
    },
  );

  it('a directory others may write in is refused', async () => {
    await seed('{"version": 1}');
    chmodSync(join(dir, 'config', 'toolwire'), 0o777);
    const error = await failure(new FileOAuthStore({ path }).getClient(A));
    expect(error.problem).toBe('insecure-permissions');
    expect(error.message).toContain('chmod 700');
  });

  it('a file another user owns is refused', async () => {
    await seed('{"version": 1}');
    const uid = statSync(path).uid;
    vi.spyOn(process, 'getuid').mockReturnValue(uid + 1);
    const error = await failure(new FileOAuthStore({ path }).getClient(A));
    expect(error.problem).toBe('not-owned');
    expect(error.message).toContain(path);
  });
});

describe('keys', () => {
  it('tokens are kept per issuer and resource', async () => {
    const store = new FileOAuthStore({ path });
    await store.setTokens({ issuer: A, resource: R1 }, tokens('a1', { refreshToken: 'r' }));
    await store.setTokens({ issuer: B, resource: R1 }, tokens('b1'));
    await store.setTokens({ issuer: A, resource: R2 }, tokens('a2', { scope: 'x y' }));
    const other = new FileOAuthStore({ path });
    expect(await other.getTokens({ issuer: A, resource: R1 })).toEqual(
      tokens('a1', { refreshToken: 'r' }),
    );
    expect((await other.getTokens({ issuer: B, resource: R1 }))?.accessToken).toBe('b1');
    expect((await other.getTokens({ issuer: A, resource: R2 }))?.scope).toBe('x y');
    expect(await other.getTokens({ issuer: B, resource: R2 })).toBeUndefined();
    await other.deleteTokens({ issuer: A, resource: R1 });
    expect(await store.getTokens({ issuer: A, resource: R1 })).toBeUndefined();
    expect((await store.getTokens({ issuer: B, resource: R1 }))?.accessToken).toBe('b1');
    expect((await store.getTokens({ issuer: A, resource: R2 }))?.accessToken).toBe('a2');
  });

  it('clients are kept per issuer, and survive a logout of a resource', async () => {
    const store = new FileOAuthStore({ path });
    await store.setClient(A, client);
    await store.setClient(B, { ...client, clientId: 'cli-b', clientSecret: 's' });
    expect(await store.getClient(A)).toEqual(client);
    expect((await store.getClient(B))?.clientSecret).toBe('s');
    await store.setTokens({ issuer: A, resource: R1 }, tokens('a1'));
    await store.setTokens({ issuer: B, resource: R1 }, tokens('b1'));
    await store.setTokens({ issuer: A, resource: R2 }, tokens('a2'));
    await store.setIssuerOf(R1, B);
    await store.setIssuerOf('https://only-issuer.example/', A);
    expect((await store.resources()).sort()).toEqual([R1, 'https://only-issuer.example/', R2]);
    expect(await store.forgetResource(R1)).toEqual({ issuers: [A, B] });
    expect(await store.forgetResource('https://only-issuer.example/')).toEqual({ issuers: [] });
    expect(await store.resources()).toEqual([R2]);
    expect(await store.getIssuerOf(R1)).toBeUndefined();
    expect(await store.entries()).toEqual([{ issuer: A, resource: R2, tokens: tokens('a2') }]);
    expect(await store.getClient(B)).toBeDefined();
    await store.deleteClient(A);
    expect(await store.getClient(A)).toBeUndefined();
    expect(await store.getClient(B)).toBeDefined();
  });

  it('the issuer of a resource follows a change of authorization server', async () => {
    const store = new FileOAuthStore({ path });
    await store.setIssuerOf(R1, A);
    await store.setIssuerOf(R2, A);
    await store.setIssuerOf(R1, B);
    expect(await store.getIssuerOf(R1)).toBe(B);
    expect(await store.getIssuerOf(R2)).toBe(A);
  });

  it('keys are plain data, whatever they say ("__proto__", "constructor")', async () => {
    const store = new FileOAuthStore({ path });
    await store.setTokens({ issuer: '__proto__', resource: 'constructor' }, tokens('p'));
    await store.setClient('__proto__', client);
    await store.setIssuerOf('__proto__', 'toString');
    const other = new FileOAuthStore({ path });
    expect(
      (await other.getTokens({ issuer: '__proto__', resource: 'constructor' }))?.accessToken,
    ).toBe('p');
    expect(await other.getTokens({ issuer: '__proto__', resource: 'toString' })).toBeUndefined();
    expect(await other.getClient('__proto__')).toEqual(client);
    expect(await other.getIssuerOf('__proto__')).toBe('toString');
    expect(await other.getIssuerOf('constructor')).toBeUndefined();
  });
});

describe('defaultCredentialsPath', () => {
  it('follows XDG_CONFIG_HOME when absolute, else ~/.config; %APPDATA% on Windows', () => {
    const home = '/home/u';
    expect(
      defaultCredentialsPath({ env: { XDG_CONFIG_HOME: '/x/cfg' }, platform: 'linux', home }),
    ).toBe('/x/cfg/toolwire/credentials.json');
    expect(
      defaultCredentialsPath({ env: { XDG_CONFIG_HOME: 'rel' }, platform: 'linux', home }),
    ).toBe('/home/u/.config/toolwire/credentials.json');
    expect(defaultCredentialsPath({ env: {}, platform: 'darwin', home })).toBe(
      '/home/u/.config/toolwire/credentials.json',
    );
    expect(defaultCredentialsPath({ env: { APPDATA: '/appdata' }, platform: 'win32', home })).toBe(
      join('/appdata', 'toolwire', 'credentials.json'),
    );
  });
});
