import { type } from 'arktype';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { connect } from '../../../test/support/harness.js';
import { McpServer } from '../../server.js';
import { NO_ARGUMENTS } from './noArguments.js';
import { compileToolSchema } from './toolSchema.js';

const server = () => new McpServer({ name: 'reg', version: '1' });

describe('registration rules', () => {
  it.each([
    ['', /must not be empty/],
    ['x'.repeat(129), /at most 128/],
    ['has space', /found " "/],
    ['comma,name', /found ","/],
    ['émoji', /found "é"/],
  ])('refuses the tool name %j', (name, message) => {
    expect(() => server().registerTool(name, {}, () => 'x')).toThrow(message);
  });

  it('accepts the names the spec gives as examples', () => {
    const s = server();
    for (const name of ['getUser', 'DATA_EXPORT_v2', 'admin.tools.list', 'a-b'])
      s.registerTool(name, {}, () => 'x');
    expect(s.listRegisteredTools()).toHaveLength(4);
  });

  it('refuses a duplicate name, also through a rename', () => {
    const s = server();
    s.registerTool('a', {}, () => 'x');
    const b = s.registerTool('b', {}, () => 'x');
    expect(() => s.registerTool('a', {}, () => 'x')).toThrow(/already registered/);
    expect(() => b.update({ name: 'a' })).toThrow(/already registered/);
  });

  it('refuses schemas whose root is not an object, invalid schemas and unsupported dialects', () => {
    const s = server();
    expect(() =>
      s.registerTool('a', { inputSchema: { type: 'string' } as never }, () => 'x'),
    ).toThrow(/"type": "object"/);
    expect(() =>
      s.registerTool(
        'b',
        { inputSchema: { type: 'object', properties: { x: { type: 'nonsense' } } } },
        () => 'x',
      ),
    ).toThrow(/not usable/);
    expect(() =>
      s.registerTool(
        'c',
        { inputSchema: { type: 'object', $schema: 'http://json-schema.org/draft-04/schema#' } },
        () => 'x',
      ),
    ).toThrow(/Unsupported JSON Schema dialect/);
    expect(() =>
      s.registerTool('d', { inputSchema: z.string() as unknown as z.ZodObject }, () => 'x'),
    ).toThrow(/must describe an object/);
    // An output schema may have any root (2026-07-28): 2025-era peers receive it wrapped.
    s.registerTool('e', { outputSchema: z.string() }, () => ({ structuredContent: 'x' }));
  });

  it('never fetches a network $ref: a schema referring to one is refused', () => {
    const s = server();
    for (const role of ['inputSchema', 'outputSchema'] as const)
      expect(() =>
        s.registerTool(
          'remote',
          {
            [role]: {
              type: 'object',
              properties: { p: { $ref: 'https://schemas.example.com/p.json' } },
            },
          },
          () => 'x',
        ),
      ).toThrow(/not usable/);
    expect(s.listRegisteredTools()).toEqual([]);
  });

  it('accepts draft-07 and 2019-09 schemas when declared', async () => {
    const s = server();
    s.registerTool(
      'd7',
      {
        inputSchema: {
          $schema: 'http://json-schema.org/draft-07/schema#',
          type: 'object',
          properties: { n: { type: 'integer' } },
          required: ['n'],
        },
      },
      () => 'ok',
    );
    s.registerTool(
      'd19',
      {
        inputSchema: {
          $schema: 'https://json-schema.org/draft/2019-09/schema',
          type: 'object',
          dependentRequired: { a: ['b'] },
        },
      },
      () => 'ok',
    );
    const c = await connect(s);
    expect((await c.client.callTool('d7', { n: 1.5 })).isError).toBe(true);
    expect((await c.client.callTool('d7', { n: 1 })).isError).toBeUndefined();
    expect((await c.client.callTool('d19', { a: 1 })).isError).toBe(true);
  });

  it('refuses an input schema whose x-mcp-header annotations a client would have to drop', () => {
    const s = server();
    const schema = (properties: Record<string, unknown>) => ({
      inputSchema: { type: 'object' as const, properties },
    });
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ n: { type: 'number', 'x-mcp-header': 'N' } }, /not a string, integer or boolean/],
      [{ a: { type: 'string', 'x-mcp-header': 'a b' } }, /not a header name/],
      [
        { a: { type: 'string', 'x-mcp-header': 'X' }, b: { type: 'string', 'x-mcp-header': 'x' } },
        /declared twice/,
      ],
      [{ l: { type: 'array', items: { type: 'string', 'x-mcp-header': 'L' } } }, /statically/],
    ];
    for (const [properties, problem] of bad)
      expect(() => s.registerTool('t', schema(properties), () => 'x')).toThrow(problem);
    expect(s.listRegisteredTools()).toEqual([]);
    s.registerTool(
      'ok',
      schema({ region: { type: 'string', 'x-mcp-header': 'Region' } }),
      () => 'x',
    );
    expect(s.listRegisteredTools()).toHaveLength(1);
  });

  it('refuses unsafe icons, bad annotations, bad task support and malformed _meta keys', () => {
    const s = server();
    expect(() =>
      s.registerTool('a', { icons: [{ src: 'javascript:alert(1)' }] }, () => 'x'),
    ).toThrow(/https: or data:/);
    expect(() =>
      s.registerTool('b', { icons: [{ src: 'http://example.com/i.png' }] }, () => 'x'),
    ).toThrow(/https: or data:/);
    expect(() =>
      s.registerTool('c', { annotations: { readOnlyHint: 'yes' as never } }, () => 'x'),
    ).toThrow(/readOnlyHint/);
    expect(() =>
      s.registerTool('d', { execution: { taskSupport: 'sometimes' as never } }, () => 'x'),
    ).toThrow(/taskSupport/);
    expect(() => s.registerTool('e', { _meta: { '-bad': 1 } }, () => 'x')).toThrow(/_meta key/);
    s.registerTool(
      'f',
      {
        icons: [{ src: 'https://example.com/i.png', sizes: ['48x48'] }],
        _meta: { 'com.example/tag': 1 },
      },
      () => 'x',
    );
  });

  it("compiles schemas once: later changes to the caller's object change nothing", async () => {
    const schema = {
      type: 'object' as const,
      properties: { n: { type: 'number' } },
      required: ['n'],
    };
    const s = server();
    s.registerTool('n', { inputSchema: schema }, () => 'ok');
    schema.properties.n.type = 'string';
    const c = await connect(s);
    expect((await c.client.listTools())[0]?.inputSchema).toMatchObject({
      properties: { n: { type: 'number' } },
    });
    expect((await c.client.callTool('n', { n: 1 })).isError).toBeUndefined();
  });

  it('defaults to an input schema that accepts only an empty object', async () => {
    const s = server();
    s.registerTool('none', {}, () => 'ok');
    const c = await connect(s);
    expect((await c.client.listTools())[0]?.inputSchema).toEqual({
      type: 'object',
      additionalProperties: false,
    });
    expect((await c.client.callTool('none', { extra: 1 })).isError).toBe(true);
  });

  it('checks the default schema by hand, with the issues the compiled schema gives', () => {
    const compiled = compileToolSchema(
      { type: 'object', additionalProperties: false },
      'input',
      'compiled',
    );
    for (const value of [{}, { a: 1 }, { a: 1, b: { c: 2 } }, [], null, 'text', 5, [1]]) {
      expect(NO_ARGUMENTS.validate(value), JSON.stringify(value)).toEqual(compiled.validate(value));
    }
    expect(NO_ARGUMENTS.jsonSchema).toEqual(compiled.jsonSchema);
    expect(NO_ARGUMENTS.legacyJsonSchema()).toEqual(compiled.legacyJsonSchema());
  });
});

describe('Standard Schema libraries', () => {
  it('validates and lists Zod, Valibot and ArkType schemas, passing the parsed value', async () => {
    const s = server();
    s.registerTool(
      'zod',
      { inputSchema: z.object({ n: z.coerce.number().int() }) },
      ({ n }) => `zod ${n + 1}`,
    );
    s.registerTool(
      'valibot',
      { inputSchema: toStandardJsonSchema(v.object({ s: v.pipe(v.string(), v.minLength(2)) })) },
      ({ s: value }) => `valibot ${value}`,
    );
    s.registerTool(
      'arktype',
      { inputSchema: type({ flag: 'boolean' }) },
      ({ flag }) => `arktype ${String(flag)}`,
    );
    const c = await connect(s);
    const tools = await c.client.listTools();
    expect(tools.map((t) => t.inputSchema.type)).toEqual(['object', 'object', 'object']);
    expect(tools[1]?.inputSchema).toMatchObject({
      properties: { s: { type: 'string', minLength: 2 } },
    });
    expect(await c.client.callTool('zod', { n: '41' })).toMatchObject({
      content: [{ text: 'zod 42' }],
    });
    expect(await c.client.callTool('valibot', { s: 'ok' })).toMatchObject({
      content: [{ text: 'valibot ok' }],
    });
    expect(await c.client.callTool('arktype', { flag: true })).toMatchObject({
      content: [{ text: 'arktype true' }],
    });
    for (const [name, args] of [
      ['zod', { n: 'x' }],
      ['valibot', { s: 'a' }],
      ['arktype', { flag: 1 }],
    ] as const) {
      expect(await c.client.callTool(name, args)).toMatchObject({
        isError: true,
        content: [{ text: expect.stringContaining(`Invalid arguments for tool "${name}"`) }],
      });
    }
  });

  it('refuses a Standard Schema that cannot describe itself as JSON Schema', () => {
    const bare = {
      '~standard': { version: 1, vendor: 'bare', validate: (value: unknown) => ({ value }) },
    };
    expect(() => server().registerTool('bare', { inputSchema: bare as never }, () => 'x')).toThrow(
      /cannot describe itself as JSON Schema/,
    );
  });
});

describe('type inference', () => {
  it('infers handler arguments and structured results from the schemas', () => {
    const s = server();
    s.registerTool(
      'json',
      {
        inputSchema: {
          type: 'object',
          properties: {
            city: { type: 'string' },
            days: { type: 'integer' },
            units: { enum: ['c', 'f'] },
            tags: { type: 'array', items: { type: 'string' } },
          },
          required: ['city'],
        } as const,
        outputSchema: {
          type: 'object',
          properties: { temp: { type: 'number' } },
          required: ['temp'],
        } as const,
      },
      (args) => {
        expectTypeOf(args).toEqualTypeOf<{
          city: string;
          days?: number;
          units?: 'c' | 'f';
          tags?: string[];
        }>();
        return { structuredContent: { temp: 21 } };
      },
    );
    s.registerTool(
      'zod',
      { inputSchema: z.object({ id: z.string() }), outputSchema: z.object({ ok: z.boolean() }) },
      (args) => {
        expectTypeOf(args).toEqualTypeOf<{ id: string }>();
        return { structuredContent: { ok: true } };
      },
    );
    s.registerTool('wrong', { outputSchema: z.object({ ok: z.boolean() }) }, () => ({
      // @ts-expect-error structuredContent must match the output schema
      structuredContent: { ok: 'yes' },
    }));
    s.registerTool('none', {}, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, never>>();
      return 'plain text';
    });
  });
});
