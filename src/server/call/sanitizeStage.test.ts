import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { connect } from '../../../test/support/harness.js';
import { COMMON_SECRET_PATTERNS, McpServer, ToolError } from '../../server.js';

const ESC = '\u001b';

function server(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const errors: string[] = [];
  const s = new McpServer(
    { name: 'sanitize', version: '1' },
    { onerror: (e, what) => errors.push(`${what}: ${String(e)}`), ...options },
  );
  return { server: s, errors };
}

describe('the sanitize stage in the call pipeline', () => {
  it('strips terminal sequences and bidi controls from what a handler returns', async () => {
    const { server: s } = server();
    s.registerTool('colour', {}, () => ({
      content: [
        { type: 'text', text: `${ESC}[31mred${ESC}[0m ${ESC}]8;;https://evil.example${ESC}\\link` },
        { type: 'text', text: 'abc\u202Edef' },
      ],
    }));
    const c = await connect(s);
    const result = await c.client.callTool('colour');
    expect(result.content).toEqual([
      { type: 'text', text: 'red link' },
      { type: 'text', text: 'abcdef' },
    ]);
  });

  it('withholds a resource link with a script URI and reports it once', async () => {
    const { server: s, errors } = server();
    s.registerTool('links', {}, () => ({
      content: [
        { type: 'resource_link', uri: 'JaVaScRiPt:alert(1)', name: 'x' },
        { type: 'resource_link', uri: 'https://example.com/doc', name: 'doc' },
      ],
    }));
    const c = await connect(s);
    const result = await c.client.callTool('links');
    expect(result.content[0]).toMatchObject({
      type: 'text',
      text: expect.stringContaining('withheld by the server'),
    });
    expect(result.content[1]).toMatchObject({
      type: 'resource_link',
      uri: 'https://example.com/doc',
    });
    expect(errors.filter((e) => e.includes('output was sanitised'))).toHaveLength(1);
  });

  it('validates the output schema against the sanitised structured content', async () => {
    const { server: s } = server();
    s.registerTool(
      'status',
      { outputSchema: z.object({ state: z.enum(['ok', 'failed']) }) },
      () => ({ structuredContent: { state: `ok${ESC}[2J` as 'ok' } }),
    );
    const c = await connect(s);
    const result = await c.client.callTool('status');
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ state: 'ok' });
  });

  it('redacts secrets when asked, in results, errors and what middleware add', async () => {
    const { server: s } = server({ sanitize: { redact: COMMON_SECRET_PATTERNS } });
    const key = 'AKIA' + 'ABCDEFGHIJKLMNOP';
    s.registerTool('leak', {}, () => `key=${key}`);
    s.registerTool('fail', {}, () => {
      throw new ToolError(`cannot use ${key}`);
    });
    s.use(async (request, next) => {
      const result = await next();
      if (request.tool?.name !== 'leak') return result;
      const content = result['content'] as unknown[];
      return { ...result, content: [...content, { type: 'text', text: `again ${key}${ESC}[1m` }] };
    });
    const c = await connect(s);
    const leak = await c.client.callTool('leak');
    expect(JSON.stringify(leak)).not.toContain(key);
    expect(leak.content).toEqual([
      { type: 'text', text: 'key=[REDACTED]' },
      { type: 'text', text: 'again [REDACTED]' },
    ]);
    const failed = await c.client.callTool('fail');
    expect(failed).toMatchObject({ isError: true, content: [{ text: 'cannot use [REDACTED]' }] });
  });

  it('strips progress messages, and lets a tool turn sanitising off for itself', async () => {
    const { server: s } = server();
    s.registerTool('raw', { sanitize: false }, () => `${ESC}[1mbold`);
    s.registerTool('progress', {}, async (_args, ctx) => {
      ctx.progress(1, { total: 2, message: `half${ESC}[K` });
      return 'done';
    });
    const c = await connect(s);
    expect((await c.client.callTool('raw')).content).toEqual([
      { type: 'text', text: `${ESC}[1mbold` },
    ]);
    const messages: Array<string | undefined> = [];
    await c.client.callTool('progress', {}, { onprogress: (p) => messages.push(p.message) });
    expect(messages).toEqual(['half']);
  });

  it('refuses unusable options when the server or the tool is configured', () => {
    expect(() => server({ sanitize: { uriSchemes: ['javascript'] } })).toThrow(
      /Server option sanitize\.uriSchemes/,
    );
    const { server: s } = server();
    expect(() =>
      s.registerTool(
        't',
        { sanitize: { nope: true } as unknown as { controls: boolean } },
        () => '',
      ),
    ).toThrow(/Tool "t": sanitize/);
  });
});
