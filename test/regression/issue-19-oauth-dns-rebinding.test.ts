/**
 * Issue 19: the OAuth client's address check resolved an authorization server's host name, then
 * fetch resolved it again to connect: a DNS answer that changed in between (rebinding) sent the
 * request to an address that was never checked, such as the cloud metadata service. The
 * connection now goes to the address that was checked, keeping the host name for the Host
 * header, TLS SNI and the certificate check.
 *
 * The client runs as a process of its own (test/fixtures/rebindingClient.ts) that trusts this
 * test's certificate for auth.rebind.test; its DNS answers 127.0.0.1 (this test's https server)
 * first and 169.254.169.254 afterwards, and never lets a connection leave 127.0.0.1.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';

const CLIENT = `${ROOT}build/test/fixtures/rebindingClient.js`;
const CERT = `${ROOT}test/fixtures/tls/rebind.pem`;
const KEY = `${ROOT}test/fixtures/tls/rebind.key`;

interface Received {
  method: string;
  path: string;
  host: string | undefined;
  servername: string | false | null | undefined;
}

let server: Server;
let port = 0;
let connections = 0;
const received: Received[] = [];

beforeAll(async () => {
  server = createServer({ cert: readFileSync(CERT), key: readFileSync(KEY) });
  server.on('connection', () => connections++);
  server.on('tlsClientError', () => {});
  server.on('request', (req, res) => {
    received.push({
      method: req.method ?? '',
      path: req.url ?? '',
      host: req.headers.host,
      servername: (req.socket as TLSSocket).servername,
    });
    const issuer = `https://auth.rebind.test:${port}`;
    if (req.url === '/.well-known/oauth-authorization-server') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          code_challenge_methods_supported: ['S256'],
        }),
      );
      return;
    }
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ access_token: 'new-token', token_type: 'Bearer', expires_in: 600 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
});

interface Outcome {
  header: string | null;
  failure: string | null;
  answers: string[];
  handedToConnections: string[];
}

/** Runs the rebinding client against `issuer` (20 s at most). */
function runClient(issuer: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLIENT, issuer, 'http://127.0.0.1:9/mcp'], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: CERT },
      timeout: 20_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('close', (code) => {
      try {
        resolve(JSON.parse(stdout) as Outcome);
      } catch {
        reject(new Error(`rebinding client exited ${code}: ${stdout} ${stderr}`));
      }
    });
  });
}

describe('issue 19: the OAuth client connects to the address it checked', () => {
  it('a DNS answer that changes after the check never reaches a connection', async () => {
    received.length = 0;
    const outcome = await runClient(`https://auth.rebind.test:${port}`);
    // The metadata request was checked at 127.0.0.1 and went there, named as the host name.
    expect(received[0]).toEqual({
      method: 'GET',
      path: '/.well-known/oauth-authorization-server',
      host: `auth.rebind.test:${port}`,
      servername: 'auth.rebind.test',
    });
    // The token request's check was answered 169.254.169.254: refused before any connection.
    expect(received).toHaveLength(1);
    expect(outcome.handedToConnections).toEqual([]);
    expect(outcome.answers).toEqual(['127.0.0.1', '169.254.169.254']);
    // The refresh failed, so no header (the tokens are dropped: the next 401 asks for a login).
    expect(outcome.header).toBeNull();
  }, 30_000);

  it('the certificate is still checked against the host name, not the address', async () => {
    received.length = 0;
    const before = connections;
    const outcome = await runClient(`https://other.rebind.test:${port}`);
    // It connected to the checked address, and refused a certificate made for another name.
    expect(connections).toBeGreaterThan(before);
    expect(received).toEqual([]);
    expect(outcome.handedToConnections).toEqual([]);
    expect(outcome.header).toBeNull();
  }, 30_000);
});
