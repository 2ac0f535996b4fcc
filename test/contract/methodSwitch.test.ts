// No `switch` over a method name in src/server or src/client (STYLE.md §3, issue 21): requests
// and notifications are dispatched through the era's method table built from the descriptors, so
// a method an era lacks is -32601 by absence and a new era adds entries, not cases.
import { describe, expect, it } from 'vitest';
import { hitsOf, report, sourceFiles, type SourceFile } from './sourceLines.js';

/** `switch (method)`, `switch (request.method)`, `switch (message.method)` … */
const SWITCH_ON_METHOD = /switch\s*\(\s*[\w.?]*\bmethod\s*\)/;

const outsideServerAndClient = (path: string): boolean => !/^(server|client)\//.test(path);

const hitsIn = (files: readonly SourceFile[]) =>
  hitsOf(files, SWITCH_ON_METHOD, outsideServerAndClient);

describe('no switch over method names in server/ and client/', () => {
  it('catches a planted switch, and leaves other switches and other layers alone', () => {
    const planted = [
      { path: 'server/planted.ts', text: 'switch (request.method) {\n}' },
      { path: 'client/deep/planted.ts', text: '\n  switch (method) {' },
      { path: 'server/fine.ts', text: 'switch (outcome.kind) {' },
      { path: 'transports/x.ts', text: 'switch (message.method) {' },
    ];
    expect(report(hitsIn(planted))).toBe(
      'server/planted.ts:1: switch (request.method) {\nclient/deep/planted.ts:2: switch (method) {',
    );
  });

  it('src/server and src/client hold no switch over a method', () => {
    const files = sourceFiles();
    expect(files.filter((f) => /^(server|client)\//.test(f.path)).length).toBeGreaterThan(20);
    const hits = hitsIn(files);
    expect(hits, `switch over a method:\n${report(hits)}`).toEqual([]);
  });
});
