/** @module The shapes the page receives from the console's API (looser than the library's). */
import type { Schema } from './schemaForm.js';

export type Json = Record<string, unknown>;
export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Schema;
  outputSchema?: Schema;
  annotations?: Json;
  icons?: Array<{ src: string }>;
  execution?: { taskSupport?: string };
  /** The name a model would know it by, beside the other servers' tools. */
  exposedAs?: string;
  /** What the person should know of its text (hidden characters, a name like another's). */
  findings?: string[];
}
export interface Server {
  id: string;
  /** Its identity: the URL, or the real paths of what it runs. */
  target: string;
  /** The console's short name for it. */
  name: string;
  state: 'connecting' | 'connected' | 'failed';
  error?: string;
  /** The authorization URL waiting for the person to sign in. */
  signInUrl?: string;
  /** The name, title and version it gives itself: a label, not an identity. */
  serverInfo?: { name: string; version: string; title?: string };
  /** The revision spoken with it once connected (`2026-07-28`: stateless requests, no session). */
  protocolVersion?: string;
  /** It offers the tasks extension (2026-07-28): a call may ask for a task, the server decides. */
  tasksExtension?: boolean;
  trustAnnotations: boolean;
  /** Trusted in config.json: the page cannot change it. */
  trustedInConfig?: boolean;
  tools: Tool[];
}
export interface Confirmation {
  id: string;
  server: string;
  /** The key this page's event stream was given to answer it. */
  key?: string;
  /** `diff`: what changed, with `previous` (computed by the console from the whole definitions). */
  request: {
    tool: Tool;
    arguments: Json;
    reason: string;
    previous?: Tool;
    diff?: string[];
    /** The server's identity, and the name it gives itself. */
    target?: string;
    server?: { name?: string; version?: string };
    /** It now claims to need fewer confirmations (read-only) than the definition before. */
    fewerConfirmations?: boolean;
    /** A withdrawn tool it repeats or resembles. */
    renamedFrom?: { from: string; resemblance: string };
    findings?: string[];
  };
}
export interface Input {
  id: string;
  server: string;
  /** The key this page's event stream was given to answer it. */
  key?: string;
  kind: 'elicitation' | 'sampling';
  params: Json;
}
export interface Call {
  call: string;
  server: string;
  tool: string;
  arguments: unknown;
  /** Asked to run as a task: "Run again" asks the same. */
  asTask?: boolean;
  progress?: { progress: number; total?: number; message?: string };
  task?: { taskId: string; status: string; statusMessage?: string };
  result?: Json;
  error?: string;
  /** The output schema check: passed, or the result was refused for breaking it. */
  output?: 'valid' | 'invalid';
  /** The log messages its server sent while it ran. */
  logs?: string[];
  /** Cancelled from the console. */
  cancelled?: boolean;
}
export type Event = Json & { type: string; at: string };
