/**
 * @module The message corpus: what a fixture file holds, how to read all of them, and the path
 * rules for the parts of a message that legitimately differ from run to run.
 *
 * A fixture (`test/corpus/<revision>/<name>.json`) is one exchange with a toolwire server at one
 * revision: the messages a client sends and, after each, the messages the server answers with, in
 * order. Unless it says `"handshake": false` (the fixture of the handshake itself), the replay
 * opens the session first with `initialize` at the fixture's revision and `notifications/initialized`.
 *
 * - `vary`: JSON Pointers (RFC 6901; a `*` segment for any array index or key) to values that
 *   differ from run to run (task ids, times, opaque cursors). The value must be present, of the
 *   same type; the fixture's is an example.
 * - `capture`: on a send, names a value of the response to it (by pointer) for later sends, which
 *   write it as the string `"{{name}}"` (a task id, then used by `tasks/get`; a page's cursor).
 * - `malformed`: on a send that breaks the revision's schema on purpose, why (the replay checks
 *   that it does break it, so the flag cannot hide a mistake).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Revision } from '../../src/protocol/versions.js';

/** The corpus folder: one subfolder per revision. */
export const CORPUS_DIR = fileURLToPath(new URL('./', import.meta.url));

/** A message the client sends. */
export interface SendStep {
  send: Record<string, unknown>;
  malformed?: string;
  capture?: Record<string, string>;
}

/** A message the server answers with. */
export interface ReceiveStep {
  receive: Record<string, unknown>;
  vary?: string[];
}

export type Step = SendStep | ReceiveStep;

/** One fixture file. */
export interface Fixture {
  description: string;
  handshake?: boolean;
  exchange: Step[];
}

/** A fixture with where it came from. */
export interface CorpusEntry {
  revision: Revision;
  name: string;
  file: string;
  fixture: Fixture;
}

/** Every fixture of every revision folder, sorted by revision then name. */
export function readCorpus(): CorpusEntry[] {
  const entries: CorpusEntry[] = [];
  for (const folder of readdirSync(CORPUS_DIR, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    const revision = folder.name as Revision;
    for (const name of readdirSync(`${CORPUS_DIR}${revision}`).sort()) {
      if (!name.endsWith('.json')) continue;
      const file = `${CORPUS_DIR}${revision}/${name}`;
      const fixture = JSON.parse(readFileSync(file, 'utf8')) as Fixture;
      entries.push({ revision, name: name.slice(0, -'.json'.length), file, fixture });
    }
  }
  return entries.sort(
    (a, b) => a.revision.localeCompare(b.revision) || a.name.localeCompare(b.name),
  );
}

export const isSend = (step: Step): step is SendStep => 'send' in step;

type Json = unknown;

/** The values at JSON Pointer `pointer` in `value`, with where each sits (`*` matches every child). */
export function valuesAt(
  value: Json,
  pointer: string,
): { parent: object; key: string; value: Json }[] {
  if (!pointer.startsWith('/')) throw new Error(`not a JSON Pointer: ${pointer}`);
  let found: { parent: object; key: string; value: Json }[] = [
    { parent: { root: value }, key: 'root', value },
  ];
  const segments = pointer
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  for (const segment of segments) {
    const next: typeof found = [];
    for (const { value: at } of found) {
      if (typeof at !== 'object' || at === null) continue;
      const record = at as Record<string, Json>;
      const keys = segment === '*' ? Object.keys(record) : [segment];
      for (const key of keys) {
        if (Object.hasOwn(record, key)) next.push({ parent: record, key, value: record[key] });
      }
    }
    found = next;
  }
  return found;
}

/** `value` with each string `"{{name}}"` replaced by the captured value of `name`. */
export function substitute(value: Json, captured: ReadonlyMap<string, Json>): Json {
  if (typeof value === 'string') {
    const name = /^\{\{(\w+)\}\}$/.exec(value)?.[1];
    if (name === undefined) return value;
    if (!captured.has(name)) throw new Error(`nothing captured as ${name} before it is sent`);
    return captured.get(name);
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, captured));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, substitute(item, captured)]),
    );
  }
  return value;
}
