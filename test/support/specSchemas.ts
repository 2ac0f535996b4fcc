/**
 * @module Validation of messages against the official MCP JSON Schemas, copied into test/spec/
 * (see test/spec/README.md for their source), with the very checks `toolwire/testing` ships
 * (src/testing/: the strict variant of a schema, which closes every object that lists its
 * properties so that a field a revision does not define fails, and which definition each
 * message must satisfy). The shipped schemas are these files without their descriptions
 * (test/contract/shippedSchemas.test.ts). The strict variant is itself checked against the
 * official examples (test/contract/specSchemas.test.ts). Nothing is read until a schema is
 * first needed: this module is imported by the setup file of every test file, and most of them
 * never validate a message.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import type { Revision } from '../../src/protocol/versions.js';
import { messageProblems } from '../../src/testing/eras/rev2025/wireMessages.js';
import { WireSchema, type AjvClasses } from '../../src/testing/wireSchema.js';
import { describeProblem } from '../../src/testing/wireViolation.js';

/** The repository's copy of the official spec material: `<revision>/schema.json` and examples. */
export const SPEC_DIR = fileURLToPath(new URL('../spec/', import.meta.url));

/** The official examples written for the 2025-11-25 schema: `<Definition>/<name>.json`. */
export const EXAMPLES_2025_11_25 = `${SPEC_DIR}2025-11-25/examples`;

/** The official JSON Schema of one revision (the repository's copy). */
export function schemaFile(version: Revision): string {
  return `${SPEC_DIR}${version}/schema.json`;
}

const AJV: AjvClasses = {
  Ajv,
  Ajv2020,
  addFormats: ((addFormatsImport as unknown as { default?: unknown }).default ??
    addFormatsImport) as (ajv: Ajv) => void,
};

const loaded = new Map<string, WireSchema>();

/** The schema of `version`, strict or as published, read and built on first use. */
function revision(version: Revision, strict: boolean): WireSchema {
  const key = `${version}:${strict}`;
  let schema = loaded.get(key);
  if (!schema) {
    const document = JSON.parse(readFileSync(schemaFile(version), 'utf8')) as Record<
      string,
      unknown
    >;
    schema = new WireSchema(version, document, { strict, ajv: AJV });
    loaded.set(key, schema);
  }
  return schema;
}

/** True when the revision's schema defines `name`. */
export function hasDefinition(version: Revision, name: string): boolean {
  return revision(version, false).has(name);
}

/** Validates `value` against definition `name`; returns the problems (empty when valid). */
export function validateDefinition(
  version: Revision,
  name: string,
  value: unknown,
  strict = true,
): string[] {
  return revision(version, strict).check(name, value).map(describeProblem);
}

/**
 * Validates one message a toolwire peer sent on a connection that negotiated `version`.
 * `methodOf` maps a response id to the method of the request it answers.
 */
export function validateMessage(
  version: Revision,
  message: unknown,
  methodOf: (id: string | number) => string | undefined,
): string[] {
  return messageProblems(
    { revision: version, schema: revision(version, true), methodOf },
    message,
  ).map(describeProblem);
}

/** The draft schema of the tasks extension (the repository's copy; see test/spec/README.md). */
let tasksExtension: WireSchema | undefined;

/**
 * Validates `value` against definition `name` of the tasks extension's schema, as published:
 * its results are `allOf` a `Result` and the task's fields, which the strict variant (each object
 * closed to the properties it lists) would set against each other. The tests compare whole
 * messages besides, so a field too many is caught there.
 */
export function validateTasksExtension(name: string, value: unknown): string[] {
  tasksExtension ??= new WireSchema(
    'ext-tasks-draft',
    JSON.parse(readFileSync(`${SPEC_DIR}ext-tasks-draft/schema.json`, 'utf8')) as Record<
      string,
      unknown
    >,
    { strict: false, ajv: AJV },
  );
  return tasksExtension.check(name, value).map(describeProblem);
}

/** The request definitions of the tasks extension's methods, and of their results. */
const EXTENSION_REQUESTS: Readonly<Record<string, readonly [string, string]>> = {
  'tasks/get': ['GetTaskRequest', 'GetTaskResult'],
  'tasks/update': ['UpdateTaskRequest', 'UpdateTaskResult'],
  'tasks/cancel': ['CancelTaskRequest', 'CancelTaskResult'],
};

/**
 * Validates one message of a 2026-07-28 connection that may belong to the tasks extension: its
 * methods and their results, `notifications/tasks` and a `tools/call` answered with a task are
 * checked against the extension's schema; a `subscriptions/listen` filter or acknowledgement
 * naming `taskIds` has them checked there and the rest against the revision's schema; anything
 * else against the revision's schema alone ({@link validateMessage}).
 */
export function validateMessage2026(
  message: unknown,
  methodOf: (id: string | number) => string | undefined,
): string[] {
  const m = message as Record<string, unknown>;
  const method = typeof m['method'] === 'string' ? m['method'] : undefined;
  if (method !== undefined) {
    const definition =
      method === 'notifications/tasks' ? 'TaskStatusNotification' : EXTENSION_REQUESTS[method]?.[0];
    if (definition !== undefined) return validateTasksExtension(definition, m);
    const params = m['params'] as Record<string, unknown> | undefined;
    const filter = params?.['notifications'] as Record<string, unknown> | undefined;
    if (filter !== undefined && 'taskIds' in filter) {
      const { taskIds, ...rest } = filter;
      const named =
        method === 'subscriptions/listen'
          ? 'TaskSubscriptionNotifications'
          : 'TaskSubscriptionAcknowledgedNotifications';
      return [
        ...validateTasksExtension(named, { taskIds }),
        ...validateMessage(
          '2026-07-28',
          { ...m, params: { ...params, notifications: rest } },
          methodOf,
        ),
      ];
    }
    return validateMessage('2026-07-28', m, methodOf);
  }
  if ('result' in m && (typeof m['id'] === 'string' || typeof m['id'] === 'number')) {
    const answered = methodOf(m['id']);
    const result = m['result'] as Record<string, unknown>;
    const definition =
      answered === 'tools/call' && result?.['resultType'] === 'task'
        ? 'CreateTaskResult'
        : answered === undefined
          ? undefined
          : EXTENSION_REQUESTS[answered]?.[1];
    if (definition !== undefined) return validateTasksExtension(definition, result);
  }
  return validateMessage('2026-07-28', m, methodOf);
}
