/**
 * Roles and licence tiers as values, and the one way each is said in words.
 * The wording functions (./errors.ts) take these values, never free text, so a
 * role or a tier reads the same in every message.
 */

/** The roles of `Gitlab::Access`, lowest first, with their access levels. */
export const ROLE_LEVELS = { Guest: 10, Planner: 15, Reporter: 20, Developer: 30, Maintainer: 40, Owner: 50 } as const;
export type Role = keyof typeof ROLE_LEVELS;

/** The least access level a SAML group link can grant, below Guest. */
export const MINIMAL_ACCESS_LEVEL = 5;

/** A licence tier something needs (the least one). */
export type Tier = "premium" | "ultimate";

/**
 * What a refusal names as missing: a role on the owner, administrator rights on
 * the instance, or a need no role value says (push access, a membership of any
 * role), in words of its own.
 */
export type RoleNeed = Role | "administrator" | { phrase: string };

/** A role as every message names it: `the Owner role`, `at least the Maintainer role`, `administrator rights`. */
export function roleInWords(role: RoleNeed): string {
  if (typeof role === "object") return role.phrase;
  if (role === "administrator") return "administrator rights";
  return role === "Owner" ? "the Owner role" : `at least the ${role} role`;
}

/** A tier as every message names it: `Premium or Ultimate`, `Ultimate`. */
export const tierInWords = (tier: Tier): string => (tier === "premium" ? "Premium or Ultimate" : "Ultimate");
