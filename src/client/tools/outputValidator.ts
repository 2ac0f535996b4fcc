/**
 * @module Client-side check of structured results against the tool's output schema (the spec's
 * SHOULD), so a result that breaks it never reaches the model. The schema is compiled before the
 * call (once per tool definition): a schema the client cannot validate, such as one in a dialect it
 * does not support, refuses the call before the server runs anything, rather than after its side
 * effects, as the spec asks ("handle unsupported dialects gracefully by returning an appropriate
 * error").
 */
import { LocalError } from '../../jsonrpc/errors.js';
import {
  compileJsonSchema,
  describeIssues,
  type CompiledJsonSchema,
  type JsonSchemaDialect,
} from '../../protocol/jsonSchema.js';
import type { CallToolResult, Tool } from '../../protocol/types.js';

/** Compiles and caches output-schema validators keyed by tool definition object. */
export class OutputValidator {
  private readonly compiled = new WeakMap<Tool, CompiledJsonSchema | LocalError>();

  /**
   * The validator of a tool's output schema, compiled on first use; undefined when the tool has
   * none. `byDefault` is the dialect of a schema without `$schema` (2020-12 from 2025-11-25,
   * draft-07 before). Throws an `unsupported-schema` LocalError when the schema cannot be used.
   */
  prepare(tool: Tool, byDefault: JsonSchemaDialect): CompiledJsonSchema | undefined {
    const schema = tool.outputSchema;
    if (!schema) return undefined;
    let validator = this.compiled.get(tool);
    if (!validator) {
      try {
        validator = compileJsonSchema(schema, byDefault);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        validator = new LocalError(
          'unsupported-schema',
          `Tool "${tool.name}" has an output schema this client cannot validate (${reason}), so it was not called; call it with validateOutput: false to accept its result unvalidated`,
          { cause: error },
        );
      }
      this.compiled.set(tool, validator);
    }
    if (validator instanceof LocalError) throw validator;
    return validator;
  }

  /** Throws an `invalid-output` LocalError when `result` breaks the tool's output schema. */
  check(tool: Tool, validator: CompiledJsonSchema, result: CallToolResult): void {
    if (result.isError === true) return;
    if (result.structuredContent === undefined) {
      throw new LocalError(
        'invalid-output',
        `Tool "${tool.name}" has an output schema but returned no structured content`,
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
