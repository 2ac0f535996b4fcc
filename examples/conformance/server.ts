/**
 * The tools contract of the official MCP conformance suite (@modelcontextprotocol/conformance
 * 0.1.16), learned from its scenario sources: one tool per server scenario; the 2026-07-28
 * scenarios of 0.2.0-alpha.12 add theirs (fixtures2026.ts). Serve it with
 * `toolwire serve build/examples/conformance/server.js --http <port>`.
 */
import {
  audio,
  DEFAULT_URI_SCHEMES,
  embeddedText,
  image,
  McpServer,
  text,
  ToolError,
} from 'toolwire';
import * as z from 'zod';
import { PNG_1X1, toneWav } from '../everything/media.js';
import { register2026Fixtures } from './fixtures2026.js';
import { registerTasksFixtures } from './fixturesTasks.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Builds the server. */
export function createConformanceServer(): McpServer {
  // The suite's resources use the `test:` scheme: allowed beside the default schemes, as any
  // server with a custom scheme does (output sanitising holds resource URIs to an allow-list).
  const server = new McpServer(
    { name: 'toolwire-conformance', version: '1.0.0' },
    {
      sanitize: { uriSchemes: [...DEFAULT_URI_SCHEMES, 'test'] },
      // The tasks scenarios poll every 200 ms.
      tasks: { pollIntervalMs: 200 },
    },
  );

  server.registerTool(
    'test_simple_text',
    { description: 'Returns simple text' },
    () => 'This is a simple text response for testing.',
  );
  server.registerTool('test_image_content', { description: 'Returns a PNG image' }, () => ({
    content: [image(PNG_1X1, 'image/png')],
  }));
  server.registerTool('test_audio_content', { description: 'Returns WAV audio' }, () => ({
    content: [audio(toneWav(), 'audio/wav')],
  }));
  server.registerTool(
    'test_embedded_resource',
    { description: 'Returns an embedded resource' },
    () => ({
      content: [
        embeddedText('test://embedded-resource', 'This is an embedded resource content.', {
          mimeType: 'text/plain',
        }),
      ],
    }),
  );
  server.registerTool(
    'test_multiple_content_types',
    { description: 'Returns text, an image and a resource' },
    () => ({
      content: [
        text('Multiple content types test:'),
        image(PNG_1X1, 'image/png'),
        embeddedText(
          'test://mixed-content-resource',
          JSON.stringify({ test: 'data', value: 123 }),
          { mimeType: 'application/json' },
        ),
      ],
    }),
  );

  server.registerTool(
    'test_tool_with_logging',
    { description: 'Logs three messages while it runs' },
    async (_args, ctx) => {
      ctx.log.info('Tool execution started');
      await sleep(50);
      ctx.log.info('Tool processing data');
      await sleep(50);
      ctx.log.info('Tool execution completed');
      return 'Logging test completed';
    },
  );

  server.registerTool('test_error_handling', { description: 'Always fails' }, () => {
    throw new ToolError('This tool intentionally returns an error for testing');
  });

  server.registerTool(
    'test_tool_with_progress',
    { description: 'Reports progress 0, 50, 100 of 100' },
    async (_args, ctx) => {
      ctx.progress(0, { total: 100 });
      await sleep(50);
      ctx.progress(50, { total: 100 });
      await sleep(50);
      ctx.progress(100, { total: 100 });
      return 'Progress test completed';
    },
  );

  server.registerTool(
    'test_sampling',
    { description: 'Asks the client to sample', inputSchema: z.object({ prompt: z.string() }) },
    async ({ prompt }, ctx) => {
      const reply = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: 100,
      });
      const first = Array.isArray(reply.content) ? reply.content[0] : reply.content;
      const said = first && 'text' in first ? String(first.text) : JSON.stringify(first);
      return `LLM response: ${said}`;
    },
  );

  server.registerTool(
    'test_elicitation',
    {
      description: 'Asks the user for a username and email',
      inputSchema: z.object({ message: z.string() }),
    },
    async ({ message }, ctx) => {
      const answer = await ctx.elicit({
        message,
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return `User response: <action: ${answer.action}, content: ${JSON.stringify(answer.content ?? {})}>`;
    },
  );

  server.registerTool(
    'test_elicitation_sep1034_defaults',
    { description: 'Elicits with a default for each primitive type' },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Please review and update the form fields with defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: {
              type: 'string',
              description: 'User status',
              enum: ['active', 'inactive', 'pending'],
              default: 'active',
            },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
        },
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  );

  server.registerTool(
    'test_elicitation_sep1330_enums',
    { description: 'Elicits with every enum schema variant' },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Please select options from the enum fields',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: {
              type: 'string',
              description: 'Untitled single-select',
              enum: ['option1', 'option2', 'option3'],
            },
            titledSingle: {
              type: 'string',
              description: 'Titled single-select',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              description: 'Legacy titled enum',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              description: 'Untitled multi-select',
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              description: 'Titled multi-select',
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
        },
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  );

  server.registerTool(
    'json_schema_2020_12_tool',
    {
      description: 'Tool with JSON Schema 2020-12 features',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            $anchor: 'addressDef',
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        // Composition and conditionals (2026-07-28 checks they are listed as given).
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      },
    },
    () => 'ok',
  );

  server.registerTool(
    'test_reconnection',
    { description: 'Closes its SSE stream mid-call; the client resumes to get the result' },
    async (_args, ctx) => {
      await sleep(20);
      ctx.closeStream();
      await sleep(100);
      return 'Reconnection test completed successfully';
    },
  );

  register2026Fixtures(server);
  registerTasksFixtures(server);
  return server;
}

export default createConformanceServer;
