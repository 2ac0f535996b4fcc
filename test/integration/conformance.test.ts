// The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, and 0.2.0-alpha.12
// by revision), run against the conformance example server (server mode) and client (client
// mode: the scenarios 2025-11-25 requires besides auth; the auth and 2026-07-28 ones are in
// conformanceClient.test.ts). Its pass and fail counts are
// printed. Installing the suite and Node 22 failing is a test failure, never a skip.
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without type declarations
import * as conformance from '../../scripts/conformance.mjs';

interface Run {
  code: number;
  output: string;
}
const suite = conformance as unknown as {
  ensureConformance(): void;
  startConformanceServer(): Promise<{ url: string; stop(): Promise<void> }>;
  runServerSuite(url: string): Promise<Run>;
  runNextServerScenario(url: string, scenario: string): Promise<Run>;
  SSE_SCENARIOS: string[];
  runServerRequirements(url: string, revision: string): Promise<Run>;
  REQUIREMENT_REVISIONS: string[];
  runClientScenario(scenario: string): Promise<Run>;
  CLIENT_SCENARIOS: string[];
};

const REQUIRED_SERVER_SCENARIOS = [
  'server-initialize',
  'logging-set-level',
  'ping',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-with-logging',
  'tools-call-error',
  'tools-call-with-progress',
  'tools-call-sampling',
  'tools-call-elicitation',
  'json-schema-2020-12',
  'elicitation-sep1034-defaults',
  'elicitation-sep1330-enums',
  'dns-rebinding-protection',
];

describe('official MCP conformance suite 0.1.16', () => {
  beforeAll(() => suite.ensureConformance(), 180_000);

  it('server mode: every required scenario passes; only resources, prompts and completion may fail', async () => {
    const server = await suite.startConformanceServer();
    let result: Run;
    const sse: Array<[string, Run]> = [];
    try {
      result = await suite.runServerSuite(server.url);
      for (const scenario of suite.SSE_SCENARIOS)
        sse.push([scenario, await suite.runNextServerScenario(server.url, scenario)]);
    } finally {
      await server.stop();
    }
    const summary = result.output.slice(result.output.indexOf('=== SUMMARY ==='));
    console.log(`conformance server mode\n${summary}`);
    for (const scenario of REQUIRED_SERVER_SCENARIOS) {
      expect(summary, scenario).toMatch(new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`));
    }
    expect(summary).toMatch(/Total: \d+ passed, \d+ failed/);
    expect(result.code, 'no failure outside the expected-failures baseline').toBe(0);
    // The SSE scenarios, from the suite version that sends the negotiated protocol version.
    for (const [scenario, run] of sse) {
      const line = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(run.output);
      console.log(`conformance 0.2.0-alpha.12 ${scenario}: ${line?.[0] ?? run.output.slice(-500)}`);
      expect(line, run.output.slice(-2000)).not.toBeNull();
      expect(Number(line?.[1]), `${scenario} checks passed`).toBeGreaterThan(0);
      expect(line?.[1], `${scenario}: every check passes`).toBe(line?.[2]);
      expect(line?.[4], `${scenario}: no warnings`).toBe('0');
      expect(run.code).toBe(0);
    }
  }, 300_000);

  it('0.2.0-alpha.12, --requirements 2025-11-25 and 2026-07-28: every required server scenario passes but the baseline’s', async () => {
    const server = await suite.startConformanceServer();
    const runs: Array<[string, Run]> = [];
    try {
      for (const revision of suite.REQUIREMENT_REVISIONS)
        runs.push([revision, await suite.runServerRequirements(server.url, revision)]);
    } finally {
      await server.stop();
    }
    for (const [revision, run] of runs) {
      const total = /Total: (\d+) passed, (\d+) failed/.exec(run.output);
      console.log(
        `conformance 0.2.0-alpha.12 --requirements ${revision}: ${total?.[0] ?? 'no total'}`,
      );
      expect(total, run.output.slice(-3000)).not.toBeNull();
      expect(Number(total?.[1]), `${revision}: checks passed`).toBeGreaterThan(50);
      expect(run.output, revision).toMatch(/✓ tools-call-simple-text: \d+ passed, 0 failed/);
      if (revision === '2026-07-28')
        for (const scenario of [
          'server-stateless',
          'http-header-validation',
          'http-custom-header-server-validation',
          'json-schema-2020-12',
          'input-required-result-multi-round',
          'input-required-result-tampered-state',
        ])
          expect(run.output, scenario).toMatch(new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`));
      expect(
        run.code,
        `${revision}: no failure outside the baseline\n${run.output.slice(-3000)}`,
      ).toBe(0);
    }
  }, 300_000);

  for (const scenario of suite.CLIENT_SCENARIOS) {
    it(`client mode, 0.2.0-alpha.12 at 2025-11-25: ${scenario}`, async () => {
      const result = await suite.runClientScenario(scenario);
      const line = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(result.output);
      console.log(`conformance client ${scenario}: ${line?.[0] ?? result.output.slice(-500)}`);
      expect(line, result.output.slice(-2000)).not.toBeNull();
      expect(line?.[3]).toBe('0');
      expect(line?.[4]).toBe('0');
      expect(result.code).toBe(0);
    }, 120_000);
  }
});
