// Issue 8: `call` printed a task's status going backwards (working, completed, working) when a
// poll answer overtook a status notification, and over HTTP it never printed the terminal status
// (the tasks/result answer overtakes the notification, which travels on the GET stream).
import { describe, expect, it } from 'vitest';
import { EVERYTHING } from '../support/paths.js';
import { toolwire, useHttpServer } from '../support/cliRun.js';

/** The statuses a run printed on stderr, in order, checking they all name one task. */
function statuses(stderr: string): string[] {
  const lines = stderr.trim().split('\n');
  const ids = new Set(lines.map((l) => /^task (\S+) /.exec(l)?.[1]));
  expect(ids.size).toBe(1);
  return lines.map((l) => l.replace(/^task \S+ /, ''));
}

describe('call prints each task status change once, in order, ending with the terminal one', () => {
  const httpUrl = useHttpServer(EVERYTHING);

  it('over HTTP', () => {
    for (let run = 0; run < 3; run++) {
      const r = toolwire(
        'call',
        '--yes',
        '--era',
        'legacy', // 2025-11-25 tasks
        'report',
        '--arg',
        'sections=2',
        '--arg',
        'delayMs=20',
        httpUrl(),
      );
      expect(r.code).toBe(0);
      expect(statuses(r.stderr)).toEqual(['working', 'completed']);
    }
  });

  it('over stdio, with polls landing next to the completion', () => {
    // The everything server suggests polling every second: a report of ~1 s ends as a poll
    // is answered, the race that printed "working" again after "completed".
    for (let run = 0; run < 3; run++) {
      const r = toolwire(
        'call',
        '--yes',
        '--era',
        'legacy', // 2025-11-25 tasks
        'report',
        '--arg',
        'sections=3',
        '--arg',
        `delayMs=${320 + run * 15}`,
        '--',
        process.execPath,
        EVERYTHING,
      );
      expect(r.code).toBe(0);
      expect(statuses(r.stderr)).toEqual(['working', 'completed']);
    }
  });
});
