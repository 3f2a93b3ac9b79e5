/**
 * What a project webhook and a group webhook share: their settings, the rules
 * `check` holds them to, and their requests. Each kind declares itself in its
 * own module (./project-hook.ts, ./group-hook.ts).
 *
 * Real servers never show a hook's token, and show its custom headers' names
 * only: both are kept as last applied (write-only), so a change made to them
 * outside the program cannot be seen. A changed URL makes the server drop
 * the token and the custom headers the same request does not send again, so
 * an update of the URL sends both.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { field } from "../api/fields";
import { customHeaderPath, customHeadersBody, groupHookIdForm, hookIdOf, hookNeeds, hookRequests, hooksOf, parseHookId, projectHookIdForm, urlCredentials, type Hook } from "../api/hooks";
import { ownerOf, type OwnerKind } from "../api/owner";
import { defineObjectResource, type EngineContext, type FieldTraits } from "../engine/definition";
import { idPair, wholeNumber, type EstateReading, type Findings, type TerraformTarget } from "../engine/estate";
import { requestBody } from "../engine/values";
import { isHttpUrl } from "../validation";

/** `web_hooks_custom_headers.json`: a header's name. */
const HEADER_NAME = /^[A-Za-z]+[0-9]*(?:[._-][A-Za-z0-9]+)*$/;

/** A hook URL: http(s). One carrying credentials (user info, a token in its query) is kept secret like a password. */
const hookUrl = z.string().max(8192, { message: "must be at most 8192 characters" }).refine(isHttpUrl, { message: "must be an http(s) URL" });

const hasCredentials = (url: unknown): boolean => typeof url === "string" && urlCredentials(url).length > 0;

/** Marks a URL with credentials secret in the program, so its state, the preview and the review never show it. */
function markUrl(declared: unknown): unknown {
  const secretIfCredentials = (url: unknown) => (hasCredentials(url) ? pulumi.secret(url) : url);
  return typeof declared === "string" ? secretIfCredentials(declared) : pulumi.output(declared as pulumi.Input<string>).apply(secretIfCredentials);
}

/**
 * The URL a refresh records among the inputs: where the server now holds one
 * with credentials and the recorded one had none, the recorded one stays (the
 * engine would record the new one plain: secrecy is kept only where the
 * recorded input had it); the secret output shows the change, and the next
 * diff compares with it.
 */
function refreshedUrl(output: unknown, recorded: Record<string, unknown>): unknown {
  return hasCredentials(output) && !hasCredentials(recorded.url) && typeof recorded.url === "string" ? recorded.url : output;
}

/** Marks each custom header's value secret, its name plain. */
function markHeaders(declared: unknown): unknown {
  if (pulumi.Output.isInstance(declared) || declared instanceof Promise) return pulumi.secret(declared as pulumi.Input<Record<string, string>>);
  if (declared === null || typeof declared !== "object") return declared;
  return Object.fromEntries(Object.entries(declared as Record<string, unknown>).map(([name, value]) => [name, pulumi.secret(value as pulumi.Input<string>)]));
}

/** Masked in messages whether or not it is secret: a URL the program gave as a secret has no credentials the code can see. */
const urlValues = (value: unknown): string[] => (typeof value === "string" ? [value, ...urlCredentials(value)] : []);
const headerValues = (value: unknown): string[] =>
  value !== null && typeof value === "object" ? Object.values(value as Record<string, unknown>).filter((one): one is string => typeof one === "string") : [];

/** An event switch: the server's default is off, but for `pushEvents`, on. */
const eventSwitch = () => z.boolean().optional();

export function eventSwitches<const E extends readonly string[]>(names: E): { [K in E[number]]: z.ZodOptional<z.ZodBoolean> } {
  return Object.fromEntries(names.map((name) => [name, eventSwitch()])) as { [K in E[number]]: z.ZodOptional<z.ZodBoolean> };
}

/** The settings both kinds take, each documented where it is declared. */
export const hookSettings = {
  /** The receiver's URL (http or https). One with credentials in it (`https://user:pass@...`, `?token=...`) is kept secret. */
  url: field(hookUrl, {
    secretParts: { valuesOf: urlValues, mark: markUrl, refreshedInput: refreshedUrl, holdsSecrets: hasCredentials },
  }),
  /**
   * The secret token the receiver checks (sent as `X-Gitlab-Token`). Write-only: the
   * server never shows it, so a token changed outside the program is not seen as drift.
   */
  token: field(z.string().max(2048).refine((token) => !/[\r\n]/.test(token), { message: "must not contain a line break" }).optional(), { secret: true, writeOnly: true, unsetAs: "" }),
  /** The hook's name. */
  name: z.string().max(255).optional(),
  description: z.string().max(2048).optional(),
  /** Verify the receiver's TLS certificate (default true). */
  enableSslVerification: z.boolean().optional(),
  /** Push events only for branches matching this filter (a wildcard such as `release/*`, or a regular expression with `branchFilterStrategy: "regex"`). */
  pushEventsBranchFilter: field(z.string().max(2048).optional(), { sameValue: (declared, live) => (declared ?? "") === (live ?? "") }),
  /** `wildcard` (default), `regex` or `all_branches`. */
  branchFilterStrategy: z.enum(["wildcard", "regex", "all_branches"]).optional(),
  /**
   * Headers sent with each event, by name (at most 20). Their values are secret and write-only: the
   * server shows only the names, so a value changed outside the program is not seen as drift.
   */
  customHeaders: field(
    z
      .record(z.string(), z.string().min(1).max(2048))
      .superRefine((headers, ctx) => {
        for (const name of Object.keys(headers)) {
          if (!HEADER_NAME.test(name)) ctx.addIssue({ code: "custom", message: `${JSON.stringify(name)}: header names are letters, then digits, parts joined by '.', '_' or '-'` });
        }
        if (Object.keys(headers).length > 20) ctx.addIssue({ code: "custom", message: "at most 20 custom headers" });
      })
      .optional(),
    {
      secretParts: { valuesOf: headerValues, mark: markHeaders, refreshedInput: (output) => output },
      writeOnly: true,
      toApi: (value, body) => {
        body.custom_headers = customHeadersBody(value as Record<string, string>);
      },
    },
  ),
  /** A JSON template for the request body, with `{{object_kind}}`-style references to the event's fields (at most 4,096 characters). */
  customWebhookTemplate: z.string().max(4096).optional(),
};

interface HookSettingsInputs {
  url: string;
  token?: string;
  pushEventsBranchFilter?: string;
  branchFilterStrategy?: "wildcard" | "regex" | "all_branches";
  customHeaders?: Record<string, string>;
}

/** A wildcard filter is a branch name with `*`s: what git refuses in one, the server refuses. */
const BAD_WILDCARD = /[\s~^:?[\\]|\.\.|@\{|^\/|\/$|\.lock$/;

/** The rules across settings the schema cannot say. */
export function validateHook(args: HookSettingsInputs): { property: string; reason: string }[] {
  const filter = args.pushEventsBranchFilter;
  if (filter === undefined || filter === "") return [];
  const property = "pushEventsBranchFilter";
  if (args.branchFilterStrategy === "all_branches") {
    return [{ property, reason: `${property}: must not be set with branchFilterStrategy all_branches (the server clears it)` }];
  }
  if (args.branchFilterStrategy === "regex") {
    try {
      new RegExp(filter);
      return [];
    } catch {
      return [{ property, reason: `${property}: must be a valid regular expression with branchFilterStrategy regex` }];
    }
  }
  return BAD_WILDCARD.test(filter)
    ? [{ property, reason: `${property}: must be a branch name with * wildcards (no spaces, '..', '~', '^', ':', '?', '[', '\\' or '@{')` }]
    : [];
}

type Owned = HookSettingsInputs & { project?: string | number; group?: string | number; name?: string } & Record<string, unknown>;

/** The hook as its kind records it, or undefined when it is gone (or of the other kind). */
export async function readHook(ctx: EngineContext, kind: OwnerKind, id: string): Promise<Hook | undefined> {
  const parsed = parseHookId(id);
  if (!parsed || parsed.kind !== kind) throw new Error(`${kind === "project" ? "ProjectHook" : "GroupHook"} id "${id}" is not of the form ${kind}s/<${kind}>/hooks/<id>.`);
  return hookRequests.get(ctx.client, parsed.path);
}

/** Creates the hook; an answer lost on the way is found again (the newest hook with this URL and name) rather than made twice. */
export async function createHook(ctx: EngineContext, fields: Partial<Record<string, FieldTraits>> | undefined, args: Owned): Promise<{ id: string; live: Hook }> {
  const owner = ownerOf(args);
  const body = requestBody(fields, args);
  const live = await hookRequests.post(ctx.client, hooksOf(owner.path), body, async () => {
    const same = (await hookRequests.list(ctx.client, hooksOf(owner.path))).filter((hook) => hook.url === args.url && (hook.name ?? undefined) === args.name);
    return same.sort((a, b) => b.id - a.id)[0];
  });
  return { id: hookIdOf(owner, live.id), live };
}

/**
 * Sends what changed; a changed URL also sends the token and every custom
 * header (the server drops those the request leaves out), and a header no
 * longer declared is removed by its own request.
 */
export async function updateHook(
  ctx: EngineContext,
  fields: Partial<Record<string, FieldTraits>> | undefined,
  id: string,
  args: Owned,
  changed: ReadonlySet<string>,
  olds: Owned,
): Promise<Hook> {
  const path = parseHookId(id)!.path;
  const sent = new Set(changed);
  if (changed.has("url")) for (const name of ["token", "customHeaders"]) if ((args)[name] !== undefined) sent.add(name);
  let live: Hook | undefined;
  if ([...sent].some((name) => name !== "customHeaders" || args.customHeaders !== undefined)) {
    live = await hookRequests.put(ctx.client, path, requestBody(fields, args, sent));
  }
  if (changed.has("customHeaders") || changed.has("url")) {
    const kept = new Set(Object.keys(args.customHeaders ?? {}));
    // After a URL change the server has dropped every header it was not sent again.
    const removed = changed.has("url") ? [] : Object.keys(olds.customHeaders ?? {}).filter((key) => !kept.has(key));
    for (const key of removed) await ctx.client.delete(customHeaderPath(path, key));
    if (removed.length > 0 || !live) live = await hookRequests.get(ctx.client, path);
  }
  return live ?? hookRequests.get(ctx.client, path);
}

/** The hooks of an owner as platform-import declares them: the token (never shown) and a URL with credentials as config entries. */
export async function importedHooks({ ctx, owner }: EstateReading, kind: OwnerKind): Promise<Findings> {
  const address = { [kind]: owner.id };
  const of = ownerOf(address);
  const hooks = await hookRequests.list(ctx.client, hooksOf(of.path));
  return { found: hooks.map((hook) => foundHook(hookIdOf(of, hook.id), hook, address)) };
}

/** The one hook a Terraform state names, by its id in the owner. */
export async function importedHook({ owner, read }: EstateReading, kind: OwnerKind, key: string | number): Promise<Findings> {
  const address = { [kind]: owner.id };
  const importId = hookIdOf(ownerOf(address), Number(key));
  const live = (await read(importId, address)) as Hook | undefined;
  return live ? { found: [foundHook(importId, live, address)] } : { found: [], skipped: [{ what: `hook ${key}`, why: "the owner has no such hook" }] };
}

function foundHook(importId: string, hook: Hook, address: Record<string, unknown>) {
  return {
    importId,
    name: hook.name || "hook",
    live: hook,
    address,
    secrets: ["token", ...(urlCredentials(hook.url).length > 0 ? ["url"] : [])],
    notes: ["The server never shows a hook's token or its custom headers' values: the token is a config entry to set; customHeaders are left undeclared."],
  };
}

/** A Terraform state's hook (`gitlab_project_hook`, `gitlab_group_hook`): `<owner>:<hook id>`. */
export function terraformHook(kind: OwnerKind, id: string): TerraformTarget | undefined {
  const parts = idPair(id);
  const hook = wholeNumber(parts?.[1]);
  return parts && hook !== undefined ? { owner: { kind, ref: parts[0] }, key: hook } : undefined;
}

/**
 * The declaration of a hook kind: a project's (`ProjectHook`) or a group's
 * (`GroupHook`), the two differing only in their owner and their event switches.
 */
export function hookDefinition<S extends z.ZodObject>(kind: OwnerKind, schema: S) {
  const name = kind === "project" ? "ProjectHook" : "GroupHook";
  const ownerOfArgs = (args: z.output<S>) => (args as Record<string, unknown>)[kind] as string | number;
  return defineObjectResource({
    name,
    words: { noun: `${kind} webhook` },
    imported: {
      word: `${kind}-hook`,
      listed: `${kind} webhooks`,
      on: [kind],
      find: (reading) => importedHooks(reading, kind),
      findOne: (reading, key) => importedHook(reading, kind, key),
    },
    terraform: [{ type: `gitlab_${kind}_hook`, target: (id) => terraformHook(kind, id) }],
    idForm: kind === "project" ? projectHookIdForm : groupHookIdForm,
    schema,
    outputs: {
      /** The hook's numeric id on the server. */
      hookId: { value: (live: Hook) => live.id, fromId: (id) => Number(id.split("/").at(-1)) },
      /** `executable`, or `temporarily_disabled`/`disabled` after repeated failed deliveries (as last read). */
      alertStatus: { value: (live: Hook) => live.alert_status ?? "executable", derivedFrom: [] },
      /** Until when a temporarily disabled hook gets no events; null otherwise. */
      disabledUntil: { value: (live: Hook) => live.disabled_until ?? null, derivedFrom: [] },
    },
    validate: (args) => validateHook(args as unknown as HookSettingsInputs),
    needs: (args) => hookNeeds(kind, ownerOfArgs(args)),
    create(ctx, args) {
      return createHook(ctx, this.fields, args as unknown as Owned);
    },
    read: (ctx, id) => readHook(ctx, kind, id),
    update(ctx, id, args, changed, olds) {
      return updateHook(ctx, this.fields, id, args as unknown as Owned, changed, olds as unknown as Owned);
    },
    async delete(ctx, id) {
      await ctx.client.delete("/" + id);
    },
  });
}
