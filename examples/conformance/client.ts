/**
 * A client for the client-mode scenarios of the official MCP conformance suite: it is run as
 * `node client.js <server-url>` with the scenario name in MCP_CONFORMANCE_SCENARIO, connects with
 * toolwire's HTTP client, lists the tools and calls each with arguments it can infer.
 */
import { McpClient, type Tool } from 'toolwire';
import { HttpClientTransport, OAuthClient, type OAuthClientOptions } from 'toolwire/http';
import { headlessAuthorization } from './headlessAuthorization.js';

const url = process.argv[2];
if (!url) {
  console.error('usage: client.js <server-url>');
  process.exit(2);
}

/** Arguments for a tool, from its input schema: numbers get small integers, strings a word. */
function argumentsFor(tool: Tool): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: string }>;
  for (const [name, schema] of Object.entries(properties)) {
    if (schema.type === 'number' || schema.type === 'integer') args[name] = name === 'a' ? 5 : 3;
    else if (schema.type === 'boolean') args[name] = true;
    else if (schema.type === 'string') args[name] = 'conformance';
  }
  return args;
}

const client = new McpClient(
  { name: 'toolwire-conformance-client', version: '1.0.0' },
  {
    // Accept every elicitation without filling anything in: the schema's defaults apply (SEP-1034).
    handlers: { elicitation: () => ({ action: 'accept', content: {} }) },
    // The suite names the revision its test server speaks: 2026-07-28 is the stateless one.
    protocolEra:
      process.env['MCP_CONFORMANCE_PROTOCOL_VERSION'] === '2026-07-28' ? 'modern' : 'legacy',
  },
);
/**
 * For the `auth/*` scenarios: toolwire's OAuth client, with the suite's pre-registered
 * credentials when it gives some (MCP_CONFORMANCE_CONTEXT), the Client ID Metadata Document URL
 * its CIMD scenario expects, and its test servers on this machine allowed.
 */
function authFor(scenario: string): OAuthClient | undefined {
  if (!scenario.startsWith('auth/')) return undefined;
  const context = JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT'] ?? '{}') as {
    client_id?: string;
    client_secret?: string;
    issuer?: string;
  };
  const headless = headlessAuthorization();
  const options: OAuthClientOptions = {
    clientName: 'toolwire-conformance-client',
    clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
    openAuthorizationUrl: headless.open,
    redirectReceiver: headless.receiver,
    allowLoopbackHttp: true,
    authorizationTimeoutMs: 10_000,
  };
  if (context.client_id !== undefined)
    options.preRegistered = {
      clientId: context.client_id,
      ...(context.client_secret !== undefined ? { clientSecret: context.client_secret } : {}),
      ...(context.issuer !== undefined ? { issuer: context.issuer } : {}),
    };
  return new OAuthClient(options);
}

/** The calls a scenario asks for by name (`toolCalls` in MCP_CONFORMANCE_CONTEXT), if any. */
function scenarioCalls(): Array<{ name: string; arguments: Record<string, unknown> }> | undefined {
  const context = JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT'] ?? '{}') as {
    toolCalls?: Array<{ name: string; arguments?: Record<string, unknown> }>;
  };
  return context.toolCalls?.map((call) => ({ name: call.name, arguments: call.arguments ?? {} }));
}

const auth = authFor(process.env['MCP_CONFORMANCE_SCENARIO'] ?? '');
await client.connect(new HttpClientTransport(url, auth ? { auth } : {}));
// Only what the server declared: a server without the tools capability gets no tools/list.
const tools = client.serverCapabilities?.tools ? await client.listTools() : [];
const calls =
  scenarioCalls() ?? tools.map((tool) => ({ name: tool.name, arguments: argumentsFor(tool) }));
for (const call of calls) {
  // A call the server refuses is reported and the next one still made: some scenario servers
  // list tools they do not serve.
  try {
    const result = await client.callTool(call.name, call.arguments, { validateOutput: false });
    console.log(`${call.name}: ${JSON.stringify(result).slice(0, 200)}`);
  } catch (error) {
    console.log(`${call.name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
await client.close();
