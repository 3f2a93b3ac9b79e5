/**
 * The generic engine: one dynamic ResourceProvider built from a resource
 * declaration. Preview (check, diff) sends no request; create, read, update and
 * delete send only what the declaration's hooks send.
 */
import type * as pulumi from "@pulumi/pulumi";
import equal from "fast-deep-equal";
import type { z } from "zod";
import { ApiError, NetworkError } from "../client";
import { client, configureConnection, connectionProblem } from "../connection";
import type { AnyResourceDefinition, EngineContext, FieldTraits, Live } from "./definition";
import { apiFieldName, isUnknown, withoutEngineKeys } from "./values";

type Args = Record<string, unknown>;

/**
 * Thrown from create when the object exists but a later step failed: the engine
 * records the object (id and outputs) as created-but-failed, so nothing is
 * orphaned and the next `up` finishes the job.
 */
export class PartialCreateError extends Error {
  readonly id: string;
  readonly properties: Record<string, unknown>;
  readonly reasons: string[];
  constructor(message: string, id: string, properties: Record<string, unknown>) {
    super(message);
    this.id = id;
    this.properties = properties;
    this.reasons = [message];
    this.stack = "";
  }
}

export function buildProvider(definition: AnyResourceDefinition): Required<pulumi.dynamic.ResourceProvider> {
  const fields = (definition.fields ?? {}) as Record<string, FieldTraits | undefined>;
  const propertyNames = Object.keys(definition.schema.shape);
  const traits = (name: string): FieldTraits => fields[name] ?? {};

  function parse(inputs: Args): Args {
    return definition.schema.parse(withoutEngineKeys(inputs)) as Args;
  }

  function context(): EngineContext {
    return { client: client() };
  }

  /** Properties whose declared value differs from the recorded one. */
  function changedProperties(olds: Args, news: Args): string[] {
    return propertyNames.filter((name) => {
      const field = traits(name);
      if (field.ignoreInDiff) return false;
      const declared = news[name];
      if (declared === undefined) return false; // not managed: unset optional fields never show as changes
      if (isUnknown(declared)) return true;
      return !sameValue(field, declared, olds[name]);
    });
  }

  /**
   * The state recorded for a live object: the declared properties, in the form
   * the user wrote them wherever the server's form means the same, and the
   * computed outputs. Write-only values are kept as last applied.
   */
  function outputsFor(args: Args, live: Live): Args {
    const outs: Args = {};
    for (const name of propertyNames) {
      const declared = args[name];
      if (declared === undefined) continue;
      const field = traits(name);
      if (field.local || field.writeOnly) {
        outs[name] = declared;
        continue;
      }
      const liveValue = liveValueOf(name, field, live);
      outs[name] = sameValue(field, declared, liveValue) ? declared : liveValue;
    }
    return { ...outs, ...definition.outputsOf(live as never, args as never) };
  }

  function liveValueOf(name: string, field: FieldTraits, live: Live): unknown {
    return field.fromApi ? field.fromApi(live) : live[apiFieldName(name, field)];
  }

  /** Server errors as the user should read them: what, where, what to do; no stack trace of ours. */
  function explain(error: unknown, action: string, args: Args): Error {
    if (!(error instanceof ApiError || error instanceof NetworkError || error instanceof PartialCreateError)) return error as Error;
    let message = `${definition.name}: could not ${action}. ${error.message}`;
    if (error instanceof ApiError && error.status === 404 && isOwnerNotFound(error)) {
      message +=
        " The owner of this object is missing or no longer visible to the token's user; if it was deleted, remove this resource from the stack with `pulumi state delete`.";
    }
    const explained = error instanceof PartialCreateError ? error : new Error(redact(message, args));
    if (error instanceof PartialCreateError) explained.message = redact(message, args);
    explained.stack = "";
    return explained;
  }

  /** Secret values never appear in messages, even when a server echoes them. */
  function redact(message: string, args: Args): string {
    let result = message;
    for (const name of propertyNames) {
      const value = args[name];
      if (traits(name).secret && typeof value === "string" && value.length >= 4) result = result.split(value).join("[secret]");
    }
    return result;
  }

  function isOwnerNotFound(error: ApiError): boolean {
    const subject = error.notFoundSubject;
    return subject !== undefined && subject !== "" && subject !== definition.notFoundSubject;
  }

  /** The object itself is gone (not its owner, not the route, not a permission problem). */
  function isGone(error: unknown): boolean {
    if (!(error instanceof ApiError) || error.status !== 404) return false;
    const subject = error.notFoundSubject;
    return subject === "" || (subject !== undefined && subject === definition.notFoundSubject);
  }

  return {
    async configure(request) {
      configureConnection(request.config);
    },

    async check(_olds, news) {
      const problem = connectionProblem();
      if (problem) return { inputs: news, failures: [{ property: "", reason: problem }] };
      const inputs = withoutEngineKeys(news);
      const unknownPaths = Object.keys(inputs).filter((name) => isUnknown(inputs[name]));
      const result = definition.schema.safeParse(inputs);
      if (!result.success) {
        const failures = result.error.issues
          .filter((issue: z.core.$ZodIssue) => !unknownPaths.includes(String(issue.path[0])))
          .map((issue: z.core.$ZodIssue) => ({ property: issue.path.join("."), reason: describeIssue(issue) }));
        return failures.length ? { inputs: news, failures } : { inputs: news };
      }
      const parsed = result.data as Args;
      const failures = unknownPaths.length ? [] : (definition.validate?.(parsed as never) ?? []);
      return failures.length ? { inputs: news, failures } : { inputs: stripUndefined(parsed) };
    },

    async diff(_id, olds, news) {
      const changed = changedProperties(olds, withoutEngineKeys(news));
      const replaces = changed.filter((name) => traits(name).replaceOnChange);
      return {
        changes: changed.length > 0,
        replaces,
        deleteBeforeReplace: replaces.length > 0 && definition.deleteBeforeReplace === true,
      };
    },

    async create(inputs) {
      const args = parse(inputs);
      try {
        const ctx = context();
        const adopted = args.adoptExisting === true && definition.adopt ? await definition.adopt(ctx, args as never) : undefined;
        if (adopted) {
          const changed = new Set(changedProperties(outputsFor(args, adopted.live), args));
          const live = changed.size ? await definition.update(ctx, adopted.id, args as never, changed, args as never) : adopted.live;
          return { id: adopted.id, outs: outputsFor(args, live) };
        }
        const created = await definition.create(ctx, args as never);
        return { id: created.id, outs: outputsFor(args, created.live) };
      } catch (error) {
        throw explain(error, "create it", args);
      }
    },

    async read(id, props) {
      const args = withoutEngineKeys(props ?? {});
      try {
        const live = await definition.read(context(), id, args as never);
        if (!live) return { id: "" };
        const outs = outputsFor(args, live);
        const inputs = Object.fromEntries(propertyNames.filter((name) => name in outs).map((name) => [name, outs[name]]));
        return { id, props: outs, inputs };
      } catch (error) {
        if (isGone(error)) return { id: "" };
        throw explain(error, `read ${id}`, args);
      }
    },

    async update(id, olds, news) {
      const args = parse(news);
      const changed = new Set(changedProperties(olds, args));
      try {
        const live = await definition.update(context(), id, args as never, changed, withoutEngineKeys(olds) as never);
        return { outs: outputsFor(args, live) };
      } catch (error) {
        throw explain(error, `update ${id}`, args);
      }
    },

    async delete(id, props) {
      const args = withoutEngineKeys(props);
      try {
        await definition.delete(context(), id, args as never);
      } catch (error) {
        if (isGone(error) || (error instanceof ApiError && error.status === 404 && isOwnerNotFound(error))) return;
        throw explain(error, `delete ${id}`, args);
      }
    },
  };
}

function sameValue(field: FieldTraits, declared: unknown, recorded: unknown): boolean {
  if (equal(declared, recorded)) return true;
  return recorded !== undefined && field.sameValue !== undefined && field.sameValue(declared, recorded);
}

function stripUndefined(args: Args): Args {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
}

/** A failure names the property and the rule, e.g. `linkUrl: must be an http(s) URL`. */
function describeIssue(issue: z.core.$ZodIssue): string {
  const property = issue.path.join(".");
  return property ? `${property}: ${issue.message}` : issue.message;
}


