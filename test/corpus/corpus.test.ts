/**
 * The message corpus (test/corpus/<revision>/*.json, described in ./fixture.ts): every message of
 * every fixture is valid for its revision's official schema (strict, as the wire check reads it),
 * and a toolwire server answers each fixture's requests with the fixture's responses.
 *
 * `UPDATE_CORPUS=1 npx vitest run test/corpus` rewrites the received messages of every fixture
 * from what the server answers (keeping each one's `vary`): for a new fixture, or a
 * deliberate change of behaviour; read the diff before committing it.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isModernVersion, isSupportedVersion } from '../../src/protocol/versions.js';
import { validateMessage } from '../support/specSchemas.js';
import {
  isSend,
  readCorpus,
  substitute,
  valuesAt,
  type CorpusEntry,
  type ReceiveStep,
  type Step,
} from './fixture.js';
import { ReplayClient } from './replay.js';

const corpus = readCorpus();
const UPDATE = process.env['UPDATE_CORPUS'] === '1';

/** The method of each request id the fixture (and the replay's own handshake) sends. */
function methodsOf(entry: CorpusEntry): Map<string | number, string> {
  const methods = new Map<string | number, string>([[0, 'initialize']]);
  for (const step of entry.fixture.exchange) {
    if (!isSend(step)) continue;
    const { id, method } = step.send as { id?: string | number; method?: string };
    if (id !== undefined && method !== undefined) methods.set(id, method);
  }
  return methods;
}

/** `actual` with the fixture's example values at its varying paths (each must be present). */
function withVaryingAsExpected(step: ReceiveStep, actual: unknown): unknown {
  const copy = structuredClone(actual);
  for (const path of step.vary ?? []) {
    const expected = valuesAt(step.receive, path);
    const found = valuesAt(copy, path);
    expect(found.length, `${path} is present`).toBe(expected.length);
    found.forEach((place, i) => {
      expect(typeof place.value, `${path} keeps its type`).toBe(typeof expected[i]?.value);
      (place.parent as Record<string, unknown>)[place.key] = expected[i]?.value;
    });
  }
  return copy;
}

describe('the message corpus', () => {
  it('has fixtures for every revision toolwire speaks', () => {
    expect(new Set(corpus.map((entry) => entry.revision))).toEqual(
      new Set(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']),
    );
    for (const entry of corpus)
      expect(isSupportedVersion(entry.revision) || isModernVersion(entry.revision)).toBe(true);
    // 2026-07-28 has no handshake: every request carries its own _meta.
    for (const entry of corpus.filter((e) => isModernVersion(e.revision)))
      expect(entry.fixture.handshake, entry.name).toBe(false);
  });

  describe.each(corpus.map((entry) => [`${entry.revision}/${entry.name}`, entry] as const))(
    '%s',
    (_title, entry) => {
      it('every message is valid for the revision (a malformed send is, on purpose, not)', () => {
        const methods = methodsOf(entry);
        const methodOf = (id: string | number) => methods.get(id);
        for (const step of entry.fixture.exchange) {
          const message = isSend(step) ? step.send : step.receive;
          const problems = validateMessage(entry.revision, message, methodOf);
          if (isSend(step) && step.malformed !== undefined) {
            expect(problems, `malformed on purpose: ${step.malformed}`).not.toEqual([]);
          } else {
            expect(problems, JSON.stringify(message)).toEqual([]);
          }
        }
      });

      it('a toolwire server answers as recorded', async () => {
        const client = await ReplayClient.open(entry.revision, entry.fixture.handshake !== false);
        const captured = new Map<string, unknown>();
        const recorded: Step[] = [];
        const steps = entry.fixture.exchange;
        for (let i = 0; i < steps.length; i++) {
          const step = steps[i]!;
          if (!isSend(step)) continue;
          recorded.push(step);
          const sent = substitute(step.send, captured) as Record<string, unknown>;
          let expected = steps.slice(i + 1);
          const end = expected.findIndex(isSend);
          expected = end === -1 ? expected : expected.slice(0, end);
          const answers = UPDATE
            ? await client.exchange(sent)
            : await (async () => {
                await client.post(sent);
                const got = [];
                for (const _ of expected) got.push(await client.next());
                return got;
              })();
          const response = answers.find(
            (a) => a !== undefined && a['id'] === sent['id'] && !('method' in a),
          );
          for (const [name, path] of Object.entries(step.capture ?? {})) {
            captured.set(name, valuesAt(response, path)[0]?.value);
          }
          answers.forEach((actual, k) => {
            const old = expected[k] as ReceiveStep | undefined;
            if (UPDATE) {
              recorded.push({ ...old, receive: actual ?? {} });
              return;
            }
            expect(actual, `answer ${k + 1} to ${JSON.stringify(step.send)}`).toBeDefined();
            expect(withVaryingAsExpected(old!, actual)).toEqual(old!.receive);
          });
        }
        if (UPDATE) {
          const fixture = { ...entry.fixture, exchange: recorded };
          writeFileSync(entry.file, `${JSON.stringify(fixture, null, 2)}\n`);
          return;
        }
        expect(await client.next(20), 'nothing more from the server').toBeUndefined();
      });
    },
  );
});
