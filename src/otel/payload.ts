/**
 * @module Recording a tool call's arguments or result on a span (opt-in): as JSON, since span
 * attributes cannot hold objects (the convention allows a JSON string then), cut to a length.
 */

/** A JSON text of `value` at most `max` UTF-16 code units long, ending with `…` when cut. */
export function recordedJson(value: unknown, max: number): string | undefined {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return undefined; // not JSON (a cycle, a BigInt): nothing worth recording
  }
  return json === undefined ? undefined : cutText(json, max);
}

/** `text` if at most `max` (≥ 1) UTF-16 code units long, else its start ending with `…`. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  // Never split a surrogate pair: the attribute must stay well-formed text.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}
