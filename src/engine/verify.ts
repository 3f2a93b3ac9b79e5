/**
 * Verification at preview: what the server would refuse at `up`, found by
 * reading before anything is written. A resource module declares what each
 * operation on its objects needs (`needs(args, operation)`, ./needs.ts: the
 * owner and the property naming it, the role, the tier, a feature flag,
 * uniqueness, the object's ownership); `check` (./provider.ts) asks this
 * module for a create or an update (`verify`), and `diff`, which alone sees
 * the object's id, for an update's ownership and a replacement's delete
 * (`verifyObject`). Each unmet need is reported naming the property, the
 * object and the need, in the words refusals use.
 *
 * Reads are few and shared by every resource of the run (the provider host
 * process, see ./run-caches.ts), per server connection:
 * - `GET /user` once: who the token's user is, whether an administrator
 *   (administrators pass every role check).
 * - per owner, once: `GET /groups/:id` (existence, full path) or
 *   `GET /projects/:id` (existence, and the caller's role in `permissions`).
 *   An owner named by an object of a group (an upstream's virtual registry,
 *   by id) is that object's group: the object is read once (its group's id,
 *   and what gates the read: a refusal names the need), then the group once.
 * - per group whose role matters, once: `GET /groups/:id/members/all/:user_id`
 *   (the effective role, inherited and shared included; 404: none). A
 *   project's answer shows the direct and inherited roles (`permissions`) but
 *   not a role through a share: where those fall short,
 *   `GET /projects/:id/members/all/:user_id` once.
 * - per top-level namespace whose tier matters, once: `GET /namespaces/:id`
 *   (`plan`, shown to its Owners and administrators); where the namespace has
 *   no plan of its own (self-managed: `default`), `GET /license` once
 *   (administrators only). A tier nobody may read is not judged.
 * - `GET /features` once, only for administrators (others cannot read flags);
 *   a flag it does not list (never set) runs on its default:
 *   `GET /features/definitions` once (`default_enabled`).
 * - per owner and kind of object that must be unique, one list; per list
 *   with a limit the new object joins (a registry's upstreams), one list, the
 *   same read when it is also the uniqueness list.
 * - per branch or tag an input names (a schedule's `ref`), once:
 *   `GET /projects/:id/repository/branches/:name` (a short name that may be a
 *   tag as well: `GET /projects/:id/repository/tags/:name` too); a missing
 *   one is named with the project's default branch, from its read above.
 * - per existing object whose owner decides a step (`Needs.ownership`: a
 *   pipeline schedule changed or deleted), once, by diff, and only when the
 *   token's role does not do without ownership.
 *
 * Each need is refused only on the server's word that it is unmet: a fact it
 * does not tell (a plan hidden from a non-Owner, a licence or membership it
 * will not show, a flag it neither lists nor defines) is not judged, and the
 * `up` is left to say. A flag an administrator's reads could not tell is said
 * once per run (a warning).
 *
 * When the server cannot be reached, the run says so once (a warning, see
 * ./engine-log.ts) and verifies nothing more; the preview goes on.
 */
import { effectiveMemberPath, FEATURE_DEFINITIONS_PATH, isNoMembership, featureDefinitionRequests, featureFlagRequests, FEATURES_PATH, LICENSE_PATH, licenseRequests, memberRequests, namespaceRequests, namespacePath } from "../api/access-facts";
import { groupRequests, groupPath } from "../api/groups";
import { projectRequests, projectPath, type Project } from "../api/projects";
import { branchPath, namedRefRequests, tagPath } from "../api/repository";
import { CURRENT_USER_PATH, userRequests, USERS_PATH, type User } from "../api/users";
import { ApiError, flagOff, missingOrHidden, NetworkError, type PlatformClient, type Query, roleNeeded, tierNeeded } from "../client";
import { applyAs, verifyAtPreview } from "./process-connections";
import type { EngineContext, Live } from "./definition";
import { warn } from "./engine-log";
import { ownerInWords, ROLE_LEVELS, topLevelNeeded, type Gate, type GroupObjectOwner, type Needs, type OwnerFacts, type RefNeed, type Role, type Room, type Rule, type Tier, type Uniqueness } from "../api/needs";
import { keepAnswer, readOnce, readsOf, type ServerReads as RunReads, type UserFacts } from "./run-caches";

/** What the check of one resource passes: its kind, what a create of it needs, and what it is about to do. */
export interface VerificationRequest {
  resource: string;
  needs: Needs;
  ctx: EngineContext;
  /**
   * A new object (create): everything is verified. An update of an existing one: the role, and the tier
   * when an input that needs it (`tierFor`) is among the `changed` properties.
   */
  creating: boolean;
  changed?: readonly string[];
  /** Uniqueness and room are skipped: the object is being taken over (it has its places), or some inputs are not known yet. */
  skipUniqueness: boolean;
  /** A replacement's create: the recorded inputs of the object it replaces, which the rules are told of. */
  replacing?: Readonly<Record<string, unknown>>;
}

/**
 * A check failure: the property is named in the reason and left empty here, as
 * every check failure of ours (the CLI prints a failure with a property as
 * "property group value {acme} has a problem: ...", naming it twice).
 */
export type Failure = { property: string; reason: string };

/** The check failures for what the server would refuse; none when verification is off or the server cannot be reached. */
export async function verify(request: VerificationRequest): Promise<Failure[]> {
  if (!verifyAtPreview()) return [];
  const reads = readsOf(request.ctx.client);
  if (reads.unreachable) return [];
  try {
    return (await unmetNeeds(request, reads)).map((failure) => ({ ...failure, reason: asApplyUser(failure.reason) }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      return [{ property: "", reason: error.message }];
    }
    if (reads.unreachable) return [];
    reads.unreachable = true;
    const reason = error instanceof NetworkError || error instanceof ApiError ? error.message : String(error);
    await warn(
      `The preview could not verify against the server what it would refuse (${reason}). ` +
        "Nothing more is verified in this run; the preview goes on. Set `platform:verifyAtPreview false` for previews without access to the server.",
    );
    return [];
  }
}

/** What the check of one existing object passes (a step diff sees): its needs for the operation, and its id. */
export interface ObjectVerification {
  resource: string;
  needs: Needs;
  ctx: EngineContext;
  id: string;
}

/**
 * The failures for what the server would refuse of a step on an existing
 * object: the role on its owner and, where the API lets only the object's
 * owner act, its ownership (read per object). None when verification is off
 * or the server cannot be reached.
 */
export async function verifyObject(request: ObjectVerification): Promise<string[]> {
  if (!verifyAtPreview() || request.needs.noRequest) return [];
  const reads = readsOf(request.ctx.client);
  if (reads.unreachable) return [];
  try {
    return (await unmetObjectNeeds(request, reads)).map(asApplyUser);
  } catch {
    // A fact the reads could not get is not judged: the step's own request will say.
    return [];
  }
}

/**
 * A step on an existing object that the server would refuse, in words: the
 * same wherever a step is verified (a replacement's delete in diff, a plain
 * delete in the review of the preview, src/review/verify-deletes.ts).
 */
export const refusedStep = (resource: string, action: string, failures: readonly string[]): string => `${resource}: could not ${action}: ${failures.join("; ")}`;

async function unmetObjectNeeds(request: ObjectVerification, reads: RunReads): Promise<string[]> {
  const { needs, ctx, resource, id } = request;
  const user = await verifiedUser(ctx, reads);
  if (!user) return [];
  const objectRules = (needs.rules ?? []).filter((rule) => rule.property === undefined);
  if (objectRules.length > 0) {
    const broken = await brokenRules(ctx, reads, user, objectRules, id);
    if (broken.length > 0) return broken;
  }
  if (needs.on.kind === "instance") return needs.role === "administrator" && !user.isAdmin && !user.applying?.adminUnknown ? [adminNeeded(user, resource)] : [];
  if (needs.on.kind === "described") return [];
  const located = await locateOwner({ resource, needs, ctx, creating: false, skipUniqueness: true }, reads, user);
  if ("refused" in located) return [`${needs.on.property}: ${located.refused}`];
  const { owner } = located;
  const missingRole = needs.role && needs.role !== "administrator" && !user.isAdmin ? await roleShortfall(ctx, reads, owner, user, needs.role, resource) : undefined;
  if (missingRole) return [`${needs.on.property}: ${missingRole}`];
  const ownership = needs.ownership;
  if (!ownership) return [];
  if (ownership.orRole && (user.isAdmin || ((await accessLevel(ctx, reads, owner, user, ROLE_LEVELS[ownership.orRole])) ?? 0) >= ROLE_LEVELS[ownership.orRole])) return [];
  const ownerName = await readOnce(reads, { read: "object owner", id }, () => ownership.ownerOf(ctx, id).catch(unlessRefused));
  if (ownerName === undefined || ownerName === user.username) return [];
  // An administrator may take any schedule over: not judged for an apply user who may be one.
  if (user.applying?.adminUnknown && ownership.orRole) return [];
  const whose = ownerName === null ? "nobody owns it" : `it belongs to ${ownerName}`;
  return [`${ownership.what} is not ${whoseWords(user)} (${user.username}): ${whose}, and the change needs ${needs.phrase ?? `ownership of ${ownership.what}`}`];
}

async function unmetNeeds(request: VerificationRequest, reads: RunReads): Promise<Failure[]> {
  const { needs, ctx, creating } = request;
  const user = await verifiedUser(ctx, reads);
  if (!user) return [{ property: "", reason: applyUserMissing() }];
  const inputRules = (needs.rules ?? []).filter((rule) => rule.property !== undefined && (creating || request.changed?.includes(rule.property)));
  const broken = inputRules.length > 0 ? (await brokenRules(ctx, reads, user, inputRules, undefined, request.replacing)).map((reason) => ({ property: "", reason })) : [];
  if (needs.on.kind === "instance") {
    if (needs.role === "administrator" && !user.isAdmin && !user.applying?.adminUnknown) return [{ property: "", reason: adminNeeded(user, request.resource) }];
    return [...broken, ...(await unmetLicenceGates(request, reads, user))];
  }
  if (needs.on.kind === "described") return broken;
  if (broken.length > 0) return broken;
  const { property } = needs.on;
  const located = await locateOwner(request, reads, user);
  if ("refused" in located) return [{ property: "", reason: `${property}: ${located.refused}` }];
  const { owner, shown } = located;
  const failures: Failure[] = [];
  const missingRole = needs.role && needs.role !== "administrator" && !user.isAdmin ? await roleShortfall(ctx, reads, owner, user, needs.role, request.resource) : undefined;
  if (missingRole) failures.push({ property: "", reason: `${property}: ${missingRole}` });
  failures.push(...(await unmetInputGates(request, reads, owner, user)));
  if (needs.target && failures.length === 0) {
    const { target } = needs;
    const there = await readOnce(reads, { read: "target", what: target.what }, () =>
      target.read(ctx).then(
        () => true,
        (error: unknown) => (error instanceof ApiError && error.status === 404 ? false : error instanceof ApiError && error.status < 500 ? undefined : Promise.reject(error)),
      ),
    );
    if (there === false) failures.push({ property: "", reason: `${target.property}: ${missingOrHidden(target.what, user.username)}` });
  }
  if (needs.refs && failures.length === 0 && owner.kind === "project") {
    for (const ref of needs.refs.filter((named) => creating || request.changed?.includes(named.property))) {
      const missing = await refShortfall(ctx, reads, owner, ref);
      if (missing) failures.push({ property: "", reason: `${ref.property}: ${missing}` });
    }
  }
  const tierInputChanged = needs.tierFor?.properties.some((name) => request.changed?.includes(name)) === true;
  if (!creating && !tierInputChanged) return failures;
  const missingTier = needs.tier && !shown.has("tier") ? await tierShortfall(ctx, reads, owner, user, needs.tier) : undefined;
  if (missingTier) {
    const [named, what] = needs.tierFor ? [needs.tierFor.properties.find((name) => request.changed?.includes(name)) ?? needs.tierFor.properties[0], needs.tierFor.what] : [property, request.resource];
    failures.push({ property: "", reason: `${named}: ${tierNeeded(needs.tier!, ownerName(owner), { purpose: what, shortfall: missingTier })}` });
  }
  // An existing object is no new one: its flag and uniqueness were verified when it was created.
  if (!creating) return failures;
  const off = needs.featureFlag && !shown.has("featureFlag") && user.isAdmin ? await flagShortfall(ctx, reads, owner, needs.featureFlag) : undefined;
  if (off) failures.push({ property: "", reason: `${property}: ${flagOff(needs.featureFlag!, off, request.resource)}` });
  // A create refused for its role, tier or flag needs no duplicate named too (and the list may be refused as well).
  if (needs.unique && !request.skipUniqueness && failures.length === 0) {
    const collision = await existingObject(ctx, reads, owner, needs.unique);
    if (collision) {
      failures.push({ property: "", reason: `${collision.what} already exists in ${owner.kind} ${owner.fullPath} (id ${collision.id}): adopt it with the import option (import: "${collision.id}") or remove it` });
    }
  }
  if (needs.room && !request.skipUniqueness && failures.length === 0) failures.push(...(await fullLists(ctx, reads, owner, needs.room)));
  return failures;
}

/**
 * The rules the server would hold broken, each `<property>: <reason>` (a rule of the
 * object names none). A rule whose reads fail is not judged: the step's own request will say.
 */
async function brokenRules(ctx: EngineContext, reads: RunReads, user: UserFacts, rules: readonly Rule[], id?: string, replacing?: Readonly<Record<string, unknown>>): Promise<string[]> {
  const shared = sharingReads(ctx);
  const facts = {
    username: user.username,
    userId: user.id,
    isAdmin: user.isAdmin,
    ...(id !== undefined ? { id } : {}),
    ...(replacing !== undefined ? { replacing } : {}),
    async roleShortfall(group: string | number, role: Role, purpose: string): Promise<string | undefined> {
      if (user.isAdmin) return undefined;
      const owner = await ownerFacts(ctx, reads, "group", group);
      return owner ? roleShortfall(ctx, reads, owner, user, role, purpose) : missingOrHidden(`group ${group}`, user.username);
    },
  };
  const reasons = await Promise.all(
    rules.map((rule) =>
      rule.judge(shared, facts).then(
        (reason) => (reason === undefined ? undefined : rule.property === undefined ? reason : `${rule.property}: ${reason}`),
        () => undefined,
      ),
    ),
  );
  return reasons.filter((reason): reason is string => reason !== undefined);
}

/**
 * A failure for each gated input this check sets (declared on a create,
 * changed on an update) whose need the server shows unmet: an administrator,
 * the tier, a top-level group (named by id: a subgroup's path already failed
 * `check`). The offering a setting needs (self-managed, hosted) is not read, so not judged.
 */
async function unmetInputGates(request: VerificationRequest, reads: RunReads, owner: OwnerFacts, user: UserFacts): Promise<Failure[]> {
  const gates = (request.needs.inputGates ?? []).filter((gate) => request.creating || request.changed?.includes(gate.property));
  const failures: Failure[] = [];
  for (const gate of gates) {
    if (gate.administrator && !user.isAdmin && !user.applying?.adminUnknown) failures.push({ property: "", reason: `${gate.property}: ${adminNeeded(user, "this setting")}` });
    if (gate.topLevel && owner.kind === "group" && owner.fullPath.includes("/")) failures.push({ property: "", reason: `${gate.property}: ${topLevelNeeded(ownerName(owner))}` });
    const missingTier = gate.tier ? await tierShortfall(request.ctx, reads, owner, user, gate.tier) : undefined;
    if (missingTier) {
      const reason = tierNeeded(gate.tier!, ownerName(owner), { purpose: "this setting", shortfall: missingTier });
      failures.push({ property: "", reason: `${gate.property}: ${reason}` });
    }
  }
  return failures;
}

/**
 * A failure for each instance-wide input this check sets whose licence the
 * instance lacks (an application setting's tier), judged on the licence an
 * administrator reads; nobody else may read it, so nothing else is judged.
 */
async function unmetLicenceGates(request: VerificationRequest, reads: RunReads, user: UserFacts): Promise<Failure[]> {
  const gates = (request.needs.inputGates ?? []).filter((gate) => gate.tier && (request.creating || request.changed?.includes(gate.property)));
  if (gates.length === 0 || !user.isAdmin) return [];
  const licensed = await licensedTier(request.ctx, reads);
  if (!licensed) return [];
  return gates
    .filter((gate) => TIER_RANK[licensed] < TIER_RANK[gate.tier!])
    .map((gate) => ({ property: "", reason: `${gate.property}: ${tierNeeded(gate.tier!, "the instance", { purpose: "this setting", shortfall: licenceShortfall(licensed) })}` }));
}

/**
 * Why the server would refuse the branch or tag a ref names, in words; undefined
 * when it is there or the server does not tell (a repository the token may not read).
 * A short name may be a branch or a tag, but not both: the server would not know which.
 */
async function refShortfall(ctx: EngineContext, reads: RunReads, owner: OwnerFacts, ref: RefNeed): Promise<string | undefined> {
  const full = /^refs\/(heads|tags)\/(.+)$/.exec(ref.name);
  const name = full ? full[2]! : ref.name;
  const kinds: ("branch" | "tag")[] = full ? [full[1] === "heads" ? "branch" : "tag"] : ref.kind === "branch" ? ["branch"] : ["branch", "tag"];
  const found = await Promise.all(kinds.map((kind) => refThere(ctx, reads, owner, kind, name)));
  if (found.includes(undefined)) return undefined;
  const there = kinds.filter((_, index) => found[index]);
  const project = ownerName(owner);
  if (there.length === 2) {
    return `${JSON.stringify(name)} is both a branch and a tag of ${project}, which the server refuses as ambiguous: name one in full (refs/heads/${name} or refs/tags/${name})`;
  }
  if (there.length === 1) return undefined;
  const what = kinds.length === 2 ? "branch or tag" : kinds[0]!;
  const existing = owner.defaultBranch ? `its default branch is ${owner.defaultBranch}` : "its repository has no branch yet";
  return `${project} has no ${what} ${JSON.stringify(name)} (${existing})`;
}

/** Whether a branch or tag is in the project's repository, once per run; undefined when the server does not say (not its 404 of the ref). */
function refThere(ctx: EngineContext, reads: RunReads, owner: OwnerFacts, kind: "branch" | "tag", name: string): Promise<boolean | undefined> {
  const path = kind === "branch" ? branchPath(owner.id, name) : tagPath(owner.id, name);
  const subject = kind === "branch" ? "Branch" : "Tag";
  return readOnce(reads, { read: "ref", owner: owner.apiPath, kind, name }, () =>
    namedRefRequests.get(ctx.client, path).then(
      () => true,
      (error: unknown) => (error instanceof ApiError && error.status === 404 && error.notFoundSubject === subject ? false : error instanceof ApiError && error.status < 500 ? undefined : Promise.reject(error)),
    ),
  );
}

/** A failure for each list the new object would join that is already full; a list that cannot be read is not judged (the create will say why). */
async function fullLists(ctx: EngineContext, reads: RunReads, owner: OwnerFacts, room: Room[]): Promise<Failure[]> {
  const failures: Failure[] = [];
  for (const list of room) {
    const objects = await listOnce(ctx, reads, owner, list);
    if (objects && objects.length >= list.max) {
      failures.push({
        property: "",
        reason: `${list.property}: ${list.holder} already holds ${objects.length} ${list.items}, the most it may hold; the server would refuse one more (remove one from it, or use another)`,
      });
    }
  }
  return failures;
}

/** One read per list, owner and run, shared by uniqueness and room; undefined when the server refuses it (< 500). */
function listOnce(ctx: EngineContext, reads: RunReads, owner: OwnerFacts, list: Pick<Uniqueness, "list" | "read">): Promise<Live[] | undefined> {
  return readOnce(reads, { read: "list", list: list.list, owner: owner.apiPath }, () =>
    list.read(ctx, owner).catch((error: unknown) => (error instanceof ApiError && error.status < 500 ? undefined : Promise.reject(error))),
  );
}

/** The owner as the server shows it, and the needs its read already showed met; or why it cannot be read, in words. */
async function locateOwner(request: VerificationRequest, reads: RunReads, user: UserFacts): Promise<{ owner: OwnerFacts; shown: Set<Gate> } | { refused: string }> {
  const { ctx, needs } = request;
  const declared = needs.on as Exclude<Needs["on"], { kind: "instance" | "described" }>;
  if (declared.kind !== "group object") {
    const owner = await ownerFacts(ctx, reads, declared.kind, declared.ref);
    return owner ? { owner, shown: new Set() } : { refused: missingOrHidden(ownerInWords(declared), user.username) };
  }
  const object = await readOnce(reads, { read: "object", path: declared.path }, () =>
    declared.groupOf(ctx).then(
      (groupId) => ({ groupId }),
      (error: unknown) => (error instanceof ApiError && [401, 403, 404].includes(error.status) ? { error } : Promise.reject(error)),
    ),
  );
  if ("error" in object) return { refused: objectRefusal(request, user, declared, object.error) };
  const owner = await ownerFacts(ctx, reads, "group", object.groupId);
  if (!owner) return { refused: missingOrHidden(`the group of ${declared.what} (id ${object.groupId})`, user.username) };
  return { owner, shown: new Set(Object.values(declared.refusedWith ?? {}).flat()) };
}

/** What a refused read of the owning object means, in words (the token was accepted: `GET /user` answered). */
function objectRefusal(request: VerificationRequest, user: UserFacts, owner: GroupObjectOwner, error: ApiError): string {
  const { needs, resource } = request;
  const status = error.status;
  const means = owner.refusedWith?.[status as 401 | 404] ?? [];
  if (status === 401 && means.includes("featureFlag") && needs.featureFlag) {
    return flagOff(needs.featureFlag, `for the group of ${owner.what} (the server answers 401)`, resource);
  }
  if (status === 401) throw error; // the token after all: verify says so
  if (status === 403) {
    const group = `the group of ${owner.what}`;
    return needs.role
      ? `${roleNeeded(needs.role, group, { username: user.username, purpose: resource })} (the server refuses to show it)`
      : `the token's user (${user.username}) is not a member of ${group} (the server refuses to show it)`;
  }
  if (!(means.includes("tier") && needs.tier)) return `${owner.what} does not exist`;
  const tier = tierNeeded(needs.tier, "its group", { purpose: resource, shortfall: "may be below it" });
  return `${owner.what} does not exist, or ${tier} (the server answers 404 to both)`;
}

/** The object a new one would collide with; undefined also when the list is refused (the create will say why). */
async function existingObject(ctx: EngineContext, reads: RunReads, owner: OwnerFacts, unique: Uniqueness): Promise<ReturnType<Uniqueness["find"]>> {
  const objects = await listOnce(ctx, reads, owner, unique);
  return objects ? unique.find(objects, owner) : undefined;
}

function userFacts(user: User): UserFacts {
  return { id: user.id, username: user.username, isAdmin: user.is_admin === true };
}

/**
 * The user each step is verified as: the apply identity where
 * `platform:applyAs` names one other than the token's user (a preview's read
 * token: the steps are the apply's), read once (`GET /users?username=`);
 * else the token's user. Undefined when no user has that name.
 */
async function verifiedUser(ctx: EngineContext, reads: RunReads): Promise<UserFacts | undefined> {
  const reader = await tokenUser(ctx, reads);
  const name = applyAs();
  if (name === undefined || name === reader.username) return reader;
  return readOnce(reads, { read: "apply user", username: name }, async () => {
    const found = (await userRequests.getAll(ctx.client, USERS_PATH, { username: name })).find((user) => user.username === name);
    if (!found) return undefined;
    // Only an administrator's reads show whether a user is one.
    const adminUnknown = !reader.isAdmin || found.is_admin === undefined;
    return { id: found.id, username: found.username, isAdmin: found.is_admin === true, applying: { adminUnknown } };
  });
}

const applyUserMissing = () => `platform:applyAs (or PLATFORM_APPLY_AS): no user ${JSON.stringify(applyAs())} exists, or the token's user cannot see it; name the user whose token applies the program`;

/** A failure's words for the apply identity, where `platform:applyAs` names it: the steps are verified as that user, not the token's. */
function asApplyUser(reason: string): string {
  const name = applyAs();
  return name === undefined ? reason : reason.replaceAll(`the token's user (${name}`, `the apply user (${name}`);
}

/** Whose the verified user is, in words: the token's, or the apply identity's. */
const whoseWords = (user: UserFacts) => (user.applying ? "the apply user's" : "the token's user's");

/** The token's user (`GET /user`), once per run. */
export function tokenUser(ctx: EngineContext, reads: RunReads): Promise<UserFacts> {
  return readOnce(reads, { read: "user" }, () => userRequests.get(ctx.client, CURRENT_USER_PATH).then(userFacts));
}

/**
 * The owner, or undefined when the server says it does not exist (or hides it).
 * Kept under its id too, so an owner named by path and found again by id (the
 * group of a virtual registry) is read once.
 */
export function ownerFacts(ctx: EngineContext, reads: RunReads, kind: "group" | "project", ref: string | number): Promise<OwnerFacts | undefined> {
  return readOnce(reads, { read: "owner", kind, ref }, async () => {
    const { client } = sharingReads(ctx);
    try {
      const facts: OwnerFacts =
        kind === "group"
          ? await groupRequests.get(client, groupPath(ref), { with_projects: false }).then((group) => ({ kind, id: group.id, fullPath: group.full_path, apiPath: groupPath(group.id) }))
          : await projectRequests.get(client, projectPath(ref)).then((project) => ({
              kind,
              id: project.id,
              fullPath: project.path_with_namespace,
              apiPath: projectPath(project.id),
              accessLevel: projectAccessLevel(project),
              ...(project.default_branch ? { defaultBranch: project.default_branch } : {}),
            }));
      keepAnswer(reads, { read: "owner", kind, ref: facts.id }, facts);
      return facts;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
  });
}

/**
 * The context with its client answering each GET once per path, query and
 * run (and server): what the preview reads of an owner, and what a settings
 * resource's check reads of the same object (a group's settings are the
 * group), is one request. For the preview's reads only: an operation reads
 * the server as it is then.
 */
export function sharingReads(ctx: EngineContext): EngineContext {
  const reads = readsOf(ctx.client);
  const client = Object.create(ctx.client) as PlatformClient;
  client.get = <T>(path: string, query?: Query): Promise<T> =>
    readOnce(reads, { read: "answer", request: `${path}?${JSON.stringify(query ?? {})}` }, () => ctx.client.get<unknown>(path, query)) as Promise<T>;
  return { client };
}

/**
 * The full path of a group or project, as the run's one read of that owner
 * shows it (shared with the checks); undefined when verification is off, the
 * server cannot be reached, or it does not show the owner.
 */
export async function ownerPathAtPreview(ctx: EngineContext, kind: "group" | "project", ref: string | number): Promise<string | undefined> {
  if (!verifyAtPreview()) return undefined;
  const reads = readsOf(ctx.client);
  if (reads.unreachable) return undefined;
  try {
    return (await ownerFacts(ctx, reads, kind, ref))?.fullPath;
  } catch {
    // What the read could not tell is no refusal: the report names the owner as the program does.
    return undefined;
  }
}

/** How the user falls short of `role` on the owner, in words; undefined when they do not. */
async function roleShortfall(ctx: EngineContext, reads: RunReads, owner: OwnerFacts, user: UserFacts, role: Role, resource: string): Promise<string | undefined> {
  const level = await accessLevel(ctx, reads, owner, user, ROLE_LEVELS[role]);
  if (level === undefined || level >= ROLE_LEVELS[role] || user.applying?.adminUnknown) return undefined;
  const has = (Object.keys(ROLE_LEVELS) as Role[]).filter((candidate) => ROLE_LEVELS[candidate] <= level).pop();
  return roleNeeded(role, ownerName(owner), { username: user.username, has, purpose: resource });
}

/** What an instance-wide need of an administrator reads as, for a user who is not one. */
const adminNeeded = (user: UserFacts, purpose: string): string =>
  roleNeeded("administrator", "the instance", { username: user.username, has: "a regular user", purpose });

/** The higher of the project's and its group's membership, from `permissions` (`Entities::ProjectWithAccess`). */
function projectAccessLevel(project: Project): number {
  const permissions = project.permissions;
  return Math.max(0, permissions?.project_access?.access_level ?? 0, permissions?.group_access?.access_level ?? 0);
}

/**
 * The user's effective access level, as far as it matters for `needed`: a
 * project's answer shows its direct and inherited roles, enough when they
 * reach `needed`; otherwise (and for a group) the member read, once per owner,
 * which counts shares too. Undefined when the server will not tell.
 */
export async function accessLevel(ctx: EngineContext, reads: RunReads, owner: OwnerFacts, user: UserFacts, needed: number): Promise<number | undefined> {
  // A project's `permissions` are the reader's own: an apply user's role is read by member.
  const shown = user.applying ? undefined : owner.accessLevel;
  if (shown !== undefined && shown >= needed) return shown;
  return readOnce(reads, { read: "role", owner: `${owner.apiPath} ${user.id}` }, async () => {
    try {
      const member = await memberRequests.get(ctx.client, effectiveMemberPath(owner.apiPath, user.id));
      return member.access_level;
    } catch (error) {
      // A 404 naming nothing is the server saying the user has no role there; any other refusal tells nothing.
      if (isNoMembership(error)) return shown ?? 0;
      if (error instanceof ApiError && (error.status === 403 || error.status === 404)) return undefined;
      throw error;
    }
  });
}

const TIER_NAMES: Record<Tier | "free", string> = { free: "Free", premium: "Premium", ultimate: "Ultimate" };
const TIER_RANK: Record<Tier | "free", number> = { free: 0, premium: 1, ultimate: 2 };

/** Plans as real servers name them (current, legacy and trial names) by the tier they give; others are not judged. */
function tierOfPlan(plan: string | undefined): Tier | "free" | undefined {
  if (!plan) return undefined;
  if (["ultimate", "gold", "ultimate_trial", "ultimate_trial_paid_customer", "opensource", "ultimate_paid_customer"].includes(plan)) return "ultimate";
  if (["premium", "silver", "bronze", "premium_trial"].includes(plan)) return "premium";
  return plan === "free" ? "free" : undefined;
}

/** How the owner falls short of `tier`, in words; undefined when it does not, or when nobody here may read the tier. */
export async function tierShortfall(ctx: EngineContext, reads: RunReads, owner: OwnerFacts, user: UserFacts, tier: Tier): Promise<string | undefined> {
  return (await tierStanding(ctx, reads, owner, user, tier)).shortfall;
}

/** The owner's tier against `tier`: how it falls short, and whether the server told it at all. */
export async function tierStanding(ctx: EngineContext, reads: RunReads, owner: OwnerFacts, user: UserFacts, tier: Tier): Promise<{ shortfall?: string; known: boolean }> {
  const topLevel = topLevelPath(owner);
  const plan = await readOnce(reads, { read: "plan", namespace: topLevel }, () =>
    namespaceRequests.get(ctx.client, namespacePath(topLevel)).then((namespace) => namespace.plan ?? undefined, unlessRefused),
  );
  const fromNamespace = tierOfPlan(plan);
  const which = topLevel === owner.fullPath ? "it" : `group ${topLevel}`;
  if (fromNamespace) return TIER_RANK[fromNamespace] < TIER_RANK[tier] ? { shortfall: `${which} is on ${TIER_NAMES[fromNamespace]}`, known: true } : { known: true };
  if (!user.isAdmin) return { known: false };
  // No licence (`null`) or none readable: not judged.
  const licensed = await licensedTier(ctx, reads);
  if (!licensed) return { known: false };
  return TIER_RANK[licensed] < TIER_RANK[tier] ? { shortfall: licenceShortfall(licensed), known: true } : { known: true };
}

/** The tier of the instance's licence (`GET /license`, administrators only, once per run); undefined when there is none or it cannot be read. */
async function licensedTier(ctx: EngineContext, reads: RunReads): Promise<Tier | "free" | undefined> {
  return tierOfPlan(
    await readOnce(reads, { read: "license" }, () => licenseRequests.get(ctx.client, LICENSE_PATH).then((license) => license?.plan ?? undefined, unlessRefused)),
  );
}

const licenceShortfall = (licensed: Tier | "free"): string => `the instance is licensed for ${TIER_NAMES[licensed]}`;

/** The owner as messages name it: `group acme`, `project acme/web`. */
export const ownerName = (owner: OwnerFacts): string => `${owner.kind} ${owner.fullPath}`;

function topLevelPath(owner: OwnerFacts): string {
  return owner.fullPath.split("/")[0]!;
}

/** Where the flag is off, in words (`for group acme`); undefined when it is on there, or when the server does not tell. */
export async function flagShortfall(ctx: EngineContext, reads: RunReads, owner: OwnerFacts, name: string): Promise<string | undefined> {
  const flags = await readOnce(reads, { read: "features" }, () => featureFlagRequests.getAll(ctx.client, FEATURES_PATH).catch(unlessRefused));
  if (!flags) return untoldFlag(reads, name, "GET /features was refused");
  const where = `for group ${topLevelPath(owner)}`;
  const flag = flags.find((candidate) => candidate.name === name);
  if (!flag) return defaultShortfall(ctx, reads, name, where);
  if (flag.state !== "conditional") return flag.state === "on" ? undefined : where;
  const gates = flag.gates ?? [];
  const actors = gates.find((gate) => gate.key === "actors")?.value;
  const topLevel = await ownerFacts(ctx, reads, "group", topLevelPath(owner));
  if (topLevel && Array.isArray(actors) && actors.map(String).includes(`Group:${topLevel.id}`)) return undefined;
  // A percentage or a feature group may enable it for this group too: the gates do not say it is off.
  const otherGates = gates.filter((gate) => !["boolean", "actors"].includes(gate.key) && !isClosedGate(gate.value));
  return otherGates.length ? untoldFlag(reads, name, `it is enabled by ${otherGates.map((gate) => gate.key).join(", ")}`) : where;
}

/** A flag never set runs on its definition's default; a flag with no definition was removed (generally available) or never existed. */
async function defaultShortfall(ctx: EngineContext, reads: RunReads, name: string, where: string): Promise<string | undefined> {
  const definitions = await readOnce(reads, { read: "definitions" }, () => featureDefinitionRequests.getAll(ctx.client, FEATURE_DEFINITIONS_PATH).catch(unlessRefused));
  if (!definitions) return untoldFlag(reads, name, "it is not set, and GET /features/definitions was refused");
  const definition = definitions.find((candidate) => candidate.name === name);
  if (definition?.default_enabled === false) return `${where} (never set, and off by default)`;
  if (definition?.default_enabled === true) return undefined;
  return untoldFlag(reads, name, "the server neither lists nor defines it, as when a flag is removed once its feature is generally available");
}

function isClosedGate(value: unknown): boolean {
  return value === false || value === null || value === 0 || value === "0" || (Array.isArray(value) && value.length === 0);
}

/** Nothing told, where the server refuses a read (a plan hidden from a non-Owner; an older server or a narrower token for the flags). */
function unlessRefused(error: unknown): Promise<undefined> {
  return error instanceof ApiError && (error.status === 403 || error.status === 404) ? Promise.resolve(undefined) : Promise.reject(error);
}

/** A flag the reads could not tell: said once per flag and run, and not judged. */
async function untoldFlag(reads: RunReads, name: string, why: string): Promise<undefined> {
  await readOnce(reads, { read: "untold flag", flag: name }, () =>
    warn(`The preview could not tell whether feature flag ${name} is on (${why}); it goes on, and \`pulumi up\` will show the server's answer.`),
  );
  return undefined;
}
