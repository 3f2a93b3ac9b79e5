/**
 * The default seed: a hosted instance with one user per role, so tests and
 * local runs can exercise every permission path without writing a seed.
 *
 * | user       | token                  | role                                                   |
 * |------------|------------------------|--------------------------------------------------------|
 * | root       | glpat-root-token       | administrator, no memberships                          |
 * | alice      | glpat-alice-token      | Owner of acme and beta                                 |
 * | maintainer | glpat-maintainer-token | Maintainer of acme                                     |
 * | dev        | glpat-dev-token        | Developer of acme; Maintainer of acme/platform/infra   |
 * | guest      | glpat-guest-token      | Guest of acme                                          |
 * | outsider   | glpat-outsider-token   | no membership anywhere                                 |
 *
 * Groups: `acme` (Ultimate, private, formerly `acme-corp`) with subgroup
 * `acme/platform`; `beta` (Free, public) with the empty internal subgroup
 * `beta/labs`. Projects: `acme/web` (formerly `acme/website`), created before
 * `acme/api`; `acme/platform/infra`; the public `beta/site`. Repositories
 * have their default branch and latest tag; `acme/web` also has the branches
 * `stable` and `release/1.x` and the tags `v1.3.0` and `stable`.
 */
import type { Seed } from "../seed";

export const defaultSeed: Seed = {
  instance: {
    offering: "hosted",
    tier: "free",
    host: "platform.example.test",
    pagesDomain: "pages.example.test",
    // Container virtual registries and their cleanup policy are experiments behind these flags.
    featureFlags: { container_virtual_registries: true, maven_virtual_registry: true },
  },
  users: [
    { username: "root", name: "Administrator", admin: true, token: "glpat-root-token" },
    { username: "alice", name: "Alice Owner", token: "glpat-alice-token" },
    { username: "maintainer", name: "Mia Maintainer", token: "glpat-maintainer-token" },
    { username: "dev", name: "Dev Developer", token: "glpat-dev-token" },
    { username: "guest", name: "Gus Guest", token: "glpat-guest-token" },
    { username: "outsider", name: "Olga Outsider", token: "glpat-outsider-token" },
  ],
  groups: [
    {
      path: "acme",
      name: "Acme",
      description: "Acme Corporation",
      visibility: "private",
      tier: "ultimate",
      createdAt: "2023-06-01T09:00:00.000Z",
      members: { alice: 50, maintainer: 40, dev: 30, guest: 10 },
      formerPaths: ["acme-corp"],
    },
    {
      path: "platform",
      parent: "acme",
      name: "Platform",
      visibility: "private",
      createdAt: "2023-06-02T09:00:00.000Z",
    },
    {
      path: "beta",
      name: "Beta",
      description: "Public playground",
      visibility: "public",
      tier: "free",
      createdAt: "2023-07-01T09:00:00.000Z",
      members: { alice: 50 },
    },
    {
      path: "labs",
      parent: "beta",
      name: "Labs",
      visibility: "internal",
      createdAt: "2023-07-02T09:00:00.000Z",
    },
  ],
  projects: [
    {
      path: "web",
      namespace: "acme",
      name: "Web",
      description: "The public website",
      visibility: "private",
      createdAt: "2024-01-10T09:00:00.000Z",
      defaultBranch: "main",
      commitSha: "6104942438c14ec7bd21c6cd5bd995272b3faff6",
      latestTag: "v1.4.0",
      // `stable` is both a branch and a tag: a short ref naming it is ambiguous.
      branches: ["main", "stable", "release/1.x"],
      tags: ["v1.3.0", "v1.4.0", "stable"],
      formerPaths: ["acme/website"],
    },
    {
      path: "api",
      namespace: "acme",
      name: "API",
      visibility: "private",
      createdAt: "2024-02-01T09:00:00.000Z",
      defaultBranch: "develop",
      commitSha: "b83d6e391c22777fca1ed3012fce84f633d7fed0",
      latestTag: "v0.9.0",
    },
    {
      path: "infra",
      namespace: "acme/platform",
      name: "Infra",
      visibility: "private",
      createdAt: "2023-12-01T09:00:00.000Z",
      commitSha: "0b4bc9a49b562e85de7cc9e834518ea6828729b9",
      latestTag: null,
      members: { dev: 40 },
    },
    {
      path: "site",
      namespace: "beta",
      name: "Site",
      visibility: "public",
      createdAt: "2024-03-01T09:00:00.000Z",
      commitSha: "e4f1c2d3b4a5968778695a4b3c2d1e0f9a8b7c6d",
      latestTag: "2024.03",
    },
  ],
};

/**
 * The default seed on a self-managed instance with an Ultimate licence: the
 * instance-wide `/application/settings` exists there (the hosted offering has
 * none), and every group has the licensed features. What ApplicationSettings
 * and the full example (examples/platform-team) need.
 */
export const selfManagedSeed: Seed = {
  ...defaultSeed,
  instance: { ...defaultSeed.instance, offering: "self-managed", tier: "ultimate" },
};
