/**
 * @module The TaskStore contract's part on input (the 2026 tasks extension's `input_required`):
 * requests for input kept with the task until answered, answers taken once by the runner, keys
 * never answered twice, an owner's answers only, and payloads kept exactly (empty arrays and
 * objects, nesting, unicode).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/jsonrpc/types.js';
import type { TaskEvent, TaskStore } from '../../src/tasks/taskStore.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const ASK_NAME: JsonObject = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Your name? «ñ»',
    requestedSchema: { type: 'object', properties: {}, required: [] },
  },
};
const ASK_ROOTS: JsonObject = { method: 'roots/list', params: {} };

/** Registers the input cases for stores made by `make`. */
export function inputContract(name: string, make: () => Promise<TaskStore>): void {
  describe(`TaskStore contract, input: ${name}`, () => {
    let store: TaskStore;
    let input: Required<Pick<TaskStore, 'requestInput' | 'provideInput' | 'takeInput'>>;
    beforeEach(async () => {
      store = await make();
      const { requestInput, provideInput, takeInput } = store;
      if (!requestInput || !provideInput || !takeInput)
        throw new Error('toolwire stores implement requestInput, provideInput and takeInput');
      input = {
        requestInput: requestInput.bind(store),
        provideInput: provideInput.bind(store),
        takeInput: takeInput.bind(store),
      };
    });
    afterEach(async () => {
      await store.close();
    });

    it('keeps requests until answered; input_required while any is outstanding, then working', async () => {
      const task = await store.create({ owner: 'a', method: 'tools/call', ttl: 60_000 });
      const taskId = task.taskId;
      const asked = await input.requestInput({ taskId, requests: { name: ASK_NAME } });
      expect(asked).toMatchObject({ ok: true, task: { status: 'input_required' } });
      await input.requestInput({ taskId, requests: { roots: ASK_ROOTS } });
      expect((await store.get({ taskId, owner: 'a' }))?.inputRequests).toEqual({
        name: ASK_NAME,
        roots: ASK_ROOTS,
      });
      const answer = { action: 'accept', content: { name: 'Ada', tags: [], extra: {} } };
      const partial = await input.provideInput({
        taskId,
        owner: 'a',
        responses: { name: answer, never: { action: 'accept' } },
      });
      expect(partial).toMatchObject({ ok: true, accepted: ['name'] });
      const after = await store.get({ taskId, owner: 'a' });
      expect(after?.status).toBe('input_required');
      expect(after?.inputRequests).toEqual({ roots: ASK_ROOTS });
      // A key answered is answered: a second answer is ignored.
      expect(
        await input.provideInput({
          taskId,
          owner: 'a',
          responses: { name: { action: 'decline' } },
        }),
      ).toMatchObject({ ok: true, accepted: [] });
      const done = await input.provideInput({
        taskId,
        owner: 'a',
        responses: { roots: { roots: [] } },
      });
      expect(done).toMatchObject({ ok: true, accepted: ['roots'], task: { status: 'working' } });
      expect((await store.get({ taskId, owner: 'a' }))?.inputRequests).toBeUndefined();
      // The runner takes the answers, exactly as given, once.
      expect(await input.takeInput({ taskId, keys: ['name', 'roots', 'never'] })).toEqual({
        name: answer,
        roots: { roots: [] },
      });
      expect(await input.takeInput({ taskId, keys: ['name', 'roots'] })).toEqual({});
    });

    it("answers only the owner's task; another owner gets not-found", async () => {
      const task = await store.create({ owner: 'a', method: 'tools/call', ttl: 60_000 });
      await input.requestInput({ taskId: task.taskId, requests: { name: ASK_NAME } });
      expect(
        await input.provideInput({
          taskId: task.taskId,
          owner: 'mallory',
          responses: { name: { action: 'accept', content: {} } },
        }),
      ).toEqual({ ok: false, reason: 'not-found' });
      expect(
        await input.provideInput({ taskId: 'no-such-task', owner: 'a', responses: {} }),
      ).toEqual({ ok: false, reason: 'not-found' });
      expect(await input.takeInput({ taskId: task.taskId, keys: ['name'] })).toEqual({});
      expect((await store.get({ taskId: task.taskId, owner: 'a' }))?.status).toBe('input_required');
    });

    it('an ended task asks nothing and takes no answer; its requests are gone', async () => {
      const task = await store.create({ owner: 'a', method: 'tools/call', ttl: 60_000 });
      const taskId = task.taskId;
      await input.requestInput({ taskId, requests: { name: ASK_NAME } });
      await store.transition({ taskId, to: 'cancelled', statusMessage: 'stop' });
      expect((await store.get({ taskId, owner: 'a' }))?.inputRequests).toBeUndefined();
      expect(await input.requestInput({ taskId, requests: { more: ASK_ROOTS } })).toMatchObject({
        ok: false,
        reason: 'invalid-transition',
      });
      expect(
        await input.provideInput({
          taskId,
          owner: 'a',
          responses: { name: { action: 'accept', content: {} } },
        }),
      ).toMatchObject({ ok: true, accepted: [] });
      expect(await input.takeInput({ taskId, keys: ['name'] })).toEqual({});
      expect(await input.requestInput({ taskId: 'no-such-task', requests: {} })).toEqual({
        ok: false,
        reason: 'not-found',
      });
    });

    it('tells subscribers of every request and answer, a partial one too', async () => {
      const task = await store.create({ owner: 'a', method: 'tools/call', ttl: 60_000 });
      const taskId = task.taskId;
      const events: TaskEvent[] = [];
      const stop = await store.subscribe(taskId, (e) => events.push(e));
      await input.requestInput({ taskId, requests: { one: ASK_ROOTS, two: ASK_NAME } });
      await input.provideInput({ taskId, owner: 'a', responses: { one: { roots: [] } } });
      await input.provideInput({
        taskId,
        owner: 'a',
        responses: { two: { action: 'decline' } },
      });
      for (let i = 0; i < 50 && events.length < 3; i++) await sleep(10);
      stop();
      expect(events.map((e) => e.status)).toEqual(['input_required', 'input_required', 'working']);
    });
  });
}
