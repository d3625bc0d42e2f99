// The resource helpers' types, derived from the generated `paths` the same way resources.ts derives the helpers
// from the operation table: a route added to the service gets typed helpers after `npm run sdk:types`.
import type { paths } from './schema.d.ts';
import type { CallOptions, Ref } from './resources.ts';

type Path = keyof paths & string;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Op<P extends Path, M extends Method> = NonNullable<paths[P][M]>;
type Has<P extends Path, M extends Method> = [Op<P, M>] extends [never] ? false : true;

type Json<R> = R extends { content: { 'application/json': infer J } } ? J : undefined;
/** The success body: 200, else 201, else 202. */
export type OkBody<O> = O extends { responses: infer R }
  ? 200 extends keyof R
    ? Json<R[200]>
    : 201 extends keyof R
      ? Json<R[201]>
      : 202 extends keyof R
        ? Json<R[202]>
        : undefined
  : never;
export type DataOf<O> = OkBody<O> extends { data: infer D } ? D : OkBody<O>;
export type BodyOf<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : unknown;
export type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : Record<string, unknown>;
type ListItem<O> = OkBody<O> extends { data: Array<infer E> } ? E : unknown;

type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;
type Segment<S extends string> = S extends `${string}/${string}` ? never : S extends `{${string}` ? never : S;
/** The literal segments right after `Base` (`mark-paid`, `rows` for `/invoices/{invoice_id}`). */
type Tails<Base extends string> = Path extends infer P
  ? P extends `${Base}/${infer T}`
    ? T extends `${infer Head}/${string}`
      ? Segment<Head>
      : Segment<T>
    : never
  : never;
type ItemPath<C extends string> = Exclude<Extract<Path, `${C}/{${string}}`>, `${C}/{${string}}/${string}`>;
type IsCollection<P extends string> = [Extract<Path, `${P}/${string}`>] extends [never]
  ? P extends Path
    ? Has<P, 'get'> extends true
      ? Has<P, 'post'>
      : false
    : false
  : true;

type CollectionOps<C extends string> = (C extends Path
  ? (Has<C, 'get'> extends true
      ? {
          /** Every record of the list, page after page (cursor or offset). */
          list(query?: QueryOf<Op<C, 'get'>>): AsyncGenerator<ListItem<Op<C, 'get'>>, void>;
          /** One page with its meta. */
          listPage(query?: QueryOf<Op<C, 'get'>>): Promise<OkBody<Op<C, 'get'>>>;
        }
      : unknown) &
      (Has<C, 'post'> extends true
        ? { create(body: BodyOf<Op<C, 'post'>>, options?: CallOptions): Promise<DataOf<Op<C, 'post'>>> }
        : unknown)
  : unknown) & { [T in Tails<C> as Camel<T>]: Nested<`${C}/${T}`> };

type Nested<P extends string> = [Extract<Path, `${P}/${string}`>] extends [never]
  ? P extends Path
    ? Has<P, 'post'> extends true
      ? (body?: BodyOf<Op<P, 'post'>>, options?: CallOptions) => Promise<DataOf<Op<P, 'post'>>>
      : (query?: QueryOf<Op<P, 'get'>>) => Promise<DataOf<Op<P, 'get'>>>
    : never
  : Resource<P>;

type Action<P extends string> = P extends Path
  ? Has<P, 'post'> extends true
    ? (ref: Ref, body?: BodyOf<Op<P, 'post'>>, options?: CallOptions) => Promise<DataOf<Op<P, 'post'>>>
    : Has<P, 'put'> extends true
      ? (ref: Ref, body?: BodyOf<Op<P, 'put'>>, options?: CallOptions) => Promise<DataOf<Op<P, 'put'>>>
      : (ref: Ref, query?: QueryOf<Op<P, 'get'>>) => Promise<DataOf<Op<P, 'get'>>>
  : never;

type ItemOps<I extends Path> = (Has<I, 'get'> extends true
  ? { get(ref: Ref, query?: QueryOf<Op<I, 'get'>>): Promise<DataOf<Op<I, 'get'>>> }
  : unknown) &
  (Has<I, 'patch'> extends true
    ? {
        /** If-Match comes from the record (its ETag or updated_at) unless options.ifMatch says otherwise. */
        update(ref: Ref, body: BodyOf<Op<I, 'patch'>>, options?: CallOptions): Promise<DataOf<Op<I, 'patch'>>>;
      }
    : unknown) &
  (Has<I, 'put'> extends true
    ? { replace(ref: Ref, body: BodyOf<Op<I, 'put'>>, options?: CallOptions): Promise<DataOf<Op<I, 'put'>>> }
    : unknown) &
  (Has<I, 'delete'> extends true ? { delete(ref: Ref, options?: CallOptions): Promise<void> } : unknown) & {
    [T in Tails<I> as Camel<T>]: IsCollection<`${I}/${T}`> extends true
      ? (ref: Ref) => Resource<`${I}/${T}`>
      : Action<`${I}/${T}`>;
  };

/** A resource at a collection path: its list/create, its item's get/update/delete, actions and sub-resources. */
export type Resource<C extends string> = CollectionOps<C> &
  ([ItemPath<C>] extends [never] ? unknown : ItemOps<ItemPath<C>>);

type Root<P> = P extends `/${infer R}/${string}` ? R : P extends `/${infer R}` ? R : never;
/** `sdk.clients`, `sdk.timeEntries`, ... one per top-level path segment of the document. */
export type Resources = { [R in Root<Path> & string as Camel<R>]: Resource<`/${R}`> };
