// The HTTP ceiling: a bare node:http server doing what any HTTP MCP server must at least do: read
// the body, JSON.parse it, build the answer object (the result shapes toolwire sends),
// JSON.stringify it and send it as the body of one JSON response. Prints its URL on stdout.
import { createServer } from 'node:http';
import { resultOf, type CeilingRequest } from './ceilingAnswers.js';

const http = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const m = JSON.parse(Buffer.concat(chunks).toString('utf8')) as CeilingRequest;
    if (m.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const body = JSON.stringify({ jsonrpc: '2.0', id: m.id, result: resultOf(m) });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (m.method === 'initialize') headers['mcp-session-id'] = 'ceiling-session';
    res.writeHead(200, headers).end(body);
  });
});
http.listen(0, '127.0.0.1', () => {
  const address = http.address();
  if (address && typeof address === 'object')
    process.stdout.write(`http://127.0.0.1:${address.port}/mcp\n`);
});
