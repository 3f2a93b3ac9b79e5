/**
 * SamlIdentity: the identity provider's id (`extern_uid`, the SAML NameID) of
 * a member's existing SAML identity in a group. Hosted offering, Premium and Ultimate, the Owner role.
 *
 * The identity provider creates identities (a member's first SAML sign-in, or
 * SCIM); this resource never does. It takes over one that exists and manages
 * its `extern_uid`, the way a settings resource manages settings:
 * - create finds the member's identity, records its `extern_uid` as the prior
 *   value (`restoreValues`) and PATCHes the declared one (nothing when equal);
 * - update PATCHes; refresh re-reads; a changed `group` or `user` replaces;
 * - delete gives the prior `extern_uid` back, or, with
 *   `deleteIdentityOnDestroy: true`, DELETEs the identity (the member must
 *   then sign in with SAML again to get a new one).
 *
 * Why not a settings resource (../engine/settings.ts): its delete can only
 * write the prior values back, and `deleteIdentityOnDestroy` needs a delete
 * that removes the object. So this is a plain resource whose hooks keep the
 * prior value the settings way (`restoreValues`, which a refresh keeps).
 *
 * The identity's address is its current uid (`/groups/:id/saml/:uid`), which
 * a PATCH changes. The resource id is the group and the user id instead
 * (`groups/acme/saml/users/4`), and the identity is found by its `user_id`.
 * `user` is a username (one `GET /users?username=` to learn the id) or the
 * numeric user id (no lookup).
 *
 * Real servers answer 403 below Owner, 400
 * `400 Bad request` to the list where the group has no SAML provider (not
 * configured, a subgroup, the Free tier, or a self-managed instance, where the
 * users API manages identities), and 404 `404 Identity Not Found` for an
 * unknown uid; the errors here say which it is.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ownerInput } from "./common";
import { field } from "../api/fields";
import { ApiError, mayHaveBeenApplied, type PlatformClient } from "../client";
import { countDeclaration, declarationKey } from "../engine/declarations";
import { defineObjectResource, type EngineContext } from "../engine/definition";
import { ExplainedError, PartialCreateError } from "../engine/errors";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { ownerReference } from "../api/owner";
import { USERS_PATH, userRequests } from "../api/users";
import { probeGroup, samlIdentitiesPath, samlIdentityRequests, samlIdentityPath as identityPath, whyNoSamlProvider, type SamlIdentity as SamlIdentityApi, samlIdentityIdForm } from "../api/saml";
import { onGroup } from "../api/needs";
import { notDotSegments } from "../validation";
import { parsedId } from "../api/id-form";

/** The identity, with the prior `extern_uid` this provider recorded (not an API field). */
type SamlIdentityLive = SamlIdentityApi & {
  restore_values?: Record<string, unknown>;
};

const USERNAME = /^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/;
const USER_RULE = "must be a username (alice) or a numeric user id";

const schema = z.object({
  /** The top-level group whose SAML SSO the identity belongs to (numeric id or full path). */
  group: ownerInput(ownerReference),
  /** The member: a username, or the numeric user id (which saves a lookup). */
  user: ownerInput(
    z.union([z.number().int({ message: USER_RULE }).positive({ message: USER_RULE }), z.string().max(255, { message: USER_RULE }).regex(USERNAME, { message: USER_RULE })], {
      error: (issue) => (issue.input === undefined ? `is required: ${USER_RULE}` : USER_RULE),
    }),
  ),
  /** The identity provider's id for the member (the SAML NameID). */
  externUid: z
    .string()
    .refine((uid) => uid.trim() !== "", { message: "must not be empty: the server refuses a blank SAML NameID" })
    .refine((uid) => uid.trim() === uid, { message: "must not start or end with spaces" })
    // The API addresses an identity by its uid in the path, where a slash cannot travel.
    .refine((uid) => !uid.includes("/"), { message: "must not contain a slash: the API addresses the identity by its extern_uid in the path" })
    .refine(...notDotSegments),
  /**
   * On destroy, delete the identity itself instead of giving the prior
   * `extern_uid` back (default false). The member must then sign in with SAML again.
   */
  deleteIdentityOnDestroy: field(z.boolean().optional(), { local: true }),
});

type Inputs = z.output<typeof schema>;

/** `groups/<group as declared, encoded>/saml/users/<user id>`. */
function parseId(id: string): { group: string; userId: number } {
  return parsedId("SamlIdentity", samlIdentityIdForm, id);
}

const idOf = (group: string | number, userId: number) => `groups/${encodeURIComponent(String(group))}/saml/users/${userId}`;
const isIdentityNotFound = (error: unknown) => error instanceof ApiError && error.status === 404 && error.notFoundSubject === "Identity";

async function userIdOf(ctx: EngineContext, user: string | number): Promise<number> {
  if (typeof user === "number") return user;
  const found = await userRequests.getAll(ctx.client, USERS_PATH, { username: user });
  const match = found.find((candidate) => candidate.username.toLowerCase() === user.toLowerCase());
  if (!match) throw new ExplainedError(`SamlIdentity: user: there is no user named ${user} (GET /users?username=${user} found none).`);
  return match.id;
}

/** The identity at `uid`, or undefined when no identity has it (404); any other failure is thrown. */
async function identityAt(client: PlatformClient, group: string | number, uid: string): Promise<SamlIdentityApi | undefined> {
  try {
    return await samlIdentityRequests.get(client, identityPath(group, uid));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

/** The member's identity in the group, found by user id (reading no more pages than needed); undefined when there is none. */
async function identityOfUser(ctx: EngineContext, group: string | number, userId: number): Promise<SamlIdentityApi | undefined> {
  try {
    return await samlIdentityRequests.find(ctx.client, samlIdentitiesPath(group), undefined, (identity) => identity.user_id === userId);
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      throw new ExplainedError(`SamlIdentity: ${error.method} ${error.path} failed with 400 (${error.serverMessage}): ${whyNoSamlProvider(group, await probeGroup(ctx.client, group))}`);
    }
    throw error;
  }
}

/**
 * PATCHes the identity found at `currentUid` to `wanted`. The identity moves
 * with its uid, so when the old address answers 404 (the client's retry of a
 * PATCH whose answer was lost, or a uid changed out of band) or the answer was
 * lost, the identity is found again by user: already `wanted` means done;
 * another uid means it moved, and it is PATCHed at its address once more.
 * Undefined when the identity no longer exists.
 */
async function patchExternUid(ctx: EngineContext, group: string | number, userId: number, currentUid: string, wanted: string): Promise<SamlIdentityApi | undefined> {
  const patch = (uid: string) => samlIdentityRequests.patch(ctx.client, identityPath(group, uid), { extern_uid: wanted });
  try {
    return await patch(currentUid);
  } catch (error) {
    if (error instanceof ApiError && error.status === 400 && /already been taken/i.test(error.serverMessage)) {
      throw new ExplainedError(
        `SamlIdentity: extern_uid "${wanted}" already belongs to another member's identity in group ${group} (the server said: ${error.serverMessage}). ` +
          "Each extern_uid names one member; give this member another one, or change the other identity first.",
      );
    }
    if (!isIdentityNotFound(error) && !mayHaveBeenApplied(error)) throw error;
    const now = await identityOfUser(ctx, group, userId);
    if (now === undefined || now.extern_uid === wanted) return now;
    if (isIdentityNotFound(error) && now.extern_uid !== currentUid) return patch(now.extern_uid);
    throw error;
  }
}

const priorOf = (props: Record<string, unknown>): string | undefined => {
  const recorded = props.restoreValues as Record<string, unknown> | undefined;
  return typeof recorded?.externUid === "string" ? recorded.externUid : undefined;
};

async function createIdentity(ctx: EngineContext, args: Inputs): Promise<{ id: string; live: SamlIdentityLive }> {
  const userId = await userIdOf(ctx, args.user);
  const identity = await identityOfUser(ctx, args.group, userId);
  if (!identity) {
    throw new ExplainedError(
      `SamlIdentity: user ${args.user} has no SAML identity in group ${args.group}: the member has not signed in with SAML yet (or is not a member). ` +
        "The identity provider creates identities at the first SAML sign-in; this resource only manages the extern_uid of an existing one.",
    );
  }
  const id = idOf(args.group, userId);
  const restore_values = { externUid: identity.extern_uid };
  if (identity.extern_uid === args.externUid) return { id, live: { ...identity, restore_values } };
  try {
    const live = await patchExternUid(ctx, args.group, userId, identity.extern_uid, args.externUid);
    if (!live) throw new ExplainedError(`SamlIdentity: the identity of user ${args.user} in group ${args.group} was deleted while it was being updated.`);
    return { id, live: { ...live, restore_values } };
  } catch (error) {
    // A PATCH whose outcome is unknown may have applied: the prior uid is recorded now, or the next `up`
    // would read the new uid as the prior one and destroy could never give the old one back.
    if (!mayHaveBeenApplied(error)) throw error;
    throw PartialCreateError.fromLive(
      `${(error as Error).message} The extern_uid may have been written all the same; the prior one is recorded, and the next \`pulumi up\` writes the declared one again.`,
      id,
      { ...identity, restore_values },
    );
  }
}

async function deleteOrRestore(ctx: EngineContext, id: string, props: Inputs & Record<string, unknown>): Promise<void> {
  const { group, userId } = parseId(id);
  if (props.deleteIdentityOnDestroy === true) {
    try {
      await ctx.client.delete(identityPath(group, props.externUid));
    } catch (error) {
      if (!isIdentityNotFound(error)) throw error;
      // Its uid changed since the last refresh: found by user, deleted at its address.
      const now = await identityOfUser(ctx, group, userId);
      if (now) await ctx.client.delete(identityPath(group, now.extern_uid));
    }
    return;
  }
  const prior = priorOf(props);
  if (prior === undefined || prior === props.externUid) return;
  await patchExternUid(ctx, group, userId, props.externUid, prior);
}

export const samlIdentityDefinition = defineObjectResource({
  name: "SamlIdentity",
  words: { noun: "SAML identity" },
  imported: {
    word: "saml-identity",
    listed: "SAML identities",
    // The members' identities of a top-level group (hosted offering, Premium): each member's extern UID.
    on: ["top-level group"],
    async find({ ctx, owner }) {
      const identities = await samlIdentityRequests.list(ctx.client, samlIdentitiesPath(owner.id));
      return {
        found: identities
          .sort((a, b) => a.user_id - b.user_id)
          .map((identity) => ({ importId: idOf(owner.id, identity.user_id), name: `user-${identity.user_id}`, live: identity, address: { group: owner.id, user: identity.user_id } })),
      };
    },
  },
  idForm: samlIdentityIdForm,
  notFoundSubject: "Identity",
  schema,
  outputs: {
    /** The member's numeric user id. */
    userId: { value: (live: SamlIdentityLive) => live.user_id, fromId: (id) => Number(id.split("/").at(-1)) },
    /** The `extern_uid` the identity had before the first apply, given back on destroy: `{ externUid }`. */
    restoreValues: (live: SamlIdentityLive) => live.restore_values ?? {},
  },
  // admin_group: the Owner role; group SAML exists on Premium and Ultimate (hosted offering).
  needs: (args) => ({ on: onGroup(args.group), role: "Owner", tier: "premium" }),

  create: createIdentity,
  // `import` runs create, which records the prior extern_uid, once the id is known to name the declared member.
  importByCreating: async (ctx, args) => idOf(args.group, await userIdOf(ctx, args.user)),

  async read(ctx, id, args) {
    const { group, userId } = parseId(id);
    // The prior value is kept by the engine from the recorded state (restoreValues).
    // One GET at the recorded uid, the bare request's size however many members the group has; the
    // list, searched by user, only when that uid is unknown (an import) or no longer this member's.
    const atRecordedUid = args.externUid === undefined ? undefined : await identityAt(ctx.client, group, args.externUid);
    return atRecordedUid?.user_id === userId ? atRecordedUid : identityOfUser(ctx, group, userId);
  },

  async update(ctx, id, args, changed, olds) {
    const { group, userId } = parseId(id);
    const restore_values = (olds as Record<string, unknown>).restoreValues as Record<string, unknown> | undefined;
    // Only deleteIdentityOnDestroy changed: nothing to send.
    if (!changed.has("externUid")) return { extern_uid: olds.externUid, user_id: userId, restore_values };
    const live = await patchExternUid(ctx, group, userId, olds.externUid, args.externUid);
    if (!live) {
      throw new ExplainedError(
        `SamlIdentity: user ${args.user} no longer has a SAML identity in group ${args.group} (deleted, or the member left). ` +
          "Run `pulumi refresh` to drop this resource; it comes back once the member signs in with SAML again.",
      );
    }
    return { ...live, restore_values };
  },

  delete: deleteOrRestore,
});

export type SamlIdentityArgs = ResourceArgs<typeof schema>;

/**
 * The `extern_uid` (SAML NameID) of a member's existing SAML identity in a
 * top-level group (hosted offering, Premium or Ultimate; the Owner role).
 * Destroy gives the prior value back, or deletes the identity with
 * `deleteIdentityOnDestroy: true`.
 *
 * ```ts
 * new SamlIdentity("alice", { group: "acme", user: "alice", externUid: "alice@idp.example" });
 * ```
 */
export interface SamlIdentity extends ResourceOutputs<typeof samlIdentityDefinition> {}
export class SamlIdentity extends PlatformResource {
  static {
    ofKind(this, samlIdentityDefinition);
  }
  constructor(name: string, args: SamlIdentityArgs, opts?: pulumi.CustomResourceOptions) {
    // Two declarations for one member's identity would overwrite each other on every up.
    const group = declarationKey(args.group, args.connection);
    const user = declarationKey(args.user);
    if (typeof group !== "object" && typeof user !== "object") {
      countDeclaration(
        "saml-identity-per-member",
        group === undefined || user === undefined ? undefined : `${String(group)}\n${String(user)}`,
        1,
        () => `SamlIdentity ${name}: user: the program declares a second SAML identity for ${String(args.user)} in group ${String(args.group)}; a member has one.`,
      );
    }
    super(name, args, opts);
  }
}
