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
  if (json === undefined || json.length <= max) return json;
  let end = max - 1;
  // Never split a surrogate pair: the attribute must stay well-formed text.
  const last = json.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${json.slice(0, end)}…`;
}
