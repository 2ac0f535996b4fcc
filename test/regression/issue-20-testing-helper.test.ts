/**
 * Issue 20, testing one's own tools: the only testing helper was the linked transport pair. A
 * tool author now gets, in one call, a client connected to their server in memory at a chosen
 * revision (`connectInMemory` of `toolwire/testing`), and, as an option, the check toolwire's
 * own tests make: every message the server sends is validated against the official schema of
 * that revision, closed so that a field the revision lacks fails. The schemas ship in the
 * package. A message that fails never reaches the client; the call waiting for it rejects with
 * a `WireViolation` naming the revision, the JSON pointer and the message.
 */
import { describe, expect, it } from 'vitest';
import {
  MODERN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../../src/protocol/versions.js';
import { McpServer } from '../../src/server.js';
import { revisionSchema } from '../../src/testing/eras/revisionSchemas.js';
import { connectInMemory, WireViolation } from '../../src/testing.js';

const text = (r: { content: unknown[] }) => (r.content[0] as { text: string }).text;

/** A tool asking the user for a name, with a default (which only 2025-11-25 defines). */
function askingServer(): McpServer {
  const server = new McpServer({ name: 'asking', version: '1' });
  server.registerTool('ask_name', {}, async (_args, { elicit }) => {
    const answer = await elicit({
      message: 'Your name?',
      requestedSchema: {
        type: 'object',
        properties: { name: { type: 'string', default: 'Ada' } },
      },
    });
    return JSON.stringify(answer);
  });
  return server;
}

const elicitation = {
  handlers: { elicitation: () => ({ action: 'accept' as const, content: { name: 'Bo' } }) },
};

describe('issue 20: connectInMemory connects a client at a chosen revision', () => {
  for (const revision of [...SUPPORTED_PROTOCOL_VERSIONS, ...MODERN_PROTOCOL_VERSIONS]) {
    it(`at ${revision}, with every message checked`, async () => {
      const server = new McpServer({ name: 'weather', version: '1' });
      server.registerTool(
        'forecast',
        {
          title: 'Forecast',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
          annotations: { readOnlyHint: true },
        },
        ({ city }, { log, progress }) => {
          log.info({ city });
          progress(1, { total: 1, message: 'done' });
          return `Sunny in ${String(city)}`;
        },
      );
      const c = await connectInMemory(server, { revision, validateWire: true });
      expect(c.revision).toBe(revision);
      expect(c.client.protocolVersion).toBe(revision);
      expect(c.session.protocolVersion).toBe(revision);
      await c.client.setLoggingLevel('debug');
      const tools = await c.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['forecast']);
      const result = await c.client.callTool(
        'forecast',
        { city: 'Oslo' },
        { onprogress: () => {} },
      );
      expect(text(result)).toBe('Sunny in Oslo');
      expect(c.violations).toEqual([]);
      await c.close();
    });
  }

  it('asks for the latest revision by default and hands on client and server options', async () => {
    const server = askingServer();
    server.registerTool('whoami', {}, (_args, { identity }) => identity?.id ?? 'nobody');
    const c = await connectInMemory(server, {
      client: elicitation,
      clientInfo: { name: 'my-tests', version: '2.0.0' },
      server: { identity: { id: 'alice' } },
    });
    expect(c.revision).toBe('2025-11-25');
    expect(c.session.info.clientInfo).toMatchObject({ name: 'my-tests', version: '2.0.0' });
    expect(text(await c.client.callTool('whoami'))).toBe('alice');
    expect(JSON.parse(text(await c.client.callTool('ask_name')))).toEqual({
      action: 'accept',
      content: { name: 'Bo' },
    });
    await c.close();
  });

  it('refuses a revision toolwire does not speak', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    await expect(
      connectInMemory(server, { revision: '2099-01-01' as never, validateWire: true }),
    ).rejects.toThrow(/Unknown revision "2099-01-01": use one of 2024-11-05, .*, 2026-07-28$/);
  });
});

describe('issue 20: validateWire fails the test on a message the revision does not allow', () => {
  it('a field the revision lacks: the request to the client fails the call waiting on it', async () => {
    // Valid at 2025-11-25, which added `default` to elicitation schemas...
    const latest = await connectInMemory(askingServer(), {
      revision: '2025-11-25',
      validateWire: true,
      client: elicitation,
    });
    expect(JSON.parse(text(await latest.client.callTool('ask_name')))).toMatchObject({
      action: 'accept',
    });
    await latest.close();
    // ...but not at 2025-06-18: the client never sees the request, the call rejects.
    let asked = false;
    const older = await connectInMemory(askingServer(), {
      revision: '2025-06-18',
      validateWire: true,
      client: {
        handlers: {
          elicitation: () => {
            asked = true;
            return { action: 'decline' };
          },
        },
      },
    });
    const error = await older.client.callTool('ask_name').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WireViolation);
    const violation = error as WireViolation;
    expect(violation.revision).toBe('2025-06-18');
    expect(violation.sent).toMatchObject({ method: 'elicitation/create' });
    expect(violation.problems).toContainEqual({
      definition: 'ElicitRequest',
      pointer: '/params/requestedSchema/properties/name',
      message: 'must NOT have additional properties',
      params: { additionalProperty: 'default' },
    });
    expect(violation.message).toContain('not valid for MCP revision 2025-06-18');
    expect(violation.message).toContain(
      '/params/requestedSchema/properties/name: must NOT have additional properties {"additionalProperty":"default"} (ElicitRequest)',
    );
    expect(violation.message).toContain('"method":"elicitation/create"');
    expect(asked).toBe(false);
    expect(older.violations).toEqual([violation]);
    await older.close(); // reported by the call: close() does not throw it again
  });

  it('a response that breaks the schema rejects the request it answers', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    // An annotation no revision defines: toolwire lists it as given.
    server.registerTool(
      't',
      { annotations: { readOnlyHint: true, cheapHint: true } as never },
      () => 'x',
    );
    const c = await connectInMemory(server, { revision: '2025-03-26', validateWire: true });
    const listed = c.client.listTools();
    await expect(listed).rejects.toThrow(WireViolation);
    await expect(listed).rejects.toMatchObject({
      revision: '2025-03-26',
      problems: [
        {
          definition: 'ListToolsResult',
          pointer: '/result/tools/0/annotations',
          params: { additionalProperty: 'cheapHint' },
        },
      ],
    });
    await c.close();
  });

  it('at 2026-07-28 too: a listing with a field the revision lacks', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool(
      't',
      { annotations: { readOnlyHint: true, cheapHint: true } as never },
      () => 'x',
    );
    const c = await connectInMemory(server, { revision: '2026-07-28', validateWire: true });
    await expect(c.client.listTools()).rejects.toMatchObject({
      name: 'WireViolation',
      revision: '2026-07-28',
      problems: [
        expect.objectContaining({
          definition: 'ListToolsResult',
          pointer: '/result/tools/0/annotations',
          params: { additionalProperty: 'cheapHint' },
        }),
      ],
    });
    await c.close();
  });

  it('a notification that breaks the schema fails the call it came from', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('t', {}, (_args, { log }) => {
      log.info(undefined); // `data` is required: JSON drops an undefined one
      return 'logged';
    });
    const c = await connectInMemory(server, { revision: '2024-11-05', validateWire: true });
    await c.client.setLoggingLevel('info');
    await expect(c.client.callTool('t')).rejects.toMatchObject({
      name: 'WireViolation',
      problems: [
        expect.objectContaining({ definition: 'LoggingMessageNotification', pointer: '/params' }),
      ],
    });
    await c.close();
  });

  it('one that no request could report makes close() reject with it', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    const c = await connectInMemory(server, { revision: '2025-06-18', validateWire: true });
    c.session.log({ level: 'emergency', data: undefined }); // sent as { level } alone
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(c.violations).toHaveLength(1);
    const closed = c.close();
    await expect(closed).rejects.toThrow(WireViolation);
    await expect(closed).rejects.toThrow("/params: must have required property 'data'");
  });

  it('without validateWire nothing is checked', async () => {
    const c = await connectInMemory(askingServer(), {
      revision: '2025-06-18',
      client: elicitation,
    });
    expect(JSON.parse(text(await c.client.callTool('ask_name')))).toMatchObject({
      action: 'accept',
    });
    expect(c.violations).toEqual([]);
    await c.close();
  });

  it('builds the schema of a revision once, for every connection at it', async () => {
    const first = await revisionSchema('2025-03-26');
    const server = new McpServer({ name: 's', version: '1' });
    const a = await connectInMemory(server, { revision: '2025-03-26', validateWire: true });
    const b = await connectInMemory(server, { revision: '2025-03-26', validateWire: true });
    expect(await revisionSchema('2025-03-26')).toBe(first);
    await a.close();
    await b.close();
  });
});
