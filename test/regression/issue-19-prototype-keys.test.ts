/**
 * Issue 19, schemas: a tool whose input schema declares a property named `constructor` or
 * `prototype` could never receive it: every argument key of that name was refused as one that
 * reaches prototypes. And an optional one that the client left out was read from
 * `Object.prototype` by the validator (`constructor` is `Object` on every plain object), so the
 * call failed ("must be string"), or a `required: ["constructor"]` passed without it. Declared
 * keys are now accepted: the arguments of such a tool are validated and handed on as objects
 * without prototypes, where `constructor` and `prototype` are plain data the client sent, or
 * absent. Keys of those names that the schema does not declare are still refused, and
 * `__proto__` always is: a schema declaring it is refused when the tool is registered.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { McpServer } from '../../src/server.js';
import { connect } from '../support/harness.js';

const PROTOTYPE_REFUSAL = /is not accepted \(it could reach object prototypes\)/;

function server() {
  const received: Array<Record<string, unknown>> = [];
  const s = new McpServer({ name: 'reflect', version: '1' });
  const echo = (args: Record<string, unknown>) => {
    received.push(args);
    return JSON.stringify({
      constructor: args['constructor'] ?? null,
      prototype: args['prototype'] ?? null,
      prototypeOfArgs: Object.getPrototypeOf(args) === null ? 'none' : 'Object',
    });
  };
  s.registerTool(
    'describe_class',
    {
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          constructor: { type: 'string' },
          prototype: { type: 'object', properties: { methods: { type: 'array' } } },
        },
        required: ['name'],
      },
    },
    echo,
  );
  s.registerTool(
    'needs_constructor',
    { inputSchema: { type: 'object', properties: { constructor: {} }, required: ['constructor'] } },
    echo,
  );
  s.registerTool(
    'zod_class',
    { inputSchema: z.object({ name: z.string(), constructor: z.string().optional() }) },
    (args) => echo(args),
  );
  s.registerTool('free', { inputSchema: { type: 'object' } }, echo);
  // Declared below the root only, through a $ref in an array's items.
  s.registerTool(
    'classes',
    {
      inputSchema: {
        type: 'object',
        $defs: { Class: { type: 'object', properties: { constructor: { type: 'string' } } } },
        properties: { classes: { type: 'array', items: { $ref: '#/$defs/Class' } } },
      },
    },
    (args) => {
      received.push(args);
      const classes = args['classes'] as Array<Record<string, unknown>>;
      return classes
        .map((c) => (typeof c['constructor'] === 'string' ? c['constructor'] : '-'))
        .join(',');
    },
  );
  return { server: s, received };
}

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe('a declared constructor or prototype property', () => {
  it('is received as plain data, in a JSON Schema tool and a Zod tool', async () => {
    const { server: s } = server();
    const c = await connect(s);
    const args = JSON.parse(
      '{"name":"Point","constructor":"new Point(x, y)","prototype":{"methods":["norm"]}}',
    ) as Record<string, unknown>;
    const result = await c.client.callTool('describe_class', args);
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(textOf(result))).toEqual({
      constructor: 'new Point(x, y)',
      prototype: { methods: ['norm'] },
      prototypeOfArgs: 'none',
    });
    const zod = await c.client.callTool('zod_class', { name: 'P', constructor: 'P()' });
    expect(JSON.parse(textOf(zod))).toMatchObject({ constructor: 'P()', prototypeOfArgs: 'none' });
    expect(c.problems()).toEqual([]);
  });

  it('left out, is absent (not read from Object.prototype) for validators and handlers', async () => {
    const { server: s } = server();
    const c = await connect(s);
    expect(
      JSON.parse(textOf(await c.client.callTool('describe_class', { name: 'Point' }))),
    ).toEqual({ constructor: null, prototype: null, prototypeOfArgs: 'none' });
    expect(JSON.parse(textOf(await c.client.callTool('zod_class', { name: 'P' })))).toEqual({
      constructor: null,
      prototype: null,
      prototypeOfArgs: 'none',
    });
    const missing = await c.client.callTool('needs_constructor', {});
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/must have the property "constructor"/);
  });

  it('is taken where its schema declares it, also through $ref and array items', async () => {
    const { server: s } = server();
    const c = await connect(s);
    const result = await c.client.callTool('classes', {
      classes: [{ constructor: 'A()' }, {}, { constructor: 'C()' }],
    });
    expect(textOf(result)).toBe('A(),-,C()');
    // Not declared at the root of that tool.
    const root = await c.client.callTool('classes', { constructor: 'x', classes: [] });
    expect(root.isError).toBe(true);
    expect(textOf(root)).toMatch(/\/constructor: the key "constructor" is not accepted/);
  });

  it('does not let undeclared prototype keys through, nor __proto__, and pollutes nothing', async () => {
    const { server: s, received } = server();
    const c = await connect(s);
    for (const [tool, text] of [
      // `constructor` is declared here, but not `prototype` inside it.
      ['needs_constructor', '{"constructor":{"prototype":{"polluted":true}}}'],
      ['describe_class', '{"name":"x","prototype":{"constructor":{"polluted":true}}}'],
      ['describe_class', '{"name":"x","__proto__":{"polluted":true}}'],
      ['free', '{"constructor":"x"}'],
      ['classes', '{"classes":[{"prototype":{"polluted":true}}]}'],
    ] as const) {
      const result = await c.client.callTool(tool, JSON.parse(text) as Record<string, unknown>);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(PROTOTYPE_REFUSAL);
    }
    expect(received).toEqual([]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('registration', () => {
  it('refuses an input schema that declares __proto__, saying why', () => {
    const s = new McpServer({ name: 'reflect', version: '1' });
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as {
      type: 'object';
    };
    expect(() => s.registerTool('bad', { inputSchema: schema }, () => 'x')).toThrow(
      /input schema of tool "bad" declares a property named "__proto__", which arguments can never carry/,
    );
    const required = JSON.parse('{"type":"object","required":["__proto__"]}') as {
      type: 'object';
    };
    expect(() => s.registerTool('bad2', { inputSchema: required }, () => 'x')).toThrow(
      /"__proto__"/,
    );
  });

  it('accepts constructor and prototype, lists them, and takes them as data only where declared', async () => {
    const { server: s } = server();
    const c = await connect(s);
    const tools = await c.client.listTools();
    expect(tools.find((t) => t.name === 'describe_class')?.inputSchema).toMatchObject({
      properties: { constructor: { type: 'string' }, prototype: { type: 'object' } },
    });
    // A value, not a key: "constructor" as data is fine everywhere.
    const result = await c.client.callTool('free', { word: 'constructor' });
    expect(result.isError).toBeFalsy();
  });
});
