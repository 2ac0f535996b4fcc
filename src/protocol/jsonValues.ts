/**
 * @module Values as they really travel in JSON. Two gaps between JavaScript values and JSON text
 * matter for tools:
 * - `JSON.parse('1e309')` is `Infinity`, which a JSON Schema `number` accepts, yet it can never be
 *   sent back (it serialises as `null`); and an own `__proto__` key parsed from JSON becomes the
 *   prototype of any object it is later copied into with `Object.assign` or spread. Arguments
 *   carrying either are refused before validation.
 * - A handler may return values JSON cannot carry (`NaN`, `undefined` in an array, a `Date`, a
 *   class instance). Structured output is checked in the form it will be serialised, so what goes
 *   on the wire is what was validated.
 */

/**
 * Keys that change or reach an object's prototype when copied (`Object.assign` with `__proto__`,
 * a naive deep merge following `constructor.prototype`). `__proto__` is never accepted in
 * arguments; `constructor` and `prototype` only where a tool's input schema declares them (see
 * {@link argumentsProblem}).
 */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** No key is accepted (shared). */
const NONE: ReadonlySet<string> = new Set();

function pointer(path: string, key: string | number): string {
  return `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** A problem found below the root: the keys leading to it (innermost first) and what it is. */
interface Found {
  readonly keys: Array<string | number>;
  readonly problem: string;
}

/** Walks without building any path: one is made only for the value that has a problem. */
function find(value: unknown, depth: number, accepted: ReadonlySet<string>): Found | undefined {
  if (typeof value === 'number')
    return Number.isFinite(value)
      ? undefined
      : { keys: [], problem: 'the number is out of range (not a finite number)' };
  if (typeof value !== 'object' || value === null || depth > 256) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = find(value[i], depth + 1, accepted);
      if (found) return (found.keys.push(i), found);
    }
    return undefined;
  }
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    if (PROTOTYPE_KEYS.has(key) && !accepted.has(key))
      return {
        keys: [key],
        problem: `the key "${key}" is not accepted (it could reach object prototypes)`,
      };
    const found = find((value as Record<string, unknown>)[key], depth + 1, accepted);
    if (found) return (found.keys.push(key), found);
  }
  return undefined;
}

/**
 * Why arguments decoded from JSON cannot be given to a handler, as `<JSON pointer>: <problem>`, or
 * undefined: a number out of range (parsed as ±Infinity), or a `__proto__`, `constructor` or
 * `prototype` key anywhere. `accepted` lets `constructor` and `prototype` through (the tool's
 * input schema declares them; its arguments are then made {@link withoutPrototypes}); never
 * `__proto__`.
 */
export function argumentsProblem(
  value: unknown,
  accepted: ReadonlySet<string> = NONE,
): string | undefined {
  const found = find(value, 0, accepted.has('__proto__') ? withoutProto(accepted) : accepted);
  if (!found) return undefined;
  const path = found.keys.reduceRight<string>((at, key) => pointer(at, key), '');
  return `${path || '(root)'}: ${found.problem}`;
}

function withoutProto(keys: ReadonlySet<string>): ReadonlySet<string> {
  const kept = new Set(keys);
  kept.delete('__proto__');
  return kept;
}

/**
 * A copy of `value` whose plain objects have no prototype, at any depth (arrays are copied, other
 * objects kept): reading `constructor` or `prototype` from it gives what the peer sent or
 * `undefined`, never `Object` or an inherited value, so a validator checks only what was sent.
 */
export function withoutPrototypes(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null || depth > 256) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => withoutPrototypes(item, depth + 1));
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value; // a Date, a class instance...
  const copy = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value))
    copy[key] = withoutPrototypes((value as Record<string, unknown>)[key], depth + 1);
  return copy;
}

/** True when JSON would carry `value` unchanged: plain objects and arrays of JSON primitives. */
function isJsonExact(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (depth > 256) return false;
      if (Array.isArray(value)) {
        for (const item of value) if (!isJsonExact(item, depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return false; // Date, Map, class instances
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
      for (const key of Object.keys(value))
        if (!isJsonExact((value as Record<string, unknown>)[key], depth + 1)) return false;
      return true;
    }
    case 'undefined':
    case 'function':
    case 'symbol':
    case 'bigint':
      return false; // dropped or refused by JSON.stringify
  }
}

/** A value in the form its JSON serialisation gives back, or why it has none. */
export type Serialised = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * `value` as a peer will read it after serialisation: the same object when JSON carries it
 * unchanged (the common case, checked without serialising), else its JSON round trip (`NaN`
 * becomes `null`, a `Date` its string...). A value JSON cannot carry at all (a bigint, a cycle)
 * is a problem.
 */
export function asSerialised(value: unknown): Serialised {
  if (isJsonExact(value, 0)) return { ok: true, value };
  try {
    const text = JSON.stringify(value);
    return { ok: true, value: text === undefined ? undefined : (JSON.parse(text) as unknown) };
  } catch (error) {
    return {
      ok: false,
      problem: `it cannot be serialised as JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}
