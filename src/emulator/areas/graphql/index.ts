/**
 * `POST /api/graphql` (and `GET` with `?query=`): GraphQL over HTTP as GitLab
 * serves it. The query is parsed,
 * validated against the schema and run by graphql-js; the schema holds what
 * the emulator answers through GraphQL (../security-reports/graphql.ts).
 * - Authentication: the access token as for REST (`PRIVATE-TOKEN`,
 *   `Authorization: Bearer`); none is an anonymous query; an unknown token is
 *   401 `{"errors":[{"message":"Invalid token"}]}`.
 * - A query that does not parse or validate, and a field that fails, answer
 *   200 with GraphQL's `errors` (`message`, `locations`, `path`); nothing to
 *   run (no `query`) is 200 `{"errors":[{"message":"No query string was present"}]}`.
 */
import { buildSchema, execute, GraphQLError, parse, validate, type DocumentNode, type ExecutionResult } from "graphql";
import { accessTokenOf, ok, route, type ApiResponse, type RequestContext } from "../../router";
import { type EmulatorArea } from "../../area";
import type { User } from "../../state";
import { securityReportsRoot, securityReportsSdl } from "../security-reports/graphql";

const schema = buildSchema(securityReportsSdl);

interface GraphqlRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

const errorsAnswer = (status: number, errors: readonly GraphQLError[] | { message: string }[]): ApiResponse => ({
  status,
  body: { errors: errors.map((error) => (error instanceof GraphQLError ? error.toJSON() : error)) },
});

/** The request's query, variables and operation: a JSON body, or the query string of a GET. */
function requestOf(ctx: RequestContext<unknown>): GraphqlRequest {
  if (ctx.method === "GET") {
    const variables = ctx.url.searchParams.get("variables");
    return { query: ctx.url.searchParams.get("query") ?? undefined, variables: variables ? JSON.parse(variables) : undefined, operationName: ctx.url.searchParams.get("operationName") ?? undefined };
  }
  const text = ctx.rawBody.toString("utf8");
  return text.trim() === "" ? {} : (JSON.parse(text) as GraphqlRequest);
}

/** The caller: null without a token; undefined for a token nobody has. */
function callerOf(ctx: RequestContext<unknown>): User | null | undefined {
  const token = accessTokenOf(ctx.headers, ctx.url.searchParams);
  return token === undefined ? null : ctx.state.userByToken(token);
}

function answer(ctx: RequestContext<unknown>): ApiResponse {
  const user = callerOf(ctx);
  if (user === undefined) return errorsAnswer(401, [{ message: "Invalid token" }]);
  let request: GraphqlRequest;
  try {
    request = requestOf(ctx);
  } catch {
    return errorsAnswer(400, [{ message: "Invalid JSON" }]);
  }
  if (typeof request.query !== "string" || request.query.trim() === "") return errorsAnswer(200, [{ message: "No query string was present" }]);
  let document: DocumentNode;
  try {
    document = parse(request.query);
  } catch (error) {
    return errorsAnswer(200, [error as GraphQLError]);
  }
  const invalid = validate(schema, document);
  if (invalid.length > 0) return errorsAnswer(200, invalid);
  const result = execute({
    schema,
    document,
    rootValue: securityReportsRoot(ctx.state, user),
    variableValues: (request.variables ?? undefined) as Record<string, unknown> | undefined,
    operationName: typeof request.operationName === "string" ? request.operationName : undefined,
  }) as ExecutionResult;
  return ok(result.errors ? { data: result.data ?? null, errors: result.errors.map((error) => error.toJSON()) } : { data: result.data });
}

export const graphqlArea: EmulatorArea = {
  name: "graphql",
  routes: [route("POST", "/api/graphql", { outsideApi: true }, answer), route("GET", "/api/graphql", { outsideApi: true }, answer)],
};
