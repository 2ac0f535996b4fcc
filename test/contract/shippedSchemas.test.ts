/**
 * @module The schemas toolwire/testing ships (src/testing/schemas/) are the official ones of
 * test/spec/ minus their descriptions, for exactly the revisions toolwire speaks and the tasks
 * extension of 2026-07-28, and they judge messages as the official files do: toolwire's own
 * tests check every message against the official files, tool authors' tests against these.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without type declarations
import * as specSchemas from '../../scripts/specSchemas.mjs';
import {
  MODERN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../../src/protocol/versions.js';
import { tasksExtensionSchema } from '../../src/testing/eras/rev2026/tasksExtensionSchema.js';
import { revisionSchema } from '../../src/testing/eras/revisionSchemas.js';
import { describeProblem } from '../../src/testing/wireViolation.js';
import { ROOT } from '../support/paths.js';
import {
  EXAMPLES_2025_11_25,
  schemaFile,
  validateDefinition,
  validateTasksExtension,
} from '../support/specSchemas.js';

/** Every revision toolwire speaks: the schemas toolwire/testing ships. */
const REVISIONS: string[] = [...SUPPORTED_PROTOCOL_VERSIONS, ...MODERN_PROTOCOL_VERSIONS];

const SHIPPED = `${ROOT}src/testing/schemas/`;

/** The extension whose schema ships: the tasks extension of 2026-07-28, as its draft. */
const EXTENSION = 'ext-tasks-draft';

/** What scripts/specSchemas.mjs exports. */
const { compactSchema, EXTENSION_LICENCE_HEADING, SHIPPED_EXTENSIONS, SHIPPED_REVISIONS } =
  specSchemas as {
    compactSchema: (schema: unknown) => unknown;
    EXTENSION_LICENCE_HEADING: string;
    SHIPPED_EXTENSIONS: string[];
    SHIPPED_REVISIONS: string[];
  };
const { shippedLicence, shippedText } = specSchemas as {
  shippedLicence: () => string;
  shippedText: (name: string) => string;
};

describe('the schemas toolwire/testing ships', () => {
  it("are those of the revisions toolwire speaks and of the tasks extension, with their sources' licences", () => {
    expect(SHIPPED_REVISIONS).toEqual(REVISIONS);
    expect(SHIPPED_EXTENSIONS).toEqual([EXTENSION]);
    expect(readdirSync(SHIPPED).sort()).toEqual(
      [...REVISIONS.map((r) => `${r}.json`), `${EXTENSION}.json`, 'LICENSE', 'README.md'].sort(),
    );
    // The specification repository's licence, then the extension repository's, each whole.
    const licence = readFileSync(`${SHIPPED}LICENSE`, 'utf8');
    expect(licence).toBe(shippedLicence());
    expect(licence.startsWith(readFileSync(`${ROOT}test/spec/LICENSE`, 'utf8').trimEnd())).toBe(
      true,
    );
    const extensionLicence = readFileSync(`${ROOT}test/spec/${EXTENSION}/LICENSE`, 'utf8');
    expect(licence.endsWith(`${EXTENSION_LICENCE_HEADING}\n\n${extensionLicence}`)).toBe(true);
    expect(extensionLicence).toContain('Apache License');
    // The README names each file's source.
    const readme = readFileSync(`${SHIPPED}README.md`, 'utf8');
    for (const name of [...REVISIONS, EXTENSION]) expect(readme).toContain(`\`${name}.json\``);
    expect(readme).toContain('modelcontextprotocol/ext-tasks');
  });

  for (const name of [...REVISIONS, EXTENSION]) {
    it(`${name}: is the official file without descriptions (node scripts/specSchemas.mjs)`, () => {
      expect(readFileSync(`${SHIPPED}${name}.json`, 'utf8')).toBe(shippedText(name));
    });
  }

  it('leaves out descriptions only: a property named "description" stays', () => {
    const official = JSON.parse(readFileSync(schemaFile('2025-06-18'), 'utf8')) as Record<
      string,
      Record<string, { description?: string; properties?: Record<string, unknown> }>
    >;
    const tool = official['definitions']?.['Tool'];
    expect(tool?.description).toBeDefined();
    const compact = compactSchema(official) as typeof official;
    const shippedTool = compact['definitions']?.['Tool'];
    expect(shippedTool?.description).toBeUndefined();
    expect(Object.keys(shippedTool?.properties ?? {})).toEqual(Object.keys(tool?.properties ?? {}));
    expect(shippedTool?.properties?.['description']).toEqual({ type: 'string' });
  });

  it('judge the official examples as the official files do', async () => {
    const schema = await revisionSchema('2025-11-25');
    let checked = 0;
    for (const type of readdirSync(EXAMPLES_2025_11_25)) {
      if (!schema.has(type)) continue;
      for (const file of readdirSync(`${EXAMPLES_2025_11_25}/${type}`)) {
        const example = JSON.parse(
          readFileSync(`${EXAMPLES_2025_11_25}/${type}/${file}`, 'utf8'),
        ) as unknown;
        const shipped = schema.check(type, example).map(describeProblem);
        expect(shipped, `${type}/${file}`).toEqual(validateDefinition('2025-11-25', type, example));
        expect(shipped, `${type}/${file}`).toEqual([]);
        // And a field the example's type does not define fails both the same way.
        if (typeof example === 'object' && example !== null && !Array.isArray(example)) {
          const extended = { ...example, notInTheSpec: true };
          const problems = schema.check(type, extended).map(describeProblem);
          expect(problems).toEqual(validateDefinition('2025-11-25', type, extended));
        }
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it("the extension's: judges its messages as the official file does, as published", async () => {
    const schema = await tasksExtensionSchema();
    const task = {
      taskId: 't1',
      status: 'working',
      createdAt: '2026-08-21T10:00:00Z',
      lastUpdatedAt: '2026-08-21T10:00:01Z',
      ttlMs: 60_000,
      pollIntervalMs: 500,
    };
    const request = (method: string, params: object) => ({ jsonrpc: '2.0', id: 1, method, params });
    const values: Array<readonly [string, Record<string, unknown>]> = [
      ['CreateTaskResult', { resultType: 'task', ...task }],
      ['GetTaskResult', { resultType: 'complete', ...task }],
      [
        'GetTaskResult',
        { resultType: 'complete', ...task, status: 'input_required', inputRequests: {} },
      ],
      [
        'GetTaskResult',
        { resultType: 'complete', ...task, status: 'completed', result: { content: [] } },
      ],
      [
        'GetTaskResult',
        { resultType: 'complete', ...task, status: 'failed', error: { code: -1, message: 'x' } },
      ],
      ['UpdateTaskResult', { resultType: 'complete' }],
      ['CancelTaskResult', { resultType: 'complete' }],
      ['GetTaskRequest', request('tasks/get', { taskId: 't1' })],
      ['UpdateTaskRequest', request('tasks/update', { taskId: 't1', inputResponses: {} })],
      ['CancelTaskRequest', request('tasks/cancel', { taskId: 't1' })],
      [
        'TaskStatusNotification',
        { jsonrpc: '2.0', method: 'notifications/tasks', params: { ...task } },
      ],
      ['TaskSubscriptionNotifications', { taskIds: ['t1'] }],
      ['TaskSubscriptionAcknowledgedNotifications', { taskIds: ['t1'] }],
    ];
    for (const [definition, value] of values) {
      expect(schema.check(definition, value), definition).toEqual([]);
      expect(validateTasksExtension(definition, value), definition).toEqual([]);
      // Broken ways each: both files fail them the same way.
      for (const broken of [
        { ...value, ttlMs: '60000' },
        { ...value, status: 'sleeping' },
        { ...value, resultType: 7 },
        { ...value, taskIds: [1] },
        { ...value, params: { taskId: 1 } },
      ]) {
        const shipped = schema.check(definition, broken).map(describeProblem);
        expect(shipped, definition).toEqual(validateTasksExtension(definition, broken));
      }
    }
    // The broken values do fail (the comparison above compares failures, not two empty lists).
    expect(schema.check('GetTaskResult', { ...values[1]![1], ttlMs: '60000' })).not.toEqual([]);
    expect(
      schema.check('TaskSubscriptionNotifications', { taskIds: [1] }).map(describeProblem),
    ).toEqual(validateTasksExtension('TaskSubscriptionNotifications', { taskIds: [1] }));
  });
});
