/**
 * @module Client-side check of structured results against the tool's output schema (the spec's
 * SHOULD), so a result that breaks it never reaches the model. Validators are compiled once per
 * tool definition.
 */
import { LocalError } from '../jsonrpc/errors.js';
import {
  compileJsonSchema,
  describeIssues,
  type CompiledJsonSchema,
} from '../protocol/jsonSchema.js';
import type { CallToolResult, Tool } from '../protocol/types.js';

/** Compiles and caches output-schema validators keyed by tool definition object. */
export class OutputValidator {
  private readonly compiled = new WeakMap<Tool, CompiledJsonSchema | Error>();

  /** Throws an `invalid-output` LocalError when `result` breaks `tool.outputSchema`. */
  check(tool: Tool, result: CallToolResult): void {
    const schema = tool.outputSchema;
    if (!schema || result.isError === true) return;
    if (result.structuredContent === undefined) {
      throw new LocalError(
        'invalid-output',
        `Tool "${tool.name}" has an output schema but returned no structured content`,
      );
    }
    let validator = this.compiled.get(tool);
    if (!validator) {
      try {
        validator = compileJsonSchema(schema);
      } catch (error) {
        validator = error instanceof Error ? error : new Error(String(error));
      }
      this.compiled.set(tool, validator);
    }
    if (validator instanceof Error) {
      throw new LocalError(
        'invalid-tool',
        `Cannot validate the output of tool "${tool.name}": ${validator.message}`,
      );
    }
    const check = validator.validate(result.structuredContent);
    if (!check.ok) {
      throw new LocalError(
        'invalid-output',
        `Tool "${tool.name}" returned structured content that breaks its output schema: ${describeIssues(check.issues)}`,
      );
    }
  }
}
