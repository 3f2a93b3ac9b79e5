/**
 * The generic part of GroupShare and ProjectShare: a group invited into a
 * group or a project, whose members get their role there, at most
 * `groupAccess`. The REST API has no update of a share: every change makes a
 * new one (a replacement, the old one removed first: one share per group).
 */
import { z } from "zod";
import { field } from "../api/fields";
import { parsedId } from "../api/id-form";
import { isoDate, levelOf, memberAccessLevel, type MemberRoleName } from "../api/members";
import { ownerReference, type OwnerKind } from "../api/owner";
import { createShare, groupShareIdForm, projectShareIdForm, sharedGroupId, shareId, shareNeeds, shareOwnerPath, sharePath, sharesOf, type Share } from "../api/sharing";
import { defineObjectResource, named, type ObjectName, type StepWords } from "../engine/definition";
import { idPair, wholeNumber, type TerraformTarget } from "../engine/estate";
import { requestBody, UNKNOWN } from "../engine/values";
import { ownerInput } from "./common";
import { roleInWords, untilInWords } from "./membership";

const shareFields = {
  /** The group invited (id or full path): its members, direct and inherited, get their role here, at most `groupAccess`. */
  sharedWith: field(ownerReference, { local: true, names: "group" }),
  /** The most the share gives: `guest` ... `owner`, or the access level (10 to 50). */
  groupAccess: field(memberAccessLevel, {
    fromApi: (live) => live.group_access_level,
    toApi: (value, body) => {
      body.group_access = levelOf(value as MemberRoleName | number);
    },
    sameValue: (declared, live) => levelOf(declared as MemberRoleName | number) === live,
  }),
  /** The day the share ends (`YYYY-MM-DD`); none: it never ends. */
  expiresAt: field(isoDate.optional(), {}),
};

type Inputs = { sharedWith: string | number; groupAccess: MemberRoleName | number; expiresAt?: string };

const known = (value: unknown): value is string | number => value !== undefined && value !== UNKNOWN;

/**
 * "gives the members of group beta up to Reporter on project acme/api, was
 * Guest"; a removal: "takes ... away"; another group: the one's members lose
 * what the other's gain.
 */
export const shareWords: StepWords = ({ before, after, owner }) => {
  const groupOf = (inputs: Record<string, unknown>) => (known(inputs.sharedWith) ? `group ${named(inputs.sharedWith)}` : "a group known at apply");
  const roleOf = (inputs: Record<string, unknown>) => roleInWords(inputs.groupAccess) ?? "a role known at apply";
  const takes = before && `takes ${roleOf(before)} on ${owner} away from the members of ${groupOf(before)}`;
  if (!after) return takes;
  const gives = `gives the members of ${groupOf(after)} up to ${roleOf(after)} on ${owner}${untilInWords(after)}`;
  if (!before) return gives;
  if (groupOf(before) !== groupOf(after)) return `${takes}; ${gives}`;
  return roleOf(before) === roleOf(after) ? gives : `${gives}, was ${roleOf(before)}`;
};

/** A share as the review names it: the invited group's path, as the server showed it or the program named it. */
const shareName: ObjectName = (values) => [values.sharedWithPath, values.sharedWith].find((group): group is string => typeof group === "string" && group !== "" && group !== UNKNOWN && !/^\d+$/.test(group));

/** A Terraform state's share: `<owner id>:<group id>`. */
function terraformShare(kind: OwnerKind, id: string): TerraformTarget | undefined {
  const parts = idPair(id);
  const group = wholeNumber(parts?.[1]);
  return parts && group !== undefined ? { owner: { kind, ref: parts[0] }, key: group } : undefined;
}

/** The declaration of one kind of share: GroupShare (`group`) or ProjectShare (`project`). */
export function shareDefinition<K extends OwnerKind>(kind: K, name: string, terraformType: string) {
  const form = kind === "group" ? groupShareIdForm : projectShareIdForm;
  const ownerShape = { [kind]: ownerInput(ownerReference) } as { [P in K]: typeof ownerReference };
  const schema = z.object({ ...ownerShape, ...shareFields });
  type Args = Inputs & Record<K, string | number>;
  const parse = (id: string) => parsedId(name, form, id);

  return defineObjectResource({
    name,
    words: { noun: `${kind} share`, says: shareWords, name: shareName },
    imported: {
      word: `${kind}-share`,
      listed: `${kind} shares`,
      on: [kind],
      async find({ ctx, owner }) {
        const address = { [kind]: owner.id };
        const shares = await sharesOf(ctx.client, shareOwnerPath(kind, owner.id));
        return {
          found: shares.map((share) => ({ importId: shareId(kind, owner.id, share.group_id), name: share.group_full_path ?? String(share.group_id), live: share, address: { ...address, sharedWith: share.group_id } })),
        };
      },
      async findOne({ owner, read }, key) {
        const address = { [kind]: owner.id, sharedWith: Number(key) };
        const importId = shareId(kind, owner.id, Number(key));
        const live = await read(importId, address);
        return live ? { found: [{ importId, name: String(live.group_full_path ?? key), live, address }] } : { found: [], skipped: [{ what: `${kind} share with group ${key}`, why: "no such share" }] };
      },
    },
    terraform: [{ type: terraformType, target: (id) => terraformShare(kind, id) }],
    idForm: form,
    notFoundSubject: "Group Link",
    schema,
    outputs: {
      /** The invited group's numeric id. */
      sharedWithGroupId: { value: (live: Share) => live.group_id, fromId: (id: string) => parse(id).groupId, derivedFrom: [] },
      /** The invited group's full path, as the server shows it. */
      sharedWithPath: { value: (live: Share) => live.group_full_path ?? null, derivedFrom: [] },
    },
    needs: (args, operation) => shareNeeds({ kind, ref: (args as Args)[kind], sharedWith: (args as Args).sharedWith, groupAccess: (args as Args).groupAccess }, operation),
    // One share per invited group: a changed share is removed before the new one is made.
    deleteBeforeReplace: true,

    async create(ctx, args) {
      const inputs = args as Args;
      const ownerPath = shareOwnerPath(kind, inputs[kind]);
      const groupId = await sharedGroupId(ctx.client, inputs.sharedWith);
      const live = await createShare(ctx.client, kind, ownerPath, { group_id: groupId, ...requestBody(this.fields, args) }, groupId);
      return { id: shareId(kind, inputs[kind], groupId), live };
    },

    async read(ctx, id) {
      const { ownerPath, groupId } = parse(id);
      return (await sharesOf(ctx.client, ownerPath)).find((share) => share.group_id === groupId);
    },

    async delete(ctx, id) {
      const { ownerPath, groupId } = parse(id);
      await ctx.client.delete(sharePath(ownerPath, groupId));
    },
  });
}


