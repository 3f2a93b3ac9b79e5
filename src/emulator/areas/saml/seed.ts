/**
 * The `samlIdentities` seed section, keyed by top-level group full path:
 * `{ "acme": [{ "username": "alice", "externUid": "alice@idp.example" }] }`.
 * A group named here has a SAML provider; each identity belongs to a member.
 */
import { z } from "zod";
import { keyedSection } from "../../area";
import { SeedError } from "../../seed-error";
import type { EmulatorState, Group } from "../../state";
import { sameUid, samlIdentityStore, type SamlIdentityRecord } from "./identities";

const seedIdentity = z.object(
  {
    username: z.string({ error: "must be a username" }),
    externUid: z.string({ error: "must be a non-empty string" }).refine((uid) => uid.trim() !== "", "must be a non-empty string"),
  },
  { error: "must be { username, externUid }" },
);

export const samlIdentitiesSeedSchema = keyedSection(
  "top-level group full path",
  z.array(seedIdentity, { error: "must be an array of { username, externUid }" }),
);

function identityOf(state: EmulatorState, group: Group, seed: z.infer<typeof seedIdentity>, where: string): SamlIdentityRecord {
  const user = state.userByUsername(seed.username);
  if (!user) throw new SeedError(`${where}: unknown user ${seed.username}`);
  // SAML sign-in makes the user a member of the top-level group: an identity belongs to a member.
  if (group.members[String(user.id)] === undefined) throw new SeedError(`${where}: ${seed.username} is not a member of group ${group.path}`);
  return { groupId: group.id, userId: user.id, externUid: seed.externUid };
}

export function applySamlIdentitySeed(state: EmulatorState, section: z.infer<typeof samlIdentitiesSeedSchema> | undefined): void {
  if (section === undefined) return;
  const store = samlIdentityStore.of(state);
  for (const [fullPath, entries] of Object.entries(section)) {
    const where = `samlIdentities["${fullPath}"]`;
    const group = state.groupByFullPath(fullPath);
    if (!group) throw new SeedError(`${where}: unknown group ${fullPath}`);
    if (group.parentId !== null) throw new SeedError(`${where}: SAML SSO is configured on top-level groups only`);
    store.providerGroupIds.push(group.id);
    entries.forEach((entry, index) => {
      const identity = identityOf(state, group, entry, `${where}[${index}]`);
      const clash = store.identities.find((other) => other.groupId === group.id && (other.userId === identity.userId || sameUid(other.externUid, identity.externUid)));
      if (clash) throw new SeedError(`${where}[${index}]: repeats the user or the externUid of another identity`);
      store.identities.push(identity);
    });
  }
}
