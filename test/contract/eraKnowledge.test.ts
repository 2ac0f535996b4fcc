// Era knowledge lives only in eras/ and fronts/ folders (STYLE.md §3, issue 21): the era is
// decided once, at the edge, and code behind the front never asks which era it is in. Era
// knowledge is a feature read (`featuresOf(`), a revision date literal, the 2026 client's
// `statelessMeta`, `isModernVersion` or a `protocolEra ===` test. protocol/versions.ts (the
// revision list) and protocol/methods/** (each descriptor's `since`) name revisions by nature;
// the CLI is exempt.
import { describe, expect, it } from 'vitest';
import { hitsOf, report, sourceFiles, type SourceFile } from './sourceLines.js';

const ERA_KNOWLEDGE =
  /featuresOf\(|'20\d\d-\d\d-\d\d'|statelessMeta|isModernVersion|protocolEra\s*===/;

const allowed = (path: string): boolean =>
  /(^|\/)(eras|fronts)\//.test(path) ||
  path === 'protocol/versions.ts' ||
  path.startsWith('protocol/methods/') ||
  path.startsWith('cli/');

const hitsIn = (files: readonly SourceFile[]) => hitsOf(files, ERA_KNOWLEDGE, allowed);

describe('era knowledge only in eras/ and fronts/', () => {
  it('catches planted era reads, and lets the era and front folders hold them', () => {
    const planted = [
      { path: 'server/planted.ts', text: 'if (featuresOf(v).tasks) go();' },
      { path: 'client/planted.ts', text: "\nconst v = '2025-11-25';" },
      { path: 'client/other.ts', text: 'if (this.statelessMeta) go();' },
      { path: 'transports/x.ts', text: "if (s.protocolEra === '2026') go();" },
      { path: 'server/eras/rev2025/features.ts', text: "featuresOf('2025-06-18');" },
      { path: 'client/fronts/legacy.ts', text: 'featuresOf(v);' },
      { path: 'protocol/versions.ts', text: "export const LATEST = '2025-11-25';" },
      { path: 'server/fine.ts', text: 'if (scope.era.tasks) go(); // since 2025-11-25' },
    ];
    expect(report(hitsIn(planted))).toBe(
      [
        'server/planted.ts:1: if (featuresOf(v).tasks) go();',
        "client/planted.ts:2: const v = '2025-11-25';",
        'client/other.ts:1: if (this.statelessMeta) go();',
        "transports/x.ts:1: if (s.protocolEra === '2026') go();",
      ].join('\n'),
    );
  });

  it('src/ holds era knowledge only in eras/, fronts/, protocol/versions.ts and the descriptors', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const hits = hitsIn(files);
    expect(hits, `era knowledge:\n${report(hits)}`).toEqual([]);
  });
});
