// The "everything" example server, driven feature by feature over stdio by the toolwire client.
import { describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import type { LoggingMessageParams } from '../../src/protocol/types.js';
import { StdioClientTransport } from '../../src/stdio.js';
import { CLI, EVERYTHING } from '../support/paths.js';
import { sleep } from '../support/scriptedTransport.js';

describe('the everything server', () => {
  it('serves every feature: content types, structured output, logging, dynamic tools, client requests', async () => {
    const logs: LoggingMessageParams[] = [];
    const changes: string[][] = [];
    const client = new McpClient(
      { name: 'tour', version: '1' },
      {
        protocolEra: 'legacy',
        onLog: (m) => logs.push(m),
        onToolsChanged: (tools) => changes.push(tools.map((t) => t.name)),
        handlers: {
          sampling: (params) => ({
            role: 'assistant',
            model: 'fake',
            content: {
              type: 'text',
              text: `summary of ${JSON.stringify(params.messages[0]?.content).length} chars`,
            },
          }),
          elicitation: () => ({ action: 'accept', content: { name: 'Grace' } }),
          roots: () => [{ uri: 'file:///home/grace/project' }],
        },
      },
    );
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [EVERYTHING] }),
    );
    const types = async (name: string) => (await client.callTool(name)).content.map((b) => b.type);
    expect(await types('sample_image')).toEqual(['image']);
    expect(await types('sample_audio')).toEqual(['audio']);
    expect(await types('resources')).toEqual(['resource_link', 'resource', 'resource']);
    expect(await client.callTool('annotated')).toMatchObject({
      content: [
        { annotations: { audience: ['user'] } },
        { annotations: { audience: ['assistant'] } },
      ],
    });
    expect(await client.callTool('weather', { city: 'Oslo', units: 'fahrenheit' })).toMatchObject({
      structuredContent: { units: 'fahrenheit' },
    });
    expect(await client.callTool('fail')).toMatchObject({ isError: true });

    await client.callTool('log', { message: 'tour' });
    await sleep(20);
    expect(logs.map((l) => l.level)).toEqual(['debug', 'info', 'warning', 'error']);

    await client.listTools();
    await client.callTool('add_tool', { name: 'extra' });
    await sleep(80);
    expect(changes.at(-1)).toContain('dynamic_extra');
    expect(await client.callTool('dynamic_extra')).toMatchObject({
      content: [{ text: 'I am dynamic_extra' }],
    });
    await client.callTool('toggle_tool');
    await sleep(80);
    expect(changes.at(-1)).not.toContain('toggled');
    await client.callTool('remove_tool', { name: 'dynamic_extra' });
    await sleep(80);
    expect(changes.at(-1)).not.toContain('dynamic_extra');

    expect(await client.callTool('ask_user')).toMatchObject({
      content: [{ text: 'Hello, Grace' }],
    });
    expect(await client.callTool('summarize', { text: 'a long text' })).toMatchObject({
      content: [{ text: expect.stringContaining('summary of') }],
    });
    expect(await client.callTool('roots')).toMatchObject({
      content: [{ text: 'file:///home/grace/project' }],
    });
    await client.close();
  });

  it('registers 1000 extra tools on request, and a client walks every page', async () => {
    const client = new McpClient({ name: 'bulk', version: '1' }, { protocolEra: 'legacy' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'serve', EVERYTHING],
        env: { EVERYTHING_TOOLS: '1000' },
      }),
    );
    const pages: number[] = [];
    for await (const page of client.pages()) pages.push(page.tools.length);
    expect(pages).toEqual([1000, 18]); // the default page size is 1000
    expect(await client.listTools()).toHaveLength(1018);
    expect(await client.callTool('bulk_999', { value: 'v' })).toMatchObject({
      content: [{ text: 'bulk_999: v' }],
    });
    await client.close();
  });
});
