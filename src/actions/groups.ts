/**
 * Groups: start a directory (LDAP) sync, and revoke a token that reaches a
 * group (the credentials inventory's revoke).
 *
 * Revocation is for incidents, a function and a one-line script
 * (docs/actions.md), never a resource: the token to revoke is secret, so it
 * is masked in every message and never sent but in the request's body.
 */
import { z } from "zod";
import { tierNeeded } from "../client";
import { groupLdapSyncPath, groupTokenRevocationPath } from "../api/groups";
import { ownerReference } from "../api/owner";
import { defineAction, groupNeeds } from "./core";

const group = ownerReference;

/**
 * Queues a sync of the group's members with its linked LDAP groups
 * (self-managed, Premium or Ultimate). A group already waiting for its sync
 * keeps the one queued. Answers when it was accepted.
 *
 * ```ts
 * await startLdapGroupSync({ group: "acme" });
 * ```
 */
export const startLdapGroupSync = defineAction({
  name: "startLdapGroupSync",
  verb: "start the LDAP sync of",
  args: z.object({ /** The group (id or full path). */ group }),
  subject: (args) => `group ${args.group}`,
  needs: groupNeeds("Owner"),
  refusals: {
    404: () =>
      `LDAP group sync exists only on a self-managed instance with LDAP configured, and ${tierNeeded("premium", "the instance")} (the server answers an unnamed 404 elsewhere); otherwise check the group.`,
  },
  async run(call, args) {
    await call.client.post<unknown>(groupLdapSyncPath(args.group), {});
    return { accepted: true as const };
  },
});

const tokenAnswer = z.looseObject({ id: z.number() });

/**
 * Revokes a token that reaches a top-level group: a personal, group or
 * project access token of one of its members (direct membership in the
 * group, a subgroup or one of their projects), a group deploy token, or a
 * user's feed token (which is rotated). Answers the token's record (never
 * the token itself): id, name and `revoked`, or for a feed token its user.
 *
 * ```sh
 * LEAKED='glpat-...' node -e 'require("pulumi-platform").revokeToken({ group: "acme", token: process.env.LEAKED }).then(console.log)'
 * ```
 */
export const revokeToken = defineAction({
  name: "revokeToken",
  verb: "revoke a token of",
  args: z.object({
    /** The top-level group the token reaches (id or full path). */
    group,
    /** The token itself, in plain text (a leaked `glpat-...`, `gldt-...` or `glft-...`). Masked in every message. */
    token: z.string().min(1).regex(/^\S+$/, { message: "must be the token itself, without spaces" }),
  }),
  secretArgs: ["token"],
  subject: (args) => `group ${args.group}`,
  needs: groupNeeds("Owner"),
  refusals: {
    400: () => "Tokens are revoked through a top-level group: give the top-level group the token reaches.",
    404: () =>
      "The group's token revocation is behind the feature flag group_agnostic_token_revocation (an unnamed 404 when it is off); otherwise check the group.",
    422: () =>
      "The server did not revoke it, and does not say why: it revokes only an active or already revoked personal, group or project access token of a member of the group, " +
      "a deploy token of the group or a subgroup, or a member's feed token. An expired token, another group's, a project's deploy token or an unknown one are all refused so.",
  },
  async run(call, args) {
    return call.checked(tokenAnswer, await call.client.post<unknown>(groupTokenRevocationPath(args.group), { token: args.token }));
  },
});
