/**
 * The TypeScript type a JSON Schema describes, for the small subset the service's shapes use (type, enum, const,
 * properties with required, items, anyOf). The shapes are written once, as schemas the client and the emulator
 * check at run time, and their types are derived from them here, so the two cannot drift apart.
 */

type Primitive<T> = T extends 'string'
  ? string
  : T extends 'integer' | 'number'
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

type Flatten<T> = { [K in keyof T]: T[K] } & {};

type ObjectOf<P, Required extends PropertyKey> = Flatten<
  { -readonly [K in keyof P & Required]: Infer<P[K]> } & {
    -readonly [K in Exclude<keyof P, Required>]?: Infer<P[K]>;
  }
>;

/** `T`, or null too when the schema's type list allows null. */
type OrNull<S, T> = S extends { readonly type: readonly (infer U)[] } ? ('null' extends U ? T | null : T) : T;

type RequiredOf<S> = S extends { readonly required: readonly (infer R extends PropertyKey)[] } ? R : never;

/** The value type of schema `S`. Properties not listed as required are optional; extra members are not typed. */
export type Infer<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly properties: infer P }
      ? OrNull<S, ObjectOf<P, RequiredOf<S>>>
      : S extends { readonly anyOf: readonly (infer A)[] }
        ? Infer<A>
        : S extends { readonly type: 'array'; readonly items: infer I }
          ? Infer<I>[]
          : S extends { readonly type: readonly (infer T)[] }
            ? Primitive<T>
            : S extends { readonly type: infer T }
              ? Primitive<T>
              : unknown;
