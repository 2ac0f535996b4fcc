// The official SDK's Streamable HTTP server (stateful), doing the same work as httpToolwire.ts on
// Node's http server. Prints its URL on stdout. JSON_RESPONSE=1 turns on its JSON response mode.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { sdkServer } from './sdkTools.js';

const transports = new Map<string, StreamableHTTPServerTransport>();
const json = process.env['JSON_RESPONSE'] === '1';

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0
    ? undefined
    : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
}

const http = createServer((req, res) => {
  void (async () => {
    const sessionId = req.headers['mcp-session-id'] as string | undefined;
    const parsed = req.method === 'POST' ? await body(req) : undefined;
    let transport = sessionId ? transports.get(sessionId) : undefined;
    if (!transport) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: json,
        onsessioninitialized: (id) => void transports.set(id, created),
      });
      transport = created;
      await sdkServer('sdk-http-bench').connect(created);
    }
    await transport.handleRequest(req, res, parsed);
  })();
});
http.listen(0, '127.0.0.1', () => {
  const address = http.address();
  if (address && typeof address === 'object')
    process.stdout.write(`http://127.0.0.1:${address.port}/mcp\n`);
});
