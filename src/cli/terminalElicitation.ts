/**
 * @module Answering a server's elicitation on the terminal (`toolwire call` on a TTY): the
 * server's message, then accept / decline / cancel; on accept, one question per field of the
 * requested schema (its title and description shown, made safe for the terminal; defaults in
 * brackets; enums and titled enums as numbered choices; numbers within their bounds; booleans
 * y/n; multi-select as comma-separated numbers), each answer checked and asked again when it does
 * not fit. A URL elicitation shows the URL and opens it in a browser only when asked to (the
 * client has already refused any URL but https, or http on loopback).
 */
import type { ElicitFormParams, ElicitParams, ElicitResult } from '../index.js';
import { openInBrowser } from '../oauthClient/browserOpener.js';
import { terminalLine } from './terminalText.js';
import { takeTurn } from './terminalTurn.js';

/** The terminal the questions are asked on. */
export interface ElicitationIo {
  input: NodeJS.ReadableStream;
  output: { write(text: string): unknown };
  signal?: AbortSignal;
}

type FieldValue = string | number | boolean | string[];
type Field = Record<string, unknown>;

/** The choices of an enum field: values and their labels. */
function choicesOf(field: Field): Array<{ value: string; label: string }> | undefined {
  if (Array.isArray(field['enum']))
    return (field['enum'] as unknown[]).map((v, i) => {
      const names = field['enumNames'] as unknown[] | undefined;
      const label = Array.isArray(names) && typeof names[i] === 'string' ? names[i] : String(v);
      return { value: String(v), label };
    });
  const options = field['oneOf'] ?? field['anyOf'];
  if (Array.isArray(options))
    return options.flatMap((o: Field) =>
      o && 'const' in o
        ? [
            {
              value: String(o['const']),
              label: typeof o['title'] === 'string' ? o['title'] : String(o['const']),
            },
          ]
        : [],
    );
  return undefined;
}

/** The items of a multi-select field (an array of enum values). */
function itemChoices(field: Field): Array<{ value: string; label: string }> | undefined {
  const items = field['items'];
  return field['type'] === 'array' && items && typeof items === 'object'
    ? choicesOf(items as Field)
    : undefined;
}

/** Reads one field's answer into its value; a problem to ask again with. */
export function parseField(
  field: Field,
  answer: string,
): { value: FieldValue } | { problem: string } {
  const text = answer.trim();
  const multi = itemChoices(field);
  if (multi) {
    const picked = text === '' ? [] : text.split(',').map((p) => Number(p.trim()));
    if (picked.some((n) => !Number.isInteger(n) || n < 1 || n > multi.length))
      return { problem: `numbers from 1 to ${multi.length}, separated by commas` };
    return { value: picked.map((n) => multi[n - 1]!.value) };
  }
  const choices = choicesOf(field);
  if (choices) {
    const n = Number(text);
    const byNumber = Number.isInteger(n) ? choices[n - 1] : undefined;
    const chosen = byNumber ?? choices.find((c) => c.value === text);
    return chosen ? { value: chosen.value } : { problem: `a number from 1 to ${choices.length}` };
  }
  switch (field['type']) {
    case 'boolean':
      if (/^(y|yes|true)$/i.test(text)) return { value: true };
      if (/^(n|no|false)$/i.test(text)) return { value: false };
      return { problem: 'y or n' };
    case 'number':
    case 'integer': {
      const n = Number(text);
      if (text === '' || !Number.isFinite(n)) return { problem: 'a number' };
      if (field['type'] === 'integer' && !Number.isInteger(n)) return { problem: 'a whole number' };
      const min = field['minimum'];
      const max = field['maximum'];
      if (typeof min === 'number' && n < min) return { problem: `at least ${min}` };
      if (typeof max === 'number' && n > max) return { problem: `at most ${max}` };
      return { value: n };
    }
    default: {
      const min = field['minLength'];
      const max = field['maxLength'];
      if (typeof min === 'number' && text.length < min)
        return { problem: `at least ${min} characters` };
      if (typeof max === 'number' && text.length > max)
        return { problem: `at most ${max} characters` };
      if (field['format'] === 'email' && !/^[^@\s]+@[^@\s]+$/.test(text))
        return { problem: 'an email address' };
      return { value: text };
    }
  }
}

/** How a field is introduced. */
function describeField(name: string, field: Field, required: boolean): string {
  const title = typeof field['title'] === 'string' ? field['title'] : name;
  const lines = [`${terminalLine(title)}${required ? '' : ' (optional)'}`];
  if (typeof field['description'] === 'string')
    lines.push(`  ${terminalLine(field['description'])}`);
  const choices = itemChoices(field) ?? choicesOf(field);
  choices?.forEach((c, i) => lines.push(`  ${i + 1}. ${terminalLine(c.label)}`));
  return `${lines.join('\n')}\n`;
}

async function askForm(
  params: ElicitFormParams,
  ask: (question: string) => Promise<string>,
  io: ElicitationIo,
): Promise<ElicitResult> {
  const action = (await ask('Answer? [a] accept and fill in, [d] decline, [C] cancel: '))
    .trim()
    .toLowerCase();
  if (action === 'd' || action === 'decline') return { action: 'decline' };
  if (action !== 'a' && action !== 'accept') return { action: 'cancel' };
  const required = new Set(params.requestedSchema.required ?? []);
  const content: Record<string, FieldValue> = {};
  for (const [name, field] of Object.entries(params.requestedSchema.properties)) {
    io.output.write(describeField(name, field, required.has(name)));
    const fallback = field['default'];
    for (let attempt = 0; ; attempt++) {
      const shown = fallback === undefined ? '' : `[${terminalLine(JSON.stringify(fallback))}] `;
      const answer = await ask(`> ${shown}`);
      if (answer.trim() === '') {
        if (fallback !== undefined) break; // the default applies (filled in by the client)
        if (!required.has(name)) break;
      }
      const parsed = parseField(field, answer);
      if ('value' in parsed) {
        content[name] = parsed.value;
        break;
      }
      if (attempt >= 4) return { action: 'cancel' };
      io.output.write(`  Please give ${parsed.problem}.\n`);
    }
  }
  return { action: 'accept', content };
}

/**
 * The elicitation handler of the CLI on a terminal. A question the server cancels (or that its
 * connection takes away) is withdrawn: said on the terminal, answered with cancel.
 */
export function terminalElicitation(
  terminal: ElicitationIo,
): (params: ElicitParams, request: { signal: AbortSignal }) => Promise<ElicitResult> {
  return async (params, request) => {
    const signal = terminal.signal
      ? AbortSignal.any([terminal.signal, request.signal])
      : request.signal;
    const io = { ...terminal, signal };
    try {
      return await takeTurn(io, async (ask) => {
        io.output.write(`\nThe server asks: ${terminalLine(params.message)}\n`);
        if (params.mode === 'url') {
          io.output.write(`  ${terminalLine(params.url)}\n`);
          const answer = (await ask('Open it in a browser? [y] yes, [d] decline, [C] cancel: '))
            .trim()
            .toLowerCase();
          if (answer === 'd') return { action: 'decline' };
          if (answer !== 'y' && answer !== 'yes') return { action: 'cancel' };
          openInBrowser(params.url, { output: { write: () => {} }, allowLoopbackHttp: true });
          return { action: 'accept' };
        }
        return await askForm(params, ask, io);
      });
    } catch (error) {
      if (!request.signal.aborted || terminal.signal?.aborted) throw error;
      io.output.write('\nThe server withdrew its question.\n');
      return { action: 'cancel' };
    }
  };
}
