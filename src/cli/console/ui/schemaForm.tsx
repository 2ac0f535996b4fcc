/**
 * @module A form generated from a tool's input schema: strings (with `date`, `date-time`,
 * `email` and `uri` formats and length bounds), numbers and integers within their bounds,
 * booleans, enums and titled enums (`oneOf`/`anyOf` of `const`), arrays (of choices, or one item
 * per line), nested objects, `oneOf`/`anyOf` of other schemas (a choice of variant, then that
 * variant's field), defaults and required fields, with the problems of each field shown beside
 * it. Everything is rendered as text: nothing in a schema becomes markup.
 */
import { useEffect, useState } from 'preact/hooks';
import { visible } from './visibleText.js';

export type Schema = Record<string, unknown>;
type Value = unknown;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A schema's value read as a schema: anything that is not an object is the empty schema. */
const asSchema = (v: unknown): Schema =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Schema) : {};

/**
 * A schema's properties, each read as a schema: a server may send anything at all there (the
 * client checks only the top of an input schema), and a form must still be drawn.
 */
export function propertiesOf(schema: Schema): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const [name, declared] of Object.entries(asSchema(schema['properties'])))
    out[name] = asSchema(declared);
  return out;
}

/** A schema's required names (strings only). */
export function requiredOf(schema: Schema): Set<string> {
  const required = schema['required'];
  return new Set(Array.isArray(required) ? required.filter((n) => typeof n === 'string') : []);
}

/** The choices of a field: `enum`, or `oneOf`/`anyOf` of `const` with titles. */
export function choicesOf(schema: Schema): Array<{ value: unknown; label: string }> | undefined {
  if (Array.isArray(schema['enum']))
    return schema['enum'].map((v) => ({ value: v, label: String(v) }));
  const options = schema['oneOf'] ?? schema['anyOf'];
  if (Array.isArray(options) && options.every((o) => o && typeof o === 'object' && 'const' in o))
    return (options as Schema[]).map((o) => ({
      value: o['const'],
      label: str(o['title']) ?? String(o['const']),
    }));
  return undefined;
}

/** The variants of a field: `oneOf`/`anyOf` of schemas that are not all `const` choices. */
export function variantsOf(schema: Schema): Schema[] | undefined {
  const options = schema['oneOf'] ?? schema['anyOf'];
  if (!Array.isArray(options) || options.length === 0 || choicesOf(schema)) return undefined;
  return options.map((o) => (o && typeof o === 'object' ? (o as Schema) : {}));
}

/** How a variant is named in the choice: its title, else what it is. */
export function variantLabel(variant: Schema, index: number): string {
  const title = str(variant['title']);
  if (title) return title;
  const type = str(variant['type']);
  if (type === 'object') {
    const names = Object.keys(propertiesOf(variant));
    return names.length > 0 ? `object with ${names.join(', ')}` : 'object';
  }
  return type ?? `option ${index + 1}`;
}

/** Whether `value` has the shape of `variant` (its type, and its required properties). */
function fits(variant: Schema, value: Value): boolean {
  const type = variant['type'];
  if (value === null) return type === 'null';
  if (Array.isArray(value)) return type === 'array';
  if (typeof value === 'object')
    return type === 'object' && [...requiredOf(variant)].every((k) => k in (value as object));
  if (typeof value === 'number') return type === 'number' || type === 'integer';
  return typeof value === type;
}

/** The variant a value was made with: the one chosen on the form, else the first it fits. */
export function variantIndex(variants: Schema[], value: Value, chosen: number | undefined): number {
  if (chosen !== undefined && chosen < variants.length) return chosen;
  const fitting = value === undefined ? -1 : variants.findIndex((v) => fits(v, value));
  return fitting < 0 ? 0 : fitting;
}

/** An RFC 3339 date-time as a date-time picker shows it: local time, to the minute. */
export function localDateTime(value: string): string {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}` +
    `T${two(at.getHours())}:${two(at.getMinutes())}`
  );
}

/** The problems of a value against its field's schema ('' when none). */
export function problemOf(schema: Schema, value: Value, required: boolean): string {
  if (value === undefined || value === '') return required ? 'Required' : '';
  const type = schema['type'];
  if ((type === 'number' || type === 'integer') && typeof value === 'number') {
    if (Number.isNaN(value)) return 'A number';
    if (type === 'integer' && !Number.isInteger(value)) return 'A whole number';
    const min = schema['minimum'];
    const max = schema['maximum'];
    if (typeof min === 'number' && value < min) return `At least ${min}`;
    if (typeof max === 'number' && value > max) return `At most ${max}`;
  }
  if (typeof value === 'string') {
    const min = schema['minLength'];
    const max = schema['maxLength'];
    if (typeof min === 'number' && value.length < min) return `At least ${min} characters`;
    if (typeof max === 'number' && value.length > max) return `At most ${max} characters`;
    if (schema['format'] === 'email' && !/^[^@\s]+@[^@\s]+$/.test(value)) return 'An email address';
    if (schema['format'] === 'uri' && !/^[a-z][a-z0-9+.-]*:/i.test(value)) return 'A URI';
  }
  return '';
}

/** The initial value of a field: its default, or empty. */
export function initialValue(schema: Schema): Value {
  if ('default' in schema) return schema['default'];
  if (schema['type'] === 'null') return null;
  if (schema['type'] === 'object') {
    const out: Record<string, Value> = {};
    for (const [k, s] of Object.entries(propertiesOf(schema))) {
      const v = initialValue(s);
      if (v !== undefined) out[k] = v;
    }
    return out;
  }
  return undefined;
}

/** The variant chosen on the form for each field path that has variants. */
export type ChosenVariants = Readonly<Record<string, number>>;

/** Every problem of an object value, by field path ('a.b'). */
export function problemsOf(
  schema: Schema,
  value: Record<string, Value>,
  at: { prefix?: string; chosen?: ChosenVariants } = {},
): Record<string, string> {
  const problems: Record<string, string> = {};
  const required = requiredOf(schema);
  for (const [name, declared] of Object.entries(propertiesOf(schema))) {
    const path = (at.prefix ?? '') + name;
    const v = value[name];
    const variants = variantsOf(declared);
    const field = variants
      ? (variants[variantIndex(variants, v, at.chosen?.[path])] ?? {})
      : declared;
    if (field['type'] === 'object' && v && typeof v === 'object')
      Object.assign(
        problems,
        problemsOf(field, v as Record<string, Value>, { prefix: `${path}.`, chosen: at.chosen }),
      );
    else {
      const problem = problemOf(field, v, required.has(name));
      if (problem) problems[path] = problem;
    }
  }
  return problems;
}

interface FieldProps {
  name: string;
  path: string;
  schema: Schema;
  value: Value;
  required: boolean;
  problems: Record<string, string>;
  onChange: (value: Value) => void;
  /** The variants chosen so far, and how to choose one. */
  variants: { chosen: ChosenVariants; choose: (path: string, index: number) => void };
  /** Only the input: the field around it (a variant's) shows the label and the problem. */
  bare?: boolean;
}

/** A field with variants: the choice of variant, then that variant's own field. */
function VariantField(props: FieldProps & { options: Schema[] }) {
  const { path, options, value } = props;
  const index = variantIndex(options, value, props.variants.chosen[path]);
  const variant = options[index] ?? {};
  return (
    <div class="variants">
      <select
        id={`field-${path}-kind`}
        value={index}
        onChange={(e) => {
          const next = Number((e.target as HTMLSelectElement).value);
          props.variants.choose(path, next);
          props.onChange(initialValue(options[next] ?? {}));
        }}
      >
        {options.map((o, i) => (
          <option key={i} value={i}>
            {visible(variantLabel(o, i))}
          </option>
        ))}
      </select>
      {variant['type'] === 'null' ? null : (
        <Field {...props} schema={variant} required={false} bare />
      )}
    </div>
  );
}

function Field(props: FieldProps) {
  const { name, path, schema, value, required, problems, onChange } = props;
  const label = visible(str(schema['title']) ?? name);
  const description = str(schema['description']);
  const id = `field-${path}`;
  const type = schema['type'];
  const choices = choicesOf(schema);
  const variants = variantsOf(schema);
  const items = asSchema(schema['items']);
  let input;
  if (variants) {
    input = <VariantField {...props} options={variants} />;
  } else if (type === 'object') {
    const properties = propertiesOf(schema);
    const inner = (value && typeof value === 'object' ? value : {}) as Record<string, Value>;
    const req = requiredOf(schema);
    input = (
      <fieldset>
        {Object.entries(properties).map(([k, s]) => (
          <Field
            key={k}
            name={k}
            path={`${path}.${k}`}
            schema={s}
            value={inner[k]}
            required={req.has(k)}
            problems={problems}
            variants={props.variants}
            onChange={(v) => onChange({ ...inner, [k]: v })}
          />
        ))}
      </fieldset>
    );
  } else if (choices) {
    input = (
      <select
        id={id}
        value={choices.findIndex((c) => c.value === value)}
        onChange={(e) => {
          const i = Number((e.target as HTMLSelectElement).value);
          onChange(i >= 0 ? choices[i]?.value : undefined);
        }}
      >
        <option value={-1}>—</option>
        {choices.map((c, i) => (
          <option key={i} value={i}>
            {visible(c.label)}
          </option>
        ))}
      </select>
    );
  } else if (type === 'array' && choicesOf(items)) {
    const picked = Array.isArray(value) ? value : [];
    input = (
      <span id={id} class="choices">
        {choicesOf(items)!.map((c, i) => (
          <label key={i}>
            <input
              type="checkbox"
              checked={picked.includes(c.value)}
              onChange={(e) => {
                const on = (e.target as HTMLInputElement).checked;
                onChange(on ? [...picked, c.value] : picked.filter((p) => p !== c.value));
              }}
            />
            {visible(c.label)}
          </label>
        ))}
      </span>
    );
  } else if (type === 'array') {
    input = (
      <textarea
        id={id}
        placeholder="one item per line"
        value={Array.isArray(value) ? value.join('\n') : ''}
        onInput={(e) => {
          const lines = (e.target as HTMLTextAreaElement).value.split('\n').filter((l) => l !== '');
          onChange(
            items['type'] === 'number' || items['type'] === 'integer' ? lines.map(Number) : lines,
          );
        }}
      />
    );
  } else if (type === 'boolean') {
    input = (
      <input
        id={id}
        type="checkbox"
        checked={value === true}
        onChange={(e) => onChange((e.target as HTMLInputElement).checked)}
      />
    );
  } else if (type === 'number' || type === 'integer') {
    input = (
      <input
        id={id}
        type="number"
        step={type === 'integer' ? 1 : 'any'}
        value={typeof value === 'number' ? value : ''}
        min={schema['minimum'] as number | undefined}
        max={schema['maximum'] as number | undefined}
        onInput={(e) => {
          const raw = (e.target as HTMLInputElement).value;
          onChange(raw === '' ? undefined : Number(raw));
        }}
      />
    );
  } else {
    const format = str(schema['format']);
    const inputType =
      format === 'date'
        ? 'date'
        : format === 'date-time'
          ? 'datetime-local'
          : format === 'email'
            ? 'email'
            : format === 'uri'
              ? 'url'
              : 'text';
    // A date-time picker gives local time without a zone: the value sent is RFC 3339, in UTC.
    const dateTime = inputType === 'datetime-local';
    input = (
      <input
        id={id}
        type={inputType}
        value={typeof value === 'string' ? (dateTime ? localDateTime(value) : value) : ''}
        onInput={(e) => {
          const raw = (e.target as HTMLInputElement).value;
          onChange(dateTime && raw !== '' ? new Date(raw).toISOString() : raw);
        }}
      />
    );
  }
  if (props.bare) return input;
  const problem = problems[path];
  return (
    <div class={`field${problem ? ' invalid' : ''}`}>
      <label for={variants ? `${id}-kind` : id}>
        {label}
        {required ? (
          <span class="required" title="required">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {description ? <div class="hint">{visible(description)}</div> : null}
      {input}
      {problem ? (
        <div class="problem" role="alert">
          {problem}
        </div>
      ) : null}
    </div>
  );
}

/** The form of one tool's arguments, with a raw JSON editor beside it. */
export function SchemaForm(props: {
  schema: Schema;
  onSubmit: (args: Record<string, unknown>) => void;
  /** The submit button's label. Default `Call`. */
  submitLabel?: string;
}) {
  const [value, setValue] = useState<Record<string, Value>>(
    () => initialValue(props.schema) as Record<string, Value>,
  );
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [raw, setRaw] = useState<string | undefined>(undefined);
  const [rawProblem, setRawProblem] = useState('');
  const [chosen, setChosen] = useState<ChosenVariants>({});
  const variants = {
    chosen,
    choose: (path: string, index: number) => setChosen({ ...chosen, [path]: index }),
  };
  // Once a call was tried, the problems follow each change (a fixed field clears its own).
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (tried && raw === undefined) setProblems(problemsOf(props.schema, value, { chosen }));
  }, [value, chosen]);
  const properties = propertiesOf(props.schema);
  const required = requiredOf(props.schema);
  const submit = (e: Event) => {
    e.preventDefault();
    setTried(true);
    let args = value;
    if (raw !== undefined) {
      try {
        const parsed = JSON.parse(raw) as unknown;
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
          throw new Error('not an object');
        args = parsed as Record<string, Value>;
      } catch {
        setRawProblem('The arguments must be a JSON object');
        return;
      }
    }
    // Typed as JSON, the arguments say their variants themselves.
    const found = problemsOf(props.schema, args, raw === undefined ? { chosen } : {});
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const clean = Object.fromEntries(
      Object.entries(args).filter(([, v]) => v !== undefined && v !== ''),
    );
    props.onSubmit(clean);
  };
  return (
    // The problems are shown beside each field, not in the browser's own bubbles.
    <form class="call-form" noValidate onSubmit={submit}>
      {raw === undefined ? (
        Object.entries(properties).map(([name, schema]) => (
          <Field
            key={name}
            name={name}
            path={name}
            schema={schema}
            value={value[name]}
            required={required.has(name)}
            problems={problems}
            variants={variants}
            onChange={(v) => setValue({ ...value, [name]: v })}
          />
        ))
      ) : (
        <div class="field">
          <label for="raw-json">Arguments (JSON)</label>
          <textarea
            id="raw-json"
            class="raw"
            value={raw}
            onInput={(e) => setRaw((e.target as HTMLTextAreaElement).value)}
          />
          {rawProblem ? (
            <div class="problem" role="alert">
              {rawProblem}
            </div>
          ) : null}
        </div>
      )}
      <div class="actions">
        <button
          type="button"
          onClick={() =>
            raw === undefined ? setRaw(JSON.stringify(value, null, 2)) : setRaw(undefined)
          }
        >
          {raw === undefined ? 'Edit as JSON' : 'Edit as form'}
        </button>
        <button type="submit" class="primary">
          {props.submitLabel ?? 'Call'}
        </button>
      </div>
    </form>
  );
}
