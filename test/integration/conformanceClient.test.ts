// Every client `auth/*` scenario of the official MCP conformance suite 0.2.0-alpha.12 and every
// other client scenario it requires for 2026-07-28, run against toolwire's conformance client
// (examples/conformance/client.ts) with its OAuth client, suite by suite (scripts/conformance.mjs).
// The counts are printed. The extensions toolwire does not implement are expected failures
// (test/conformance/expected-failures-next.yml); every other scenario passes every check, the
// 2026-07-28 ones on the stateless revision.
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without type declarations
import * as conformance from '../../scripts/conformance.mjs';

interface Sorted {
  passed: string[];
  expected: string[];
  failed: string[];
  lines: string[];
  output: string;
}
const suite = conformance as unknown as {
  ensureConformance(): void;
  runNextClientScenarios(): Promise<Sorted>;
  NEXT_CLIENT_SCENARIOS: string[];
};

/** The scenarios issue 12 names: each must pass outright. */
const REQUIRED = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
];

/** The client scenarios 2026-07-28 requires besides auth: each must pass outright, at 2026-07-28. */
const MODERN = [
  'tools_call',
  'request-metadata',
  'sep-2322-client-request-state',
  'http-standard-headers',
  'http-custom-headers',
  'http-invalid-tool-headers',
  'json-schema-ref-no-deref',
];

const EXTENSIONS = [
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/enterprise-managed-authorization',
  'auth/dpop',
  'auth/dpop-nonce',
  'auth/wif-jwt-bearer',
];

describe('official MCP conformance suite 0.2.0-alpha.12: client scenarios', () => {
  beforeAll(() => suite.ensureConformance(), 180_000);

  it('passes every required scenario; only extensions fail, as the baseline expects', async () => {
    const sorted = await suite.runNextClientScenarios();
    console.log(
      `conformance 0.2.0-alpha.12 client\n${sorted.lines.join('\n')}\n` +
        `client: ${sorted.passed.length} passed, ${sorted.expected.length} expected failures, ` +
        `${sorted.failed.length} failed`,
    );
    expect(sorted.failed, `${sorted.lines.join('\n')}\n${sorted.output}`).toEqual([]);
    for (const scenario of [...REQUIRED, ...MODERN])
      expect(sorted.passed, scenario).toContain(scenario);
    expect(sorted.expected.sort()).toEqual([...EXTENSIONS].sort());
    expect(
      REQUIRED.length + MODERN.length + EXTENSIONS.length,
      'every scenario is accounted for',
    ).toBe(suite.NEXT_CLIENT_SCENARIOS.length);
  }, 240_000);
});
