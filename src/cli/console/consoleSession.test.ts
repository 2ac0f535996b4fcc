import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeServer, type FakeServer } from '../../../test/support/fakeServer.js';
import { fingerprintTool, MemoryApprovalStore } from '../../client.js';
import type { Tool } from '../../protocol/types.js';
import { ConsoleSession, type ConsoleEvent } from './consoleSession.js';

const remove: Tool = { name: 'delete_note', inputSchema: { type: 'object' } };
const sampling = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }],
  maxTokens: 10,
};

/** A session with one fake server, and every event it emitted. */
async function sessionWith(
  fake: FakeServer,
  model?: { command: string; args: string[] },
): Promise<{ session: ConsoleSession; events: ConsoleEvent[]; server: string }> {
  const session = new ConsoleSession(model ? { model } : {});
  const events: ConsoleEvent[] = [];
  session.subscribe((e) => events.push(e));
  const link = await session.add('fake', { transport: () => fake.clientTransport });
  expect(link.state).toBe('connected');
  open.push(session);
  return { session, events, server: link.id };
}
const open: ConsoleSession[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** Waits (bounded) until `check` holds. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await sleep(10);
  expect(check()).toBe(true);
}

describe('the console session', () => {
  it('takes down a question the server cancelled, and answers it with cancel', async () => {
    const fake = fakeServer([remove]);
    const { session, events } = await sessionWith(fake);
    await fake.request('e1', 'elicitation/create', {
      message: 'Which folder?',
      requestedSchema: { type: 'object', properties: { folder: { type: 'string' } } },
    });
    await until(() => session.waitingInputs().length === 1);
    const id = session.waitingInputs()[0]!.id;
    await fake.notify('notifications/cancelled', { requestId: 'e1' });
    await until(() => session.waitingInputs().length === 0);
    expect(events).toContainEqual(expect.objectContaining({ type: 'answered', id }));
    // An answer from the page that comes too late finds nothing.
    expect(session.answerInput(id, { action: 'accept', content: {} })).toBe(false);
  });

  it('takes down a question whose connection ended', async () => {
    const fake = fakeServer([remove]);
    const { session } = await sessionWith(fake);
    await fake.request('s1', 'sampling/createMessage', sampling);
    await until(() => session.waitingInputs().length === 1);
    await fake.close();
    await until(() => session.waitingInputs().length === 0);
  });

  it('takes down a confirmation when its call is cancelled: the tool never runs', async () => {
    const fake = fakeServer([remove]);
    const { session, events, server } = await sessionWith(fake);
    const call = session.call(server, { tool: 'delete_note', arguments: { id: '1' } });
    await until(() => session.waiting().length === 1);
    const { id, request } = session.waiting()[0]!;
    expect(request).not.toHaveProperty('signal'); // what the page is sent is plain data
    expect(session.cancel(call)).toBe(true);
    await until(() => events.some((e) => e.type === 'call-ended'));
    expect(session.waiting()).toEqual([]);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'confirmed', id, decision: 'deny' }),
    );
    expect(events.find((e) => e.type === 'call-ended')).toMatchObject({
      error: 'Cancelled',
      cancelled: true,
    });
    expect(session.decide(id, 'allow-once')).toBe(false);
    expect(fake.calls).toEqual([]);
  });

  it('shows what changed from the whole definitions, even in fields the page does not read', async () => {
    // A title that is not a string: the page is not sent it, but it changed.
    const titled = (title: number) => ({ ...remove, title }) as unknown as Tool;
    const before = titled(1);
    const fake = fakeServer([titled(2)]);
    const approvals = new MemoryApprovalStore();
    approvals.set('delete_note', {
      fingerprint: await fingerprintTool(before),
      definition: before,
      approvedAt: '2026-11-27T00:00:00.000Z',
    });
    const session = new ConsoleSession();
    open.push(session);
    const link = await session.add(
      'fake',
      { transport: () => fake.clientTransport },
      { approvals },
    );
    session.call(link.id, { tool: 'delete_note', arguments: {} });
    await until(() => session.waiting().length === 1);
    const { request } = session.waiting()[0]!;
    expect(request.reason).toBe('definition-changed');
    expect(request.diff?.filter((l) => /^[-+]/.test(l))).toEqual([
      '-   "title": 1',
      '+   "title": 2',
    ]);
  });

  it('keeps only audit events as the history a page is sent (found in review)', async () => {
    const fake = fakeServer([remove]);
    fake.callResult = { content: [{ type: 'text', text: 'x'.repeat(100_000) }] };
    const { session, events, server } = await sessionWith(fake);
    session.call(server, { tool: 'delete_note', arguments: { id: '1' } });
    await until(() => session.waiting().length === 1);
    session.decide(session.waiting()[0]!.id, 'allow-once');
    await until(() => events.some((e) => e.type === 'call-ended'));
    expect(session.history.map((e) => e.event.type)).toEqual([
      'tools-exposed',
      'call-requested',
      'call-decided',
      'call-finished',
    ]);
    expect(JSON.stringify(session.history)).not.toContain('x'.repeat(1000));
  });

  it('writes one draft at a time, stops it when the request is answered, names only the program', async () => {
    const fake = fakeServer([remove]);
    // A model command that takes its time, with an argument the server must never see.
    const model = {
      command: process.execPath,
      args: [
        '-e',
        'setTimeout(() => process.stdout.write("Hello"), 300)',
        '--',
        '--api-key=sk-secret',
      ],
    };
    const { session } = await sessionWith(fake, model);
    await fake.request('s1', 'sampling/createMessage', sampling);
    await until(() => session.waitingInputs().length === 1);
    const id = session.waitingInputs()[0]!.id;
    const first = session.draftReply(id);
    expect(await session.draftReply(id)).toBe('busy');
    expect(await first).toEqual({ text: 'Hello' });
    // Done: another may be asked for, and one that is still running stops with the answer.
    const second = session.draftReply(id);
    expect(session.answerInput(id, { text: 'Hello' })).toBe(true);
    await expect(second).rejects.toMatchObject({ message: 'The sampling request was cancelled' });
    await until(() => fake.answers.has('s1'));
    const answer = fake.answers.get('s1') as { result: { model: string } };
    expect(answer.result.model).toBe('node');
    expect(JSON.stringify(answer)).not.toContain('sk-secret');
  });

  it("names the model a draft says it is; a reply the person changed is the person's", async () => {
    const fake = fakeServer([remove]);
    const reported = JSON.stringify({ content: { type: 'text', text: 'Hi!' }, model: 'local-7b' });
    const model = {
      command: process.execPath,
      args: ['-e', `console.log(${JSON.stringify(reported)})`],
    };
    const { session } = await sessionWith(fake, model);
    for (const [request, sent] of [
      ['s1', 'Hi!'],
      ['s2', 'Hi! (checked by me)'],
    ] as const) {
      await fake.request(request, 'sampling/createMessage', sampling);
      await until(() => session.waitingInputs().length === 1);
      const id = session.waitingInputs()[0]!.id;
      expect(await session.draftReply(id)).toEqual({ text: 'Hi!' });
      session.answerInput(id, { text: sent });
      await until(() => fake.answers.has(request));
    }
    expect(fake.answers.get('s1')).toMatchObject({ result: { model: 'local-7b' } });
    expect(fake.answers.get('s2')).toMatchObject({
      result: { model: 'a person, in toolwire console', content: { text: 'Hi! (checked by me)' } },
    });
  });

  it('keeps trust per server where told, and leaves config.json trust alone (issue 19)', async () => {
    const session = new ConsoleSession();
    open.push(session);
    const saved: boolean[] = [];
    const kept = await session.add(
      'https://kept.example/mcp',
      { transport: () => fakeServer([remove]).clientTransport },
      { trust: { trusted: false, save: (on) => Promise.resolve(saved.push(on)) } },
    );
    const fixed = await session.add(
      'https://fixed.example/mcp',
      { transport: () => fakeServer([remove]).clientTransport },
      { trust: { trusted: true, fixed: true } },
    );
    expect(await session.setTrust(kept.id, true)).toBe(true);
    expect(saved).toEqual([true]);
    expect(kept.trustAnnotations).toBe(true);
    expect(await session.setTrust(fixed.id, false)).toBe('fixed');
    expect(fixed.trustAnnotations).toBe(true);
    expect(await session.setTrust('s99', true)).toBe('unknown');
    // Each server's name is the console's own: the host, unique among its servers.
    expect([kept.name, fixed.name]).toEqual(['kept_example', 'fixed_example']);
  });
});
