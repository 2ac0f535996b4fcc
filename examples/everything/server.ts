/**
 * The "everything" server: one tool per feature of toolwire's server side. Run it over stdio with
 * `node build/examples/everything/server.js [--tools N]`, or serve the module with
 * `toolwire serve build/examples/everything/server.js` (EVERYTHING_TOOLS=N adds N bulk tools).
 */
import { fileURLToPath } from 'node:url';
import {
  audio,
  embeddedBlob,
  embeddedText,
  image,
  McpServer,
  resourceLink,
  text,
  ToolError,
  type RegisteredTool,
} from 'toolwire';
import type { InstanceLink } from 'toolwire/redis';
import { StdioServerTransport } from 'toolwire/stdio';
import * as z from 'zod';
import { PNG_1X1, toneWav } from './media.js';

// Each wait removes its listener: a long tool sleeping in a loop would otherwise pile them up
// on the call's signal (and Node warns past 10).
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** Options of {@link createEverythingServer}. */
export interface EverythingOptions {
  /** Adds that many trivial tools (for listing benchmarks). */
  bulkTools?: number;
  /** Other instances serving the same clients (`toolwire serve --redis`): tool changes reach them. */
  instances?: InstanceLink;
}

/**
 * A change every instance makes: applied here, then broadcast to the other instances, which
 * apply it too (each then tells its own clients with list_changed). Resolves with false when
 * the other instances could not be told.
 */
function sharedChange<T>(
  instances: InstanceLink | undefined,
  topic: string,
  apply: (data: T) => void,
): (data: T) => Promise<boolean> {
  void instances?.onBroadcast(topic, (data) => apply(data as T)).catch(() => {});
  return async (data) => {
    apply(data);
    if (!instances) return true;
    return instances.broadcast(topic, data).then(
      () => true,
      () => false,
    );
  };
}

const NOT_SHARED = ' (changed on this instance only: the other instances could not be told)';

/** Builds the server. */
export function createEverythingServer(options: EverythingOptions = {}): McpServer {
  const server = new McpServer(
    {
      name: 'toolwire-everything',
      version: '1.0.0',
      title: 'Everything',
      description: 'Every toolwire server feature',
    },
    { instructions: 'A demonstration server: each tool shows one feature.' },
  );

  server.registerTool(
    'echo',
    {
      title: 'Echo',
      description: 'Returns the message',
      inputSchema: z.object({ message: z.string().describe('Text to echo') }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ message }) => message,
  );

  server.registerTool(
    'add',
    {
      title: 'Add',
      description: 'Adds two numbers (structured output, plain JSON Schema)',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
        additionalProperties: false,
      } as const,
      outputSchema: {
        type: 'object',
        properties: { sum: { type: 'number' } },
        required: ['sum'],
      } as const,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ a, b }) => ({ structuredContent: { sum: a + b } }),
  );

  server.registerTool(
    'weather',
    {
      title: 'Weather',
      description: 'Current weather for a city (structured output)',
      inputSchema: z.object({
        city: z.string(),
        units: z.enum(['celsius', 'fahrenheit']).default('celsius'),
      }),
      outputSchema: z.object({
        city: z.string(),
        temperature: z.number(),
        units: z.string(),
        conditions: z.string(),
      }),
      icons: [{ src: `data:image/png;base64,${PNG_1X1}`, mimeType: 'image/png', sizes: ['1x1'] }],
    },
    ({ city, units }) => {
      const celsius = 18 + (city.length % 10);
      const temperature = units === 'celsius' ? celsius : Math.round(celsius * 1.8 + 32);
      return { structuredContent: { city, temperature, units, conditions: 'Partly cloudy' } };
    },
  );

  server.registerTool('sample_image', { description: 'Returns a 1x1 PNG' }, () => ({
    content: [image(PNG_1X1, 'image/png')],
  }));
  server.registerTool('sample_audio', { description: 'Returns a short WAV tone' }, () => ({
    content: [audio(toneWav(), 'audio/wav')],
  }));

  server.registerTool(
    'resources',
    { description: 'Returns a resource link, an embedded text and an embedded blob' },
    () => ({
      content: [
        resourceLink({
          uri: 'file:///project/README.md',
          name: 'README.md',
          title: 'Read me',
          mimeType: 'text/markdown',
          description: 'Project readme',
        }),
        embeddedText('file:///project/hello.txt', 'Hello from an embedded resource', {
          mimeType: 'text/plain',
        }),
        embeddedBlob('file:///project/pixel.png', PNG_1X1, { mimeType: 'image/png' }),
      ],
    }),
  );

  server.registerTool(
    'annotated',
    { description: 'Content with audience, priority and modification time' },
    () => ({
      content: [
        text('For the user only', { annotations: { audience: ['user'], priority: 0.9 } }),
        text('Background for the model', {
          annotations: {
            audience: ['assistant'],
            priority: 0.2,
            lastModified: '2025-01-01T00:00:00Z',
          },
        }),
      ],
    }),
  );

  server.registerTool(
    'long_running',
    {
      title: 'Long running',
      description:
        'Reports progress for each step; honours cancellation; runs as a task on request',
      execution: { taskSupport: 'optional' },
      inputSchema: z.object({
        steps: z.number().int().min(1).max(100).default(5),
        delayMs: z.number().int().min(0).max(10_000).default(200),
      }),
      timeoutMs: 120_000,
    },
    async ({ steps, delayMs }, ctx) => {
      for (let i = 1; i <= steps; i++) {
        await sleep(delayMs, ctx.signal);
        ctx.progress(i, { total: steps, message: `Step ${i} of ${steps}` });
      }
      return `Finished ${steps} steps`;
    },
  );

  server.registerTool(
    'log',
    {
      description: 'Sends log messages at each level',
      inputSchema: z.object({ message: z.string().default('hello') }),
    },
    ({ message }, ctx) => {
      ctx.log.debug(`debug: ${message}`);
      ctx.log.info(`info: ${message}`, 'everything');
      ctx.log.warning({ message, note: 'structured log data' }, 'everything');
      ctx.log.error(`error: ${message}`);
      return 'Logged four messages';
    },
  );

  server.registerTool(
    'report',
    {
      title: 'Report',
      description: 'Writes a report in the background: always runs as a task (2025-11-25)',
      inputSchema: z.object({
        topic: z.string().default('MCP tasks'),
        sections: z.number().int().min(1).max(20).default(3),
        delayMs: z.number().int().min(0).max(60_000).default(500),
      }),
      outputSchema: z.object({ topic: z.string(), sections: z.array(z.string()) }),
      execution: { taskSupport: 'required' },
      immediateResponse: 'The report is being written; it will be ready shortly.',
    },
    async ({ topic, sections, delayMs }, ctx) => {
      const written: string[] = [];
      for (let i = 1; i <= sections; i++) {
        await sleep(delayMs, ctx.signal);
        written.push(`Section ${i} on ${topic}`);
        ctx.progress(i, { total: sections, message: `Wrote section ${i}` });
      }
      return { structuredContent: { topic, sections: written } };
    },
  );

  server.registerTool('fail', { description: 'Always fails with a tool execution error' }, () => {
    throw new ToolError('This tool always fails, on purpose');
  });

  // Tool set changes: made on every instance when several serve the same clients.
  const { instances } = options;
  const dynamic = new Map<string, RegisteredTool>();
  const addDynamic = sharedChange<string>(instances, 'everything.add', (full) => {
    if (dynamic.has(full)) return;
    dynamic.set(
      full,
      server.registerTool(
        full,
        { description: `Added at ${new Date().toISOString()}` },
        () => `I am ${full}`,
      ),
    );
  });
  const removeDynamic = sharedChange<string>(instances, 'everything.remove', (full) => {
    dynamic.get(full)?.remove();
    dynamic.delete(full);
  });
  server.registerTool(
    'add_tool',
    {
      description: 'Registers a tool named dynamic_<name> (sends list_changed)',
      inputSchema: z.object({ name: z.string().regex(/^[A-Za-z0-9_]{1,40}$/) }),
    },
    async ({ name }) => {
      const full = `dynamic_${name}`;
      if (dynamic.has(full)) throw new ToolError(`${full} already exists`);
      return `Registered ${full}${(await addDynamic(full)) ? '' : NOT_SHARED}`;
    },
  );
  server.registerTool(
    'remove_tool',
    { description: 'Removes a dynamic tool', inputSchema: z.object({ name: z.string() }) },
    async ({ name }) => {
      if (!dynamic.has(name)) throw new ToolError(`No dynamic tool named ${name}`);
      return `Removed ${name}${(await removeDynamic(name)) ? '' : NOT_SHARED}`;
    },
  );
  const toggled = server.registerTool(
    'toggled',
    { description: 'A tool that toggle_tool hides and shows' },
    () => 'visible',
  );
  const setToggled = sharedChange<boolean>(instances, 'everything.toggle', (enabled) => {
    if (enabled) toggled.enable();
    else toggled.disable();
  });
  server.registerTool(
    'toggle_tool',
    { description: 'Enables or disables the "toggled" tool' },
    async () => {
      const told = await setToggled(!toggled.enabled);
      return `toggled is now ${toggled.enabled ? 'enabled' : 'disabled'}${told ? '' : NOT_SHARED}`;
    },
  );

  server.registerTool(
    'ask_user',
    {
      description: 'Asks the user for their name (elicitation)',
      inputSchema: z.object({ question: z.string().default('What is your name?') }),
    },
    async ({ question }, ctx) => {
      const answer = await ctx.elicit({
        message: question,
        requestedSchema: {
          type: 'object',
          properties: { name: { type: 'string' } },
          required: ['name'],
        },
      });
      return answer.action === 'accept'
        ? `Hello, ${String(answer.content?.['name'])}`
        : `The user chose ${answer.action}`;
    },
  );
  server.registerTool(
    'summarize',
    {
      description: "Asks the client's model to summarise a text (sampling)",
      inputSchema: z.object({ text: z.string() }),
    },
    async ({ text: body }, ctx) => {
      const reply = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: `Summarise: ${body}` } }],
        maxTokens: 200,
      });
      const content = Array.isArray(reply.content) ? reply.content[0] : reply.content;
      return typeof content === 'object' && content && 'text' in content
        ? String(content.text)
        : '(no text)';
    },
  );
  server.registerTool('roots', { description: "Lists the client's roots" }, async (_args, ctx) => {
    const { roots } = await ctx.listRoots();
    return roots.map((r) => r.uri).join('\n') || '(no roots)';
  });

  for (let i = 0; i < (options.bulkTools ?? 0); i++) {
    server.registerTool(
      `bulk_${i}`,
      {
        title: `Bulk tool ${i}`,
        description: `Generated tool number ${i}`,
        inputSchema: {
          type: 'object',
          properties: { value: { type: 'string', description: 'Any text' } },
        } as const,
      },
      ({ value }) => `bulk_${i}: ${value ?? ''}`,
    );
  }
  return server;
}

function bulkFromArgs(): number {
  const i = process.argv.indexOf('--tools');
  const raw = i >= 0 ? process.argv[i + 1] : process.env['EVERYTHING_TOOLS'];
  const n = Number(raw ?? 0);
  return Number.isInteger(n) && n >= 0 ? n : 0;
}

/**
 * For `toolwire serve`: the server with bulk tools from EVERYTHING_TOOLS, linked to the other
 * instances when served with `--redis`.
 */
export default (context: { instances?: InstanceLink } = {}) =>
  createEverythingServer({
    bulkTools: bulkFromArgs(),
    ...(context.instances ? { instances: context.instances } : {}),
  });

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await createEverythingServer({ bulkTools: bulkFromArgs() }).connect(new StdioServerTransport());
}
