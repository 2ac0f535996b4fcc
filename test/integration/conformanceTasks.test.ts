// The official MCP conformance suite 0.2.0-alpha.12's scenarios of the tasks extension
// (io.modelcontextprotocol/tasks, revision 2026-07-28), server mode, against the conformance
// example server and its tasks fixtures (examples/conformance/fixturesTasks.ts). Each runs on
// its own (`--scenario`): `--requirements 2026-07-28` runs them unscored. Every check passes but
// those named in KNOWN_FAILURES, each with the reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without type declarations
import * as conformance from '../../scripts/conformance.mjs';

interface Run {
  code: number;
  output: string;
}
const suite = conformance as unknown as {
  ensureConformance(): void;
  startConformanceServer(): Promise<{ url: string; stop(): Promise<void> }>;
  runNextServerScenario(url: string, scenario: string): Promise<Run>;
  TASKS_SCENARIOS: string[];
};

/** Checks that fail, by scenario: none (each failure would be named here with its reason). */
const KNOWN_FAILURES: Record<string, string[]> = {};

/** Scenarios whose every check the suite skips (it says why), so that none passes. */
const NO_CHECKS = new Set(['tasks-status-notifications']);

let server: { url: string; stop(): Promise<void> };
beforeAll(async () => {
  suite.ensureConformance();
  server = await suite.startConformanceServer();
}, 180_000);
afterAll(() => server?.stop());

describe('official MCP conformance suite 0.2.0-alpha.12, tasks extension, server mode', () => {
  for (const scenario of suite.TASKS_SCENARIOS) {
    it(
      scenario,
      async () => {
        const run = await suite.runNextServerScenario(server.url, scenario);
        const line = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(run.output);
        console.log(
          `conformance 0.2.0-alpha.12 ${scenario}: ${line?.[0] ?? run.output.slice(-500)}`,
        );
        expect(line, run.output.slice(-2000)).not.toBeNull();
        const failed = [...run.output.matchAll(/\[([\w-]+)\s*\]\s*\S*FAILURE/g)].map((m) => m[1]);
        expect(failed, run.output.slice(-2000)).toEqual(KNOWN_FAILURES[scenario] ?? []);
        expect(line?.[4], `${scenario}: no warnings`).toBe('0');
        if (NO_CHECKS.has(scenario)) expect(line?.[2]).toBe('0');
        else expect(Number(line?.[1]), `${scenario}: checks passed`).toBeGreaterThan(0);
      },
      60_000,
    );
  }
});
