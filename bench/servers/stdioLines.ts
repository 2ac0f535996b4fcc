/**
 * @module The stdio ceilings' loop: a bare process doing what any stdio MCP server must at least
 * do. For each chunk read: split lines, JSON.parse each, build the answer object, JSON.stringify
 * it, and write all answers of the chunk in one write().
 */
import type { CeilingRequest } from './ceilingAnswers.js';

/** Serves stdin/stdout, answering each request with `answer`'s result. */
export function serveLines(answer: (m: CeilingRequest) => unknown): void {
  let partial = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    const text = partial + chunk;
    let out = '';
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      const m = JSON.parse(text.slice(start, nl)) as CeilingRequest;
      start = nl + 1;
      if (m.id !== undefined)
        out += JSON.stringify({ jsonrpc: '2.0', id: m.id, result: answer(m) }) + '\n';
    }
    partial = text.slice(start);
    if (out.length > 0) process.stdout.write(out);
  });
}
