// Method names are spelled only in the descriptors (STYLE.md §3, issue 21): protocol/methods/**,
// and jsonrpc/methods.ts for the names the layers below protocol must recognise on the wire. The
// CLI is exempt (it prints and parses method names for people). Everything else takes
// `CallTool.method` and its kind, so a renamed or era-specific method changes in one place.
import { describe, expect, it } from 'vitest';
import { hitsOf, report, sourceFiles, type SourceFile } from './sourceLines.js';

/** A quoted MCP method name (the ones toolwire handles, and the 2026-07-28 ones). */
const METHOD_NAME =
  /'(tools\/(list|call)|initialize|ping|logging\/setLevel|tasks\/(get|result|list|cancel|update)|notifications\/[a-z/_]+|sampling\/createMessage|elicitation\/create|roots\/list|server\/discover|subscriptions\/listen)'/;

const allowed = (path: string): boolean =>
  path.startsWith('protocol/methods/') || path === 'jsonrpc/methods.ts' || path.startsWith('cli/');

const hitsIn = (files: readonly SourceFile[]) => hitsOf(files, METHOD_NAME, allowed);

describe('method names only in the descriptors', () => {
  it('catches a planted literal, and lets the descriptors and the CLI spell names', () => {
    const planted = [
      { path: 'server/planted.ts', text: "const a = 1;\nif (m === 'tools/call') go();" },
      { path: 'otel/planted.ts', text: "x('notifications/tools/list_changed');" },
      { path: 'protocol/methods/tools.ts', text: "request('tools/call', {});" },
      { path: 'jsonrpc/methods.ts', text: "export const PROGRESS = 'notifications/progress';" },
      { path: 'cli/planted.ts', text: "print('tools/list');" },
      { path: 'server/fine.ts', text: 'if (m === CallTool.method) go(); // tools/call' },
    ];
    expect(report(hitsIn(planted))).toBe(
      "server/planted.ts:2: if (m === 'tools/call') go();\n" +
        "otel/planted.ts:1: x('notifications/tools/list_changed');",
    );
  });

  it('src/ spells no method name outside protocol/methods/, jsonrpc/methods.ts and cli/', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const hits = hitsIn(files);
    expect(hits, `method-name literals:\n${report(hits)}`).toEqual([]);
  });
});
