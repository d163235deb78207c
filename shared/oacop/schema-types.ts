// Static types read off JSON Schema literals (`as const`), so the §7 schemas stay the single
// source of truth and the TypeScript types cannot drift from them. Only the
// keywords OACoP's schemas use are understood; anything else widens to `unknown`.

type Required<S> = S extends { readonly required: readonly (infer K extends string)[] } ? K : never;

type Expand<T> = T extends object ? { [K in keyof T]: T[K] } : T;

type ObjectFrom<S> = S extends { readonly properties: infer P }
  ? Expand<
      { readonly [K in keyof P & Required<S>]: FromSchema<P[K]> } & {
        readonly [K in Exclude<keyof P, Required<S>>]?: FromSchema<P[K]>;
      } & { readonly [K in Exclude<Required<S>, keyof P>]: unknown }
    >
  : { readonly [K in Required<S>]: unknown };

/** The value type a JSON Schema literal accepts. */
export type FromSchema<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly type: 'string' }
      ? string
      : S extends { readonly type: 'integer' | 'number' }
        ? number
        : S extends { readonly type: 'boolean' }
          ? boolean
          : S extends { readonly type: 'array'; readonly items: infer I }
            ? readonly FromSchema<I>[]
            : S extends { readonly type: 'object' }
              ? ObjectFrom<S>
              : unknown;
