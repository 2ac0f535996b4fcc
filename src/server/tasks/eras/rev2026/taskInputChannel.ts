/**
 * @module How a task of the tasks extension asks its client for input: the request is stored
 * with the task (which is then `input_required`, its `tasks/get` and `notifications/tasks`
 * showing every outstanding request under its key), and the run waits until a `tasks/update`
 * answers it, through whichever instance, since the answer comes back through the task store. A
 * key names one request for the task's lifetime (the extension's rule): generated keys count up,
 * a key the handler names itself may be used once. The client is asked only what the request that
 * created the task declared it supports; a task cancelled or expired stops the wait.
 */
import { LocalError } from '../../../../jsonrpc/errors.js';
import type { RevisionProfile } from '../../../../protocol/eras/era.js';
import type { ClientCapabilities } from '../../../../protocol/types.js';
import type { TaskStore } from '../../../../tasks/taskStore.js';
import type {
  InputAnswer,
  InputCall,
  InputChannel,
  InputRequest,
} from '../../../input/inputChannel.js';
import { pushRefusal } from '../../../input/pushRefusal.js';
import { wireOf } from '../../../input/roundTripInputChannel.js';

const KIND_LETTER = { sampling: 's', elicitation: 'e', roots: 'r' } as const;

/** A request waiting for its answer. */
interface Waiting {
  resolve(answer: unknown): void;
  reject(error: unknown): void;
}

/** The input channel of one extension task's run. */
export class TaskInputChannel implements InputChannel {
  private asked = 0;
  // Made on the first question: most tasks never ask one.
  private usedKeys: Set<string> | undefined;
  private waitingKeys: Map<string, Waiting> | undefined;
  private unsubscribe: Promise<() => void> | undefined;
  /** A takeInput in flight; another event meanwhile takes again after it. */
  private taking: Promise<void> | undefined;
  private takeAgain = false;

  constructor(
    private readonly task: { readonly store: TaskStore; readonly taskId: string },
    private readonly client: {
      readonly capabilities: ClientCapabilities;
      readonly profile: RevisionProfile;
    },
    /** The server's error report: a store failure while waiting. */
    private readonly report: (error: unknown, what: string) => void,
  ) {}

  private get used(): Set<string> {
    return (this.usedKeys ??= new Set());
  }

  /** The requests waiting for their answers, by key. */
  private get waiting(): Map<string, Waiting> {
    return (this.waitingKeys ??= new Map());
  }

  refusal(request: InputRequest): LocalError | undefined {
    return pushRefusal(request, this.client.capabilities, this.client.profile);
  }

  async ask<R extends InputRequest>(request: R, call: InputCall): Promise<InputAnswer<R>> {
    const refused = this.refusal(request);
    if (refused) throw refused;
    const { store, taskId } = this.task;
    if (!store.requestInput || !store.provideInput || !store.takeInput)
      throw new LocalError(
        'invalid-tool',
        'The task store does not keep requests for input (requestInput, provideInput, takeInput)',
      );
    const key = call.key ?? `${KIND_LETTER[request.kind]}${this.asked}`;
    this.asked++;
    if (typeof key !== 'string' || key === '' || key.length > 200 || this.used.has(key))
      throw new LocalError(
        'invalid-tool',
        `The input key ${JSON.stringify(key).slice(0, 80)} is empty, too long or used twice in one task`,
      );
    this.used.add(key);
    call.signal.throwIfAborted();
    const answer = new Promise<unknown>((resolve, reject) =>
      this.waiting.set(key, { resolve, reject }),
    );
    const stop = () =>
      this.fail(key, call.signal.reason ?? new LocalError('aborted', 'The task was cancelled'));
    call.signal.addEventListener('abort', stop, { once: true });
    try {
      await this.listen();
      const wire = wireOf(request);
      const stored = await store.requestInput({
        taskId,
        requests: { [key]: { method: wire.method, params: wire.params } },
      });
      if (!stored.ok) throw new LocalError('aborted', 'The task ended before its input came');
      return (await answer) as InputAnswer<R>;
    } finally {
      call.signal.removeEventListener('abort', stop);
      this.waiting.delete(key);
      if (this.waiting.size === 0) this.stopListening();
    }
  }

  private fail(key: string, reason: unknown): void {
    this.waiting.get(key)?.reject(reason);
  }

  /** Subscribes to the task's changes (once); each change takes the answers that came. */
  private listen(): Promise<() => void> {
    this.unsubscribe ??= this.task.store.subscribe(this.task.taskId, () => this.take());
    return this.unsubscribe;
  }

  private stopListening(): void {
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = undefined;
    void unsubscribe?.then((stop) => stop()).catch(() => {});
  }

  /** Takes the answers to the requests waiting (one take at a time; a change meanwhile: again). */
  private take(): void {
    if (this.taking) {
      this.takeAgain = true;
      return;
    }
    const keys = [...this.waiting.keys()];
    const { store, taskId } = this.task;
    if (keys.length === 0 || !store.takeInput) return;
    this.taking = store
      .takeInput({ taskId, keys })
      .then(
        (answers) => {
          for (const [key, value] of Object.entries(answers)) this.waiting.get(key)?.resolve(value);
        },
        (error: unknown) => this.report(error, `taking the input of task ${this.task.taskId}`),
      )
      .finally(() => {
        this.taking = undefined;
        if (this.takeAgain) {
          this.takeAgain = false;
          this.take();
        }
      });
  }
}
