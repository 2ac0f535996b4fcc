// The HTTP ceiling: a bare node:http server that parses each JSON body and answers a JSON echo,
// what any HTTP MCP server must at least do. Prints its URL on stdout.
import { createServer } from 'node:http';

const http = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const m = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      id?: number;
      method: string;
      params?: { arguments?: { message?: string } };
    };
    if (m.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const result =
      m.method === 'initialize'
        ? {
            protocolVersion: '2025-11-25',
            capabilities: { tools: {} },
            serverInfo: { name: 'ceiling', version: '1' },
          }
        : { content: [{ type: 'text', text: m.params?.arguments?.message ?? '' }] };
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (m.method === 'initialize') headers['mcp-session-id'] = 'ceiling-session';
    res.writeHead(200, headers).end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }));
  });
});
http.listen(0, '127.0.0.1', () => {
  const address = http.address();
  if (address && typeof address === 'object')
    process.stdout.write(`http://127.0.0.1:${address.port}/mcp\n`);
});
