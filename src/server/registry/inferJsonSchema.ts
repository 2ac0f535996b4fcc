/**
 * @module Type-level inference of a value's type from a JSON Schema written `as const`, for the
 * keywords tool schemas use: type, properties, required, items, enum, const, anyOf, oneOf,
 * nullable type arrays. Anything else infers `unknown`, never a wrong type.
 */

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type PrimitiveOf<T> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? unknown[]
          : T extends 'object'
            ? Record<string, unknown>
            : unknown;

type ObjectOf<S, Depth extends unknown[]> = S extends { properties: infer P }
  ? Simplify<
      {
        -readonly [K in keyof P as K extends RequiredKeys<S> ? K : never]: FromSchema<P[K], Depth>;
      } & {
        -readonly [K in keyof P as K extends RequiredKeys<S> ? never : K]?: FromSchema<P[K], Depth>;
      }
    >
  : Record<string, unknown>;

type RequiredKeys<S> = S extends { required: readonly (infer R)[] } ? R : never;

type ArrayOf<S, Depth extends unknown[]> = S extends { items: infer I }
  ? Array<FromSchema<I, Depth>>
  : unknown[];

type ByType<S, T, Depth extends unknown[]> = T extends 'object'
  ? ObjectOf<S, Depth>
  : T extends 'array'
    ? ArrayOf<S, Depth>
    : PrimitiveOf<T>;

type FromSchema<S, Depth extends unknown[]> = Depth['length'] extends 8
  ? unknown
  : S extends { const: infer C }
    ? C
    : S extends { enum: readonly (infer E)[] }
      ? E
      : S extends { anyOf: readonly (infer A)[] }
        ? FromSchema<A, [...Depth, 1]>
        : S extends { oneOf: readonly (infer A)[] }
          ? FromSchema<A, [...Depth, 1]>
          : S extends { type: readonly (infer T)[] }
            ? ByType<S, T, [...Depth, 1]>
            : S extends { type: infer T }
              ? ByType<S, T, [...Depth, 1]>
              : unknown;

/** The TypeScript type a JSON Schema (declared `as const`) describes. */
export type FromJsonSchema<S> = FromSchema<S, []>;
