/**
 * @module The console page: the servers (connecting, signing in, failed, or connected with their
 * tools), a tool's definition and the form to call it, the confirmation the approval policy asks
 * for, running calls with progress, log messages and a cancel button, results, and the history. State comes from `/api/state`, changes from the
 * `/api/events` stream; actions are POSTs to the console's API (same origin, with the session the
 * page signed in with: see api.ts).
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { answer, listen, post, signIn, streamOpened } from './api.js';
import { ConfirmDialog } from './confirmDialog.js';
import { ServerLabel } from './serverLabel.js';
import { Description, Findings, Hints } from './toolText.js';
import { ResultView } from './contentView.js';
import { SchemaForm, type Schema } from './schemaForm.js';
import { Guarded } from './guarded.js';
import { InputDialog } from './inputDialog.js';
import { ServerList } from './serverList.js';
import type { Call, Confirmation, Event, Input, Json, Server, Tool } from './types.js';
import { instructionLike, visible } from './visibleText.js';

function ToolDetail(props: {
  server: Server;
  tool: Tool;
  onCall: (args: Json, task: boolean) => void;
}) {
  const { tool } = props;
  const [asTask, setAsTask] = useState(false);
  // A 2026-07-28 tool does not say whether it runs as a task: with the tasks extension any call
  // may ask for one, and the server decides.
  const support = props.server.tasksExtension
    ? 'server decides'
    : (tool.execution?.taskSupport ?? 'forbidden');
  const icons = (tool.icons ?? []).filter((i) => /^(https:|data:image\/)/.test(i.src));
  return (
    <section class="tool-detail" aria-label={`tool ${tool.name}`}>
      <h2>
        {icons[0] ? <img class="icon" alt="" src={icons[0].src} /> : null}
        {tool.title && tool.title !== tool.name ? `${visible(tool.title)} ` : ''}
        <code>{visible(tool.name)}</code>
      </h2>
      <div class="note">
        on <ServerLabel target={props.server.target} />
        {tool.exposedAs ? (
          <>
            {' '}
            · offered to a model as <code>{visible(tool.exposedAs)}</code>
          </>
        ) : null}
      </div>
      <Findings findings={tool.findings ?? []} />
      {tool.description ? <Description text={tool.description} /> : null}
      <div class="hints">
        <Hints tool={tool} trusted={props.server.trustAnnotations} /> task support: {support}
      </div>
      <details>
        <summary>input schema</summary>
        <pre class="json">{visible(JSON.stringify(tool.inputSchema, null, 2))}</pre>
      </details>
      {tool.outputSchema ? (
        <details>
          <summary>output schema</summary>
          <pre class="json">{visible(JSON.stringify(tool.outputSchema, null, 2))}</pre>
        </details>
      ) : null}
      {support === 'optional' || support === 'server decides' ? (
        <label class="as-task">
          <input
            type="checkbox"
            checked={asTask}
            onChange={(e) => setAsTask((e.target as HTMLInputElement).checked)}
          />
          run as a task
        </label>
      ) : support === 'required' ? (
        <div class="note">This tool always runs as a task.</div>
      ) : null}
      <SchemaForm
        key={`${props.server.id}/${tool.name}`}
        schema={tool.inputSchema}
        onSubmit={(args) => props.onCall(args, asTask)}
      />
    </section>
  );
}

function CallView({ call }: { call: Call }) {
  const running = !call.result && call.error === undefined;
  return (
    <div class={`call${running ? ' running' : ''}`} aria-label={`call ${call.call}`}>
      <div>
        <strong>{visible(call.tool)}</strong>{' '}
        {running ? <span class="badge running">running</span> : null}
        <code>{visible(JSON.stringify(call.arguments))}</code>
      </div>
      {call.task ? (
        <div class="task">
          task <code>{visible(call.task.taskId)}</code>:{' '}
          <span class="badge">{visible(call.task.status)}</span>
          {call.task.statusMessage ? (
            <span class="note"> {visible(call.task.statusMessage)}</span>
          ) : null}
        </div>
      ) : null}
      {running && call.progress ? (
        <div>
          <progress value={call.progress.progress} max={call.progress.total ?? undefined} />
          {call.progress.message ? (
            <span class="note"> {visible(call.progress.message)}</span>
          ) : null}
        </div>
      ) : null}
      {call.logs?.length ? (
        <ol class="logs" aria-label="log messages">
          {call.logs.slice(-20).map((line, i) => (
            <li key={i}>{visible(line)}</li>
          ))}
        </ol>
      ) : null}
      {running ? (
        <button onClick={() => void post(`/api/calls/${call.call}/cancel`, {})}>Cancel</button>
      ) : null}
      {!running ? (
        <button
          onClick={() =>
            void post(`/api/servers/${call.server}/calls`, {
              tool: call.tool,
              arguments: call.arguments,
              task: call.asTask === true,
            })
          }
        >
          Run again
        </button>
      ) : null}
      {call.output === 'invalid' ? (
        <div class="badge error">
          the result breaks the tool&apos;s output schema: refused, not shown
        </div>
      ) : null}
      {call.result ? <ResultView result={call.result} /> : null}
      {call.output === 'valid' ? (
        <div class="badge ok">structured content valid against the output schema</div>
      ) : null}
      {call.cancelled ? (
        <div class="badge">Cancelled</div>
      ) : call.error !== undefined ? (
        <div class="badge error">{visible(call.error)}</div>
      ) : null}
    </div>
  );
}

/** A log message as one line: its level, logger and data. */
function logLine(message: Json): string {
  const data = message['data'];
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  const logger = typeof message['logger'] === 'string' ? ` ${message['logger']}` : '';
  return `${String(message['level'])}${logger}: ${text}`;
}

function History({ events }: { events: Event[] }) {
  const [filter, setFilter] = useState('');
  const today = new Date().toISOString().slice(0, 10);
  const shown = events.filter(
    (e) => e.type === 'audit' && JSON.stringify(e).toLowerCase().includes(filter.toLowerCase()),
  );
  const exportLines = () => {
    const blob = new Blob(
      shown.map((e) => `${JSON.stringify(e)}\n`),
      { type: 'application/x-ndjson' },
    );
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = 'toolwire-audit.jsonl';
    a.click();
  };
  return (
    <section class="history" aria-label="history">
      <h2>History</h2>
      <input
        type="search"
        placeholder="filter"
        value={filter}
        onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
      />
      <button onClick={exportLines}>Export</button>
      <ol>
        {shown
          .slice(-200)
          .reverse()
          .map((e, i) => {
            const event = (e['event'] ?? {}) as Json;
            // Events of earlier days (read back from the history file) show their date.
            const when = e.at.startsWith(today) ? e.at.slice(11, 19) : e.at.slice(0, 10);
            return (
              <li key={i} class={e['server'] === '' ? 'earlier' : ''}>
                <code>{when}</code> <span class="target">{visible(String(e['target'] ?? ''))}</span>{' '}
                {visible(String(event['type']))}{' '}
                {visible(String(event['tool'] ?? event['name'] ?? ''))}{' '}
                {event['decision'] ? visible(String(event['decision'])) : ''}
                {event['arguments'] ? (
                  <code> {visible(JSON.stringify(event['arguments']))}</code>
                ) : null}
              </li>
            );
          })}
      </ol>
    </section>
  );
}

/** What a page without a session shows. */
function SignedOut() {
  return (
    <main class="signed-out" role="alert">
      <h1>toolwire console</h1>
      <p>
        This page is not signed in. Open the link <code>toolwire console</code> printed: it works
        once. A page that is signed in (in this browser, any tab of this console is) gives links for
        other browsers; else restart the console for a new one.
      </p>
    </main>
  );
}

function App() {
  const [servers, setServers] = useState<Server[]>([]);
  const [waiting, setWaiting] = useState<Confirmation[]>([]);
  const [inputs, setInputs] = useState<Input[]>([]);
  const [calls, setCalls] = useState<Call[]>([]);
  const [events, setEvents] = useState<Event[]>([]);
  const [selected, setSelected] = useState<{ server: string; tool: string } | undefined>();
  const [model, setModel] = useState<string | undefined>(undefined);
  const [signedIn, setSignedIn] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    const stop = new AbortController();
    // The stream begins with the whole state (again after a reconnection), then each change.
    const onEvent = (data: string) => {
      const e = JSON.parse(data) as Event;
      if (e.type === 'state') {
        streamOpened(String(e['stream']));
        const state = e as unknown as {
          servers: Server[];
          model?: string;
          waiting: Confirmation[];
          inputs: Input[];
          history: Event[];
        };
        setServers(state.servers);
        setModel(state.model);
        setWaiting(state.waiting);
        setInputs(state.inputs);
        setEvents(state.history);
        return;
      }
      // The history holds audit events only: progress and results would push them out.
      if (e.type === 'audit') setEvents((all) => [...all.slice(-999), e]);
      if (e.type === 'server') {
        const server = e['server'] as Server;
        setServers((all) =>
          all.some((s) => s.id === server.id)
            ? all.map((s) => (s.id === server.id ? server : s))
            : [...all, server],
        );
      } else if (e.type === 'log') {
        const line = logLine(e['message'] as Json);
        setCalls((all) =>
          all.map((c) =>
            c.server === e['server'] && !c.result && c.error === undefined
              ? { ...c, logs: [...(c.logs ?? []), line] }
              : c,
          ),
        );
      } else if (e.type === 'confirm') setWaiting((all) => [...all, e as unknown as Confirmation]);
      else if (e.type === 'confirmed') setWaiting((all) => all.filter((w) => w.id !== e['id']));
      else if (e.type === 'input') setInputs((all) => [...all, e as unknown as Input]);
      else if (e.type === 'answered') setInputs((all) => all.filter((i) => i.id !== e['id']));
      else if (e.type === 'call-started')
        setCalls((all) => [
          ...all,
          {
            call: String(e['call']),
            server: String(e['server']),
            tool: String(e['tool']),
            arguments: e['arguments'],
            asTask: e['task'] === true,
          },
        ]);
      else if (e.type === 'task')
        setCalls((all) =>
          all.map((c) => (c.call === e['call'] ? { ...c, task: e as unknown as Call['task'] } : c)),
        );
      else if (e.type === 'progress')
        setCalls((all) =>
          all.map((c) =>
            c.call === e['call'] ? { ...c, progress: e as unknown as Call['progress'] } : c,
          ),
        );
      else if (e.type === 'call-ended')
        setCalls((all) =>
          all.map((c) =>
            c.call === e['call']
              ? {
                  ...c,
                  ...(e['result'] ? { result: e['result'] as Json } : {}),
                  ...(e['error'] !== undefined ? { error: String(e['error']) } : {}),
                  ...(e['output'] !== undefined ? { output: e['output'] as Call['output'] } : {}),
                  ...(e['cancelled'] === true ? { cancelled: true } : {}),
                }
              : c,
          ),
        );
    };
    void signIn().then((ok) => {
      setSignedIn(ok);
      if (ok) listen(onEvent, () => setSignedIn(false), stop.signal);
    });
    // A link pasted into this tab changes only the fragment: load the page again to sign in.
    const pasted = (): void => {
      if (location.hash.includes('token=')) location.reload();
    };
    window.addEventListener('hashchange', pasted);
    return () => {
      stop.abort();
      window.removeEventListener('hashchange', pasted);
    };
  }, []);
  if (signedIn === false) return <SignedOut />;
  const server = servers.find((s) => s.id === selected?.server);
  const tool = server?.tools.find((t) => t.name === selected?.tool);
  return (
    <div class="layout">
      <ServerList
        servers={servers}
        selected={selected}
        onSelect={setSelected}
        onTrust={(id, trust) => {
          // The console says what it kept (a server event); config.json's trust it refuses.
          void post(`/api/servers/${id}/trust`, { trustAnnotations: trust });
        }}
      />
      <main>
        {server && tool ? (
          <Guarded key={`${server.id}/${tool.name}`} what="This tool">
            <ToolDetail
              server={server}
              tool={tool}
              onCall={(args, task) =>
                void post(`/api/servers/${server.id}/calls`, {
                  tool: tool.name,
                  arguments: args,
                  task,
                })
              }
            />
          </Guarded>
        ) : (
          <p class="note">Pick a tool to see its definition and call it.</p>
        )}
        <section class="calls" aria-label="calls">
          {calls
            .slice()
            .reverse()
            .map((c) => (
              <Guarded key={c.call} what="This call">
                <CallView call={c} />
              </Guarded>
            ))}
        </section>
        <Guarded what="The history">
          <History events={events} />
        </Guarded>
      </main>
      {waiting[0] ? (
        <Guarded
          key={waiting[0].id}
          what="This confirmation"
          giveUp={{
            label: 'Deny',
            run: () =>
              void answer(`/api/confirmations/${waiting[0]!.id}`, waiting[0]!, {
                decision: 'deny',
              }),
          }}
        >
          <ConfirmDialog
            waiting={waiting[0]}
            trusted={servers.find((s) => s.id === waiting[0]?.server)?.trustAnnotations === true}
          />
        </Guarded>
      ) : inputs[0] ? (
        <Guarded
          key={inputs[0].id}
          what="The server's question"
          giveUp={{
            label: inputs[0].kind === 'sampling' ? 'Reject' : 'Cancel',
            run: () =>
              void answer(
                `/api/inputs/${inputs[0]!.id}`,
                inputs[0]!,
                inputs[0]!.kind === 'sampling' ? {} : { action: 'cancel' },
              ),
          }}
        >
          <InputDialog input={inputs[0]} model={model} />
        </Guarded>
      ) : null}
    </div>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);
