/**
 * @module How the messages of a connection at each revision are checked: against the revision's
 * strict schema (rev2025/wireMessages.ts), and at 2026-07-28, whose tasks live in an extension,
 * the extension's messages against the extension's schema (rev2026/tasksExtensionMessages.ts).
 * The schemas are loaded on the first connection that needs them and shared by every later one.
 */
import type { Revision } from '../../index.js';
import type { SchemaProblem, WireSchema } from '../wireSchema.js';
import { messageProblems } from './rev2025/wireMessages.js';
import { tasksExtensionProblems } from './rev2026/tasksExtensionMessages.js';
import { tasksExtensionSchema } from './rev2026/tasksExtensionSchema.js';
import { revisionSchema } from './revisionSchemas.js';

/** The revisions that speak the tasks extension (`io.modelcontextprotocol/tasks`). */
const WITH_TASKS_EXTENSION: ReadonlySet<Revision> = new Set<Revision>(['2026-07-28']);

/** What a connection's messages are checked with. */
export interface RevisionCheck {
  /** The revision's strict schema (its method names, among others). */
  readonly schema: WireSchema;
  /**
   * The problems of one message (empty when it is valid), each with a JSON pointer into it;
   * `methodOf` names the method of the request a response answers, by its id.
   */
  problems(
    message: unknown,
    methodOf: (id: string | number) => string | undefined,
  ): SchemaProblem[];
}

/** The check of messages at `revision`, with its schemas loaded. */
export async function revisionCheck(revision: Revision): Promise<RevisionCheck> {
  if (!WITH_TASKS_EXTENSION.has(revision)) {
    const schema = await revisionSchema(revision);
    return {
      schema,
      problems: (message, methodOf) => messageProblems({ revision, schema, methodOf }, message),
    };
  }
  const [schema, extension] = await Promise.all([revisionSchema(revision), tasksExtensionSchema()]);
  return {
    schema,
    problems: (message, methodOf) =>
      tasksExtensionProblems({ revision, schema, extension, methodOf }, message),
  };
}
