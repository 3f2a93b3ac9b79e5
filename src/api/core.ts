/**
 * What every API area module shares: answers checked against their zod
 * schema (a server that answers something else fails with a message that
 * names the request and the field, never a cast that lets it through), and
 * thin typed requests over the one HTTP core (../client).
 *
 * Schemas are loose: fields the API adds, or that one server version sends and
 * another does not, pass through untouched, so a resource records exactly what
 * the server said. Each schema is built once, when its area module loads.
 */
import { z } from "zod";
import type { FormFields, PlatformClient, Query } from "../client";

/** A server's answer that is not the shape the API specifies. */
export class UnexpectedAnswer extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnexpectedAnswer";
    // The message says all there is: the request, the field and what to check.
    this.stack = "";
  }
}

/** The answer to `request` (`GET /projects/1/badges/2`), checked against `schema`. */
export function checked<S extends z.ZodType>(schema: S, answer: unknown, request: string): z.output<S> {
  const result = schema.safeParse(answer);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new UnexpectedAnswer(
    `the server's answer to ${request} is not what the API specifies (${issue.path.join(".") || "the answer"}: ${issue.message}). ` +
      "Check that platform:url is the platform's API.",
  );
}

/** The typed requests of one answer shape: every answer read through them is checked. */
export interface Requests<T> {
  /** The schema, for the data functions (which check and camelCase answers themselves). */
  readonly schema: z.ZodType<T>;
  /** A list of these answers (a data function's `item`, a non-paginated list's check). */
  readonly listSchema: z.ZodType<T[]>;
  get(client: PlatformClient, path: string, query?: Query): Promise<T>;
  /** A list endpoint that is not paginated (answered whole, in one array). */
  getAll(client: PlatformClient, path: string, query?: Query): Promise<T[]>;
  /** Every page of a paginated list. */
  list(client: PlatformClient, path: string, query?: Query): Promise<T[]>;
  /** The first item of a paginated list that matches, reading no further pages than needed. */
  find(client: PlatformClient, path: string, query: Query | undefined, predicate: (item: T) => boolean): Promise<T | undefined>;
  post(client: PlatformClient, path: string, body: unknown, findCreated?: () => Promise<T | undefined>): Promise<T>;
  put(client: PlatformClient, path: string, body: unknown): Promise<T>;
  patch(client: PlatformClient, path: string, body: unknown): Promise<T>;
  /** A PUT of a multipart form (a file upload). */
  putForm(client: PlatformClient, path: string, form: FormFields): Promise<T>;
  /** An answer got another way (a raw `request`), checked as the requests check theirs. */
  check(answer: unknown, request: string): T;
}

/** The typed requests of answers of this shape. */
export function requestsOf<S extends z.ZodType>(schema: S): Requests<z.output<S>> {
  type T = z.output<S>;
  const listSchema = z.array(schema);
  const one = (answer: unknown, request: string): T => checked(schema, answer, request);
  return {
    schema: schema as unknown as z.ZodType<T>,
    listSchema: listSchema as unknown as z.ZodType<T[]>,
    get: async (client, path, query) => one(await client.get<unknown>(path, query), `GET ${path}`),
    getAll: async (client, path, query) => checked(listSchema, await client.get<unknown>(path, query), `GET ${path}`),
    list: async (client, path, query) => checked(listSchema, await client.list<unknown>(path, query), `GET ${path}`),
    async find(client, path, query, predicate) {
      const found = await client.find<unknown>(path, query, (item) => predicate(one(item, `GET ${path}`)));
      return found === undefined ? undefined : one(found, `GET ${path}`);
    },
    post: async (client, path, body, findCreated) => one(await client.post<unknown>(path, body, findCreated), `POST ${path}`),
    put: async (client, path, body) => one(await client.put<unknown>(path, body), `PUT ${path}`),
    patch: async (client, path, body) => one(await client.patch<unknown>(path, body), `PATCH ${path}`),
    putForm: async (client, path, form) => one(await client.putForm<unknown>(path, form), `PUT ${path}`),
    check: one,
  };
}
