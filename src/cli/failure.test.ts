// Issue 12: how the CLI describes a failed authorization (kind `authorization`, exit 3), and
// says which command fixes a missing login.
import { describe, expect, it } from 'vitest';
import { LocalError } from '../index.js';
import { ConnectionError, OAuthError } from '../http.js';
import { describeFailure, EXIT, printFailure } from './failure.js';

const URL_ = 'https://mcp.example/mcp';
const ISSUER = 'https://as.example';

describe('describeFailure: authorization', () => {
  it('login_required names the command that fixes it, with reason, issuer and url for programs', () => {
    const error = new OAuthError('login_required', `${URL_} requires authorization`, {
      issuer: ISSUER,
    });
    expect(describeFailure(error, { url: URL_ })).toEqual({
      kind: 'authorization',
      message: `${URL_} requires authorization: run toolwire login ${URL_}`,
      exitCode: EXIT.failure,
      details: { reason: 'login_required', issuer: ISSUER, url: URL_ },
    });
  });

  it('insufficient_scope names the login that asks for the scopes, each quoted for the shell', () => {
    const error = new OAuthError(
      'insufficient_scope',
      `${URL_} refuses the request for lack of scope`,
      {
        issuer: ISSUER,
        scope: 'mcp:tools files:write $(reboot)',
      },
    );
    expect(describeFailure(error, { url: URL_ })).toEqual({
      kind: 'authorization',
      message:
        `${URL_} refuses the request for lack of scope: run toolwire login ${URL_} ` +
        "--scope mcp:tools --scope files:write --scope '$(reboot)'",
      exitCode: EXIT.failure,
      details: {
        reason: 'insufficient_scope',
        issuer: ISSUER,
        scope: 'mcp:tools files:write $(reboot)',
        url: URL_,
      },
    });
  });

  it('names the command line flags where the library names its options (issue 20)', () => {
    const loopback = new OAuthError(
      'insecure_url',
      'The token endpoint http://127.0.0.1:9/token is not https (http on a loopback host needs allowLoopbackHttp)',
    );
    expect(describeFailure(loopback).message).toBe(
      'The token endpoint http://127.0.0.1:9/token is not https (http on a loopback host needs --allow-loopback-http)',
    );
    const address = (kind: string, allows: string) =>
      describeFailure(
        new OAuthError(
          'forbidden_address',
          `The token endpoint https://as/token is on a ${kind} address (x); ${allows}`,
        ),
      ).message;
    expect(address('loopback', 'allowLoopbackHttp or allowPrivateNetwork allows it')).toBe(
      'The token endpoint https://as/token is on a loopback address (x); --allow-loopback-http allows it',
    );
    expect(address('private', 'allowPrivateNetwork allows it')).toBe(
      'The token endpoint https://as/token is on a private address (x); no option of toolwire allows one (only loopback addresses, with --allow-loopback-http)',
    );
  });

  it('another reason keeps its own message; no issuer or url when none is known', () => {
    const error = new OAuthError('access_denied', 'The user refused');
    expect(describeFailure(error)).toEqual({
      kind: 'authorization',
      message: 'The user refused',
      exitCode: 3,
      details: { reason: 'access_denied' },
    });
    // login_required without a URL to name: the message as it came.
    expect(describeFailure(new OAuthError('login_required', 'no tokens')).message).toBe(
      'no tokens',
    );
  });

  it('is found as the cause of another error', () => {
    const inner = new OAuthError('token_request_failed', 'invalid_client', { issuer: ISSUER });
    const outer = new ConnectionError('request failed', {
      url: URL_,
      errno: undefined,
      cause: inner,
    });
    expect(describeFailure(outer, { url: URL_ })).toMatchObject({
      kind: 'authorization',
      details: { reason: 'token_request_failed', issuer: ISSUER },
    });
  });

  it('a LocalError of code authorization that is not an OAuthError is still an authorization failure', () => {
    // Another HttpAuthorization may throw it: nothing was refused by the person at the terminal.
    expect(describeFailure(new LocalError('authorization', 'no token'))).toEqual({
      kind: 'authorization',
      message: 'no token',
      exitCode: EXIT.failure,
      details: { code: 'authorization' },
    });
  });

  it('prints the message on stderr and the error object with --json-output', () => {
    const out = { stdout: '', stderr: '' };
    const failure = describeFailure(new OAuthError('login_required', `${URL_} needs a login`), {
      url: URL_,
    });
    const code = printFailure(
      failure,
      {
        stdout: { write: (t: string) => (out.stdout += t) },
        stderr: { write: (t: string) => (out.stderr += t) },
      },
      true,
    );
    expect(code).toBe(3);
    expect(out.stderr).toBe(`toolwire: ${URL_} needs a login: run toolwire login ${URL_}\n`);
    expect(JSON.parse(out.stdout)).toEqual({
      error: {
        kind: 'authorization',
        message: `${URL_} needs a login: run toolwire login ${URL_}`,
        reason: 'login_required',
        url: URL_,
      },
    });
  });
});
