/**
 * @module The error of a message that breaks its revision's schema.
 */
import type { Revision } from '../index.js';
import type { SchemaProblem } from './wireSchema.js';

/** How many distinct problems the error's message lists (all of them are in `problems`). */
const LISTED = 8;
/** How much of the offending message the error's message quotes. */
const QUOTED = 1000;

/** One problem as a line: pointer, what is wrong, Ajv's details, the definition. */
export function describeProblem(p: SchemaProblem): string {
  const params = Object.keys(p.params).length > 0 ? ` ${JSON.stringify(p.params)}` : '';
  return `${p.pointer === '' ? '(the message)' : p.pointer}: ${p.message}${params} (${p.definition})`;
}

/**
 * A message the server sent is not valid for the revision of its connection (see
 * `connectInMemory`'s `validateWire`). Its message names the revision, each problem's JSON
 * pointer into the offending message, and the message itself.
 */
export class WireViolation extends Error {
  override readonly name = 'WireViolation';
  /** The revision the connection uses. */
  readonly revision: Revision;
  /** The offending message, as it went over the wire. */
  readonly sent: unknown;
  /** What is wrong with it, each with a JSON pointer into `sent`. */
  readonly problems: readonly SchemaProblem[];

  constructor(violation: { revision: Revision; sent: unknown; problems: SchemaProblem[] }) {
    const { revision, sent, problems } = violation;
    // Ajv reports a failed `anyOf` branch by branch: the same line can come more than once.
    const distinct = [...new Set(problems.map(describeProblem))];
    const lines = distinct.slice(0, LISTED).map((line) => `  ${line}`);
    if (distinct.length > LISTED) lines.push(`  ... and ${distinct.length - LISTED} more`);
    let quoted = JSON.stringify(sent) ?? String(sent);
    if (quoted.length > QUOTED) quoted = `${quoted.slice(0, QUOTED)}...`;
    super(
      `The server sent a message that is not valid for MCP revision ${revision}:\n${lines.join('\n')}\nin ${quoted}`,
    );
    this.revision = revision;
    this.sent = sent;
    this.problems = problems;
  }
}
