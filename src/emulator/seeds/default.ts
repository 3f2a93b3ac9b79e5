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
 * `stable` and `release/1.x` and the tags `v1.3.0` and `stable`. Each
 * repository is a real git repository (section `repositories`, below): its
 * head is the project's last commit, so `%{commit_sha}` is a real SHA.
 */
import type { Seed } from "../seed";

export const defaultSeed: Seed = {
  instance: {
    offering: "hosted",
    tier: "free",
    host: "platform.example.test",
    pagesDomain: "pages.example.test",
    // Container virtual registries and their cleanup policy are experiments behind these flags.
    featureFlags: { container_virtual_registries: true, maven_virtual_registry: true, group_agnostic_token_revocation: ["acme"] },
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
      latestTag: "v0.9.0",
    },
    {
      path: "infra",
      namespace: "acme/platform",
      name: "Infra",
      visibility: "private",
      createdAt: "2023-12-01T09:00:00.000Z",
      latestTag: null,
      members: { dev: 40 },
    },
    {
      path: "site",
      namespace: "beta",
      name: "Site",
      visibility: "public",
      createdAt: "2024-03-01T09:00:00.000Z",
      latestTag: "2024.03",
    },
  ],
  // Real git histories (areas/repository/seed.ts), dated so the SHAs never change.
  // acme/web: releases 1.3.0 (also `stable`) and 1.4.0, a release/1.x branch
  // merged back, a rename, Changelog trailers, an LFS file and a deploy config.
  repositories: {
    "acme/web": {
      files: {
        "README.md": "# Web\n\nThe public website.\n",
        ".gitattributes": "*.bin filter=lfs diff=lfs merge=lfs -text\n",
        "package.json": '{\n  "name": "web",\n  "version": "1.2.0",\n  "private": true\n}\n',
        "src/app.js": "import { home } from './home';\n\nexport const routes = { home };\n",
        "src/home.js": "export function home() {\n  return '<h1>Web</h1>';\n}\n",
        "src/auth.js": "export function authenticate(user) {\n  return Boolean(user);\n}\n",
        "src/views/comment.js": "export class CommentView {\n  render() {\n    return `<p>${this.body}</p>`;\n  }\n}\n",
        "config/legacy.yml": "legacy: true\nmode: old\n",
        "config/deploy.json": '{\n  "environment": "production",\n  "region": "eu-west-1",\n  "replicas": 3\n}\n',
        "assets/banner.bin": { lfs: "BANNER-IMAGE-BYTES\n" },
        "bin/deploy": { content: "#!/bin/sh\necho deploying\n", executable: true },
      },
      commits: [
        { message: "Add the home page greeting", trailers: { Changelog: "added" }, author: { name: "Alice Owner", email: "alice@example.test" }, date: "2024-02-01T10:00:00Z", files: { "src/home.js": "export function home() {\n  return '<h1>Welcome to Web</h1>';\n}\n" } },
        { id: "release-1.3.0", message: "Release 1.3.0", author: { name: "Mia Maintainer", email: "maintainer@example.test" }, date: "2024-02-15T10:00:00Z", files: { VERSION: "1.3.0\n" } },
        { branch: "release/1.x", from: "release-1.3.0", message: "Fix the footer link", trailers: { Changelog: "fixed" }, author: { name: "Dev Developer", email: "dev@example.test" }, date: "2024-03-01T10:00:00Z", files: { "src/footer.js": "export const footer = '<a href=\"/about\">About</a>';\n" } },
        { message: "Fix XSS in the comment view", trailers: { Changelog: "security" }, author: { name: "Mia Maintainer", email: "maintainer@example.test" }, date: "2024-04-20T16:00:00Z", files: { "src/views/comment.js": "export class CommentView {\n  render() {\n    return `<p>${escape(this.body)}</p>`;\n  }\n}\n" } },
        { message: "Merge branch 'release/1.x' into 'main'", merge: "release/1.x", author: { name: "Alice Owner", email: "alice@example.test" }, date: "2024-04-21T09:00:00Z" },
        { message: "Rename the auth module to session", trailers: { Changelog: "changed" }, author: { name: "Dev Developer", email: "dev@example.test" }, date: "2024-04-25T10:00:00Z", rename: { "src/auth.js": "src/session.js" } },
        { id: "release-1.4.0", message: "Release 1.4.0", author: { name: "Mia Maintainer", email: "maintainer@example.test" }, date: "2024-05-01T10:00:00Z", files: { VERSION: "1.4.0\n", "package.json": '{\n  "name": "web",\n  "version": "1.4.0",\n  "private": true\n}\n' } },
      ],
      branches: { stable: "release-1.3.0" },
      tags: [
        { name: "v1.3.0", target: "release-1.3.0", message: "Version 1.3.0" },
        { name: "stable", target: "release-1.3.0" },
        { name: "v1.4.0", target: "release-1.4.0", message: "Version 1.4.0" },
      ],
    },
    "acme/api": {
      files: { "README.md": "# API\n", "go.mod": "module example.test/acme/api\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() {}\n" },
      commits: [
        { message: "Add the health endpoint", trailers: { Changelog: "added" }, author: { name: "Dev Developer", email: "dev@example.test" }, date: "2024-03-01T10:00:00Z", files: { "handlers/health.go": "package handlers\n\n// Health answers 200.\nfunc Health() int { return 200 }\n" } },
        { message: "Release 0.9.0", author: { name: "Mia Maintainer", email: "maintainer@example.test" }, date: "2024-04-01T10:00:00Z", files: { VERSION: "0.9.0\n" } },
      ],
      tags: [{ name: "v0.9.0", message: "Version 0.9.0" }],
    },
    "acme/platform/infra": {
      files: { "README.md": "# Infra\n", "main.tf": "terraform {}\n" },
      commits: [{ message: "Add the network module", author: { name: "Dev Developer", email: "dev@example.test" }, date: "2024-01-15T10:00:00Z", files: { "modules/network/main.tf": "variable \"cidr\" {}\n" } }],
    },
    "beta/site": {
      files: { "README.md": "# Site\n", "index.html": "<h1>Beta</h1>\n" },
      commits: [{ message: "Add the about page", author: { name: "Alice Owner", email: "alice@example.test" }, date: "2024-03-02T10:00:00Z", files: { "about.html": "<h1>About Beta</h1>\n" } }],
      tags: [{ name: "2024.03", message: "March release" }],
    },
  },
  // Security reports of acme/web (Ultimate): two pipelines on main, the later
  // one the default of GET /vulnerability_findings; one finding is dismissed.
  securityReports: {
    "acme/web": {
      pipelines: [
        {
          id: 1001,
          ref: "main",
          createdAt: "2024-05-01T10:00:00.000Z",
          findings: [
            { reportType: "sast", name: "SQL injection in report query", severity: "critical", location: { file: "src/reports.js", startLine: 41 }, identifiers: [{ externalType: "cwe", externalId: "89", name: "CWE-89", url: "https://cwe.mitre.org/data/definitions/89.html" }] },
            { reportType: "dependency_scanning", name: "Prototype pollution in lodash", severity: "high", location: { file: "package-lock.json" }, identifiers: [{ externalType: "cve", externalId: "CVE-2020-8203", name: "CVE-2020-8203", url: "https://nvd.nist.gov/vuln/detail/CVE-2020-8203" }] },
          ],
        },
        {
          id: 1002,
          ref: "main",
          createdAt: "2024-05-02T10:00:00.000Z",
          findings: [
            { reportType: "sast", name: "Cross-site scripting in comment view", severity: "high", vulnerabilityId: 7001, description: "User input is rendered without escaping.", solution: "Escape the comment body.", location: { file: "src/views/comment.js", startLine: 17, class: "CommentView", method: "render" }, identifiers: [{ externalType: "cwe", externalId: "79", name: "CWE-79", url: "https://cwe.mitre.org/data/definitions/79.html" }] },
            { reportType: "sast", name: "Hard-coded password", severity: "medium", falsePositive: true, location: { file: "src/config.js", startLine: 3 }, identifiers: [{ externalType: "cwe", externalId: "798", name: "CWE-798", url: "https://cwe.mitre.org/data/definitions/798.html" }], dismissed: true, dismissedBy: "alice", dismissalReason: "false_positive", dismissalComment: "Test fixture, not a real secret." },
            { reportType: "dast", name: "Missing Content-Security-Policy header", severity: "low", location: { file: "https://web.acme.example/" }, identifiers: [{ externalType: "zaproxy_pluginid", externalId: "10038", name: "ZAP 10038", url: "https://www.zaproxy.org/docs/alerts/10038/" }] },
            { reportType: "dast", name: "Cookie without SameSite attribute", severity: "info", identifiers: [{ externalType: "zaproxy_pluginid", externalId: "10054", name: "ZAP 10054", url: "https://www.zaproxy.org/docs/alerts/10054/" }] },
            { reportType: "dependency_scanning", name: "Prototype pollution in lodash", severity: "high", vulnerabilityId: 7002, state: "confirmed", solution: "Upgrade lodash to 4.17.21.", remediations: [{ summary: "Upgrade lodash to 4.17.21", diff: "ZGlmZiAtLWdpdCBhL3BhY2thZ2UtbG9jay5qc29uIGIvcGFja2FnZS1sb2NrLmpzb24K" }], evidence: { summary: "lodash 4.17.20 is resolved in package-lock.json" }, location: { file: "package-lock.json" }, identifiers: [{ externalType: "cve", externalId: "CVE-2020-8203", name: "CVE-2020-8203", url: "https://nvd.nist.gov/vuln/detail/CVE-2020-8203" }] },
            { reportType: "dependency_scanning", name: "Improper input validation in golang.org/x/net", severity: "medium", location: { file: "go.sum" }, identifiers: [{ externalType: "cve", externalId: "CVE-2023-39325", name: "CVE-2023-39325", url: "https://nvd.nist.gov/vuln/detail/CVE-2023-39325" }] },
            { reportType: "container_scanning", name: "CVE-2023-4911 in glibc", severity: "critical", location: { file: "registry.example.test/acme/web:latest" }, identifiers: [{ externalType: "cve", externalId: "CVE-2023-4911", name: "CVE-2023-4911", url: "https://nvd.nist.gov/vuln/detail/CVE-2023-4911" }] },
            { reportType: "container_scanning", name: "CVE-2023-5363 in openssl", severity: "unknown", location: { file: "registry.example.test/acme/web:latest" }, identifiers: [{ externalType: "cve", externalId: "CVE-2023-5363", name: "CVE-2023-5363", url: "https://nvd.nist.gov/vuln/detail/CVE-2023-5363" }] },
          ],
        },
      ],
      dependencies: [
        { name: "express", version: "4.18.2", packageManager: "npm", path: "package-lock.json", licenses: [{ name: "MIT", url: "https://opensource.org/licenses/MIT" }] },
        { name: "lodash", version: "4.17.20", packageManager: "npm", path: "package-lock.json", licenses: [{ name: "MIT", url: "https://opensource.org/licenses/MIT" }], vulnerabilities: [{ id: 7002, name: "Prototype pollution in lodash", severity: "high" }] },
        { name: "react", version: "18.2.0", packageManager: "npm", path: "package-lock.json", licenses: [{ name: "MIT", url: "https://opensource.org/licenses/MIT" }] },
        { name: "jsonwebtoken", version: "8.5.1", packageManager: "npm", path: "package-lock.json", licenses: [{ name: "MIT", url: "https://opensource.org/licenses/MIT" }], vulnerabilities: [{ id: 7003, name: "Improper restriction of key types in jsonwebtoken", severity: "medium" }] },
        { name: "golang.org/x/net", version: "v0.10.0", packageManager: "go", path: "go.sum", licenses: [{ name: "BSD-3-Clause", url: "https://opensource.org/licenses/BSD-3-Clause" }], vulnerabilities: [{ id: 7004, name: "Improper input validation in golang.org/x/net", severity: "medium" }] },
        { name: "github.com/gorilla/mux", version: "v1.8.0", packageManager: "go", path: "go.sum", licenses: [{ name: "BSD-3-Clause", url: "https://opensource.org/licenses/BSD-3-Clause" }] },
        { name: "gopkg.in/yaml.v3", version: "v3.0.1", packageManager: "go", path: "go.sum", licenses: [{ name: "MIT", url: "https://opensource.org/licenses/MIT" }, { name: "Apache-2.0", url: "https://opensource.org/licenses/Apache-2.0" }] },
        { name: "requests", version: "2.28.0", packageManager: "pip", path: "requirements.txt", licenses: [{ name: "Apache-2.0", url: "https://opensource.org/licenses/Apache-2.0" }], vulnerabilities: [{ id: 7005, name: "Unintended leak of Proxy-Authorization header in requests", severity: "medium" }] },
        { name: "flask", version: "2.3.2", packageManager: "pip", path: "requirements.txt", licenses: [{ name: "BSD-3-Clause", url: "https://opensource.org/licenses/BSD-3-Clause" }] },
        { name: "pyyaml", version: "6.0.1", packageManager: "pip", path: "requirements.txt", licenses: [{ name: "MIT", url: "https://opensource.org/licenses/MIT" }] },
      ],
    },
    // beta is a Free group: its project's security endpoints are refused (403) whatever the data.
    "beta/site": {
      dependencies: [{ name: "left-pad", version: "1.3.0", packageManager: "npm", path: "package-lock.json" }],
    },
  },
  // One client key of acme/web, so key rotation can be tried at once.
  errorTracking: {
    "acme/web": { clientKeys: [{ publicKey: "glet_3d4f6a8b0c1e2d3f4a5b6c7d8e9f0a1b" }] },
  },
  // Container registry (areas/container-registry/): acme/web's root image and
  // `api-server` (releases v1.0.0 to v1.4.0, CI builds main-<sha>, `latest` on
  // the v1.4.0 manifest); release tags protected from anyone below Maintainer.
  // A repository in the subgroup project acme/platform/infra, and the public
  // beta/site's root image. Ids in this order: 1 to 4.
  containerRegistry: {
    tagDelete: true,
    repositories: {
      "acme/web": [
        {
          name: "",
          createdAt: "2024-02-01T10:00:00.000Z",
          tags: [
            { name: "main", createdAt: "2024-05-02T10:00:00.000Z", size: 48_213_331 },
            { name: "latest", sameAs: "main" },
          ],
        },
        {
          name: "api-server",
          createdAt: "2024-02-01T11:00:00.000Z",
          tags: [
            { name: "v1.0.0", createdAt: "2024-02-10T12:00:00.000Z", size: 61_004_288 },
            { name: "v1.1.0", createdAt: "2024-03-01T12:00:00.000Z", size: 61_230_112 },
            { name: "v1.2.0", createdAt: "2024-03-20T12:00:00.000Z", size: 62_001_540 },
            { name: "v1.3.0", createdAt: "2024-04-15T12:00:00.000Z", size: 62_877_901 },
            { name: "v1.4.0", createdAt: "2024-05-01T12:00:00.000Z", size: 63_105_377 },
            { name: "latest", sameAs: "v1.4.0" },
            { name: "main-1a2b3c4d", createdAt: "2024-04-20T08:00:00.000Z", size: 63_000_001 },
            { name: "main-2b3c4d5e", createdAt: "2024-04-25T08:00:00.000Z", size: 63_000_002 },
            { name: "main-3c4d5e6f", createdAt: "2024-04-28T08:00:00.000Z", size: 63_000_003 },
            { name: "main-4d5e6f70", createdAt: "2024-05-03T08:00:00.000Z", size: 63_000_004 },
            { name: "main-5e6f7081", createdAt: "2024-05-06T08:00:00.000Z", size: 63_000_005 },
            { name: "feature-login", createdAt: "2024-05-04T08:00:00.000Z", size: 63_100_000 },
          ],
        },
      ],
      "acme/platform/infra": [
        { name: "tools", createdAt: "2024-01-05T09:00:00.000Z", tags: [{ name: "2024.01", createdAt: "2024-01-05T10:00:00.000Z", size: 12_500_000 }] },
      ],
      "beta/site": [
        {
          name: "",
          createdAt: "2024-03-02T09:00:00.000Z",
          tags: [
            { name: "2024.03", createdAt: "2024-03-02T10:00:00.000Z", size: 20_480_000 },
            { name: "latest", sameAs: "2024.03" },
          ],
        },
      ],
    },
    // RE2, found anywhere in the name (unanchored, as real servers match tag rules): anchor it.
    protectionRules: { "acme/web": [{ tagNamePattern: "^v[0-9]", minimumAccessLevelForDelete: "maintainer" }] },
  },
  // SAML SSO of acme (areas/saml/): each member has signed in once,
  // so each has an identity; the NameIDs are the identity provider's ids. On the
  // self-managed variant below the section stays but answers as self-managed does.
  samlIdentities: {
    acme: [
      { username: "alice", externUid: "idp-1001-alice" },
      { username: "maintainer", externUid: "idp-1002-mia" },
      { username: "dev", externUid: "idp-1003-dev" },
      { username: "guest", externUid: "idp-1004-gus" },
    ],
  },
  // Stars (areas/starring/): acme/web has four (the guest's profile is private,
  // so only the guest and administrators see that one), beta/site three. root
  // has starred nothing, so a test or program acting as root starts clean.
  stars: {
    alice: ["acme/web", "acme/api", { project: "beta/site", starredAt: "2024-03-05T12:00:00.000Z" }],
    maintainer: ["acme/web"],
    dev: ["acme/web", "acme/platform/infra"],
    guest: { privateProfile: true, projects: ["acme/web", "beta/site"] },
    outsider: ["beta/site"],
  },
  // Epics (areas/epics/): acme's 2025 roadmap (id 1) with three children in
  // this order (ids 2, 3, 4) and two unassigned epics (5, 6); acme/platform
  // (a subgroup: its epics may be children of acme's) has its own tree, epic 7
  // with child 8, and an unassigned epic 9. Ids in this order: 1 to 9.
  epics: {
    acme: [
      { iid: 1, title: "2025 roadmap", description: "What Acme ships in 2025.", labels: ["roadmap"], startDate: "2025-01-01", dueDate: "2025-12-31" },
      { iid: 2, title: "Self-serve onboarding", parent: 1, labels: ["growth"], startDate: "2025-01-15", dueDate: "2025-04-30" },
      { iid: 3, title: "Usage-based billing", parent: 1, labels: ["billing"], startDate: "2025-03-01", dueDate: "2025-08-31" },
      { iid: 4, title: "Public API v2", parent: 1, labels: ["api"], dueDate: "2025-11-30" },
      { iid: 5, title: "Dark mode", author: "maintainer", labels: ["ux"] },
      { iid: 6, title: "Accessibility audit", author: "dev" },
    ],
    "acme/platform": [
      { iid: 1, title: "Platform foundations", labels: ["platform"] },
      { iid: 2, title: "Kubernetes 1.31 upgrade", parent: 1, author: "dev" },
      { iid: 3, title: "Observability stack", author: "dev", labels: ["platform", "observability"] },
    ],
  },
  // Group details (areas/groups/seed.ts): acme's custom attributes and storage
  // sizes (administrators see them); beta/labs is archived.
  groupDetails: {
    acme: {
      customAttributes: { department: "engineering", cost_center: "cc-100" },
      statistics: { repositorySize: 52_428_800, lfsObjectsSize: 10_485_760, jobArtifactsSize: 4_194_304, packagesSize: 2_097_152 },
    },
    "acme/platform": { customAttributes: { department: "platform" }, statistics: { repositorySize: 8_388_608 } },
    "beta/labs": { archived: true },
  },
  // Tokens (areas/group-tokens/). Every seed user's
  // own token also gets a record (`<user>-token-1`). alice, maintainer and dev
  // are acme's enterprise users; dev has an active, an expired and a revoked
  // token; outsider's token reaches no group; acme and acme/web have an access
  // token each (their bots are members), acme and acme/web a deploy token each.
  credentials: {
    enterpriseUsers: { acme: ["alice", "maintainer", "dev"] },
    personalAccessTokens: [
      { user: "dev", name: "laptop", token: "glpat-dev-laptop-0001", scopes: ["api"], createdAt: "2024-02-01T09:00:00.000Z", lastUsedAt: "2024-05-01T08:30:00.000Z", expiresAt: "2030-01-01" },
      { user: "dev", name: "old-ci", token: "glpat-dev-old-ci-0002", scopes: ["read_api"], createdAt: "2023-09-01T09:00:00.000Z", lastUsedAt: "2024-01-15T10:00:00.000Z", expiresAt: "2024-03-01" },
      { user: "dev", name: "leaked", token: "glpat-dev-leaked-0003", scopes: ["api"], createdAt: "2024-03-10T09:00:00.000Z", revoked: true },
      { user: "maintainer", name: "release-script", description: "Tags releases", token: "glpat-maintainer-release-0004", scopes: ["read_api", "write_repository"], createdAt: "2024-04-01T09:00:00.000Z", lastUsedAt: "2024-04-15T12:00:00.000Z", expiresAt: "2030-06-30" },
      { user: "outsider", name: "scratch", token: "glpat-outsider-scratch-0005", createdAt: "2024-04-02T09:00:00.000Z" },
    ],
    groupAccessTokens: [{ group: "acme", name: "acme-ci", token: "glpat-acme-group-bot-0006", scopes: ["read_api"], accessLevel: 30, createdAt: "2024-04-03T09:00:00.000Z", expiresAt: "2030-01-01" }],
    projectAccessTokens: [{ project: "acme/web", name: "web-deploy", token: "glpat-acme-web-bot-0007", scopes: ["api"], accessLevel: 40, createdAt: "2024-04-04T09:00:00.000Z", expiresAt: "2030-01-01" }],
    deployTokens: [
      { group: "acme", name: "acme-registry-pull", token: "gldt-acme-registry-0008", scopes: ["read_registry"], createdAt: "2024-04-05T09:00:00.000Z" },
      { project: "acme/web", name: "web-clone", token: "gldt-acme-web-clone-0009", scopes: ["read_repository"], createdAt: "2024-04-06T09:00:00.000Z" },
    ],
    feedTokens: { alice: "glft-alice-feed-0010", outsider: "glft-outsider-feed-0011" },
  },
  // CI job tokens (areas/job-tokens/): a running job of acme/web's pipeline,
  // run by maintainer, and a finished one, whose token no longer works.
  jobTokens: [
    { token: "glcbt-acme-web-running-job", project: "acme/web", user: "maintainer" },
    { token: "glcbt-acme-web-finished-job", project: "acme/web", user: "maintainer", status: "success" },
  ],
  // Merge requests (routes/merge-requests*.ts). acme/web: !1 open with a passing
  // pipeline, approvals and reactions; !2 a draft with a conflict and a failed
  // pipeline; !3 merged and deployed to production; !4 closed; !5 locked.
  // acme/api: !1 open, !2 merged to staging. beta/site (public, Free): !1 open,
  // its pipelines hidden from non-members (publicPipelines false). The branch
  // feature/search of acme/web has changes but no merge request yet.
  mergeRequests: {
    "acme/web": {
      labels: [
        { name: "bug", color: "#d9534f", description: "Something is broken" },
        { name: "feature", color: "#428bca" },
        { name: "frontend", color: "#f0ad4e" },
        { name: "security", color: "#8e44ad", description: "Security fix" },
        { name: "docs", color: "#e5f5e0" },
      ],
      milestones: [
        { title: "v1.4", state: "closed", startDate: "2024-03-01", dueDate: "2024-04-30" },
        { title: "v1.5", state: "active", description: "Login and header", startDate: "2024-05-01", dueDate: "2030-06-30" },
      ],
      branches: {
        "feature/search": [{ path: "src/search.js", newFile: true, diff: "@@ -0,0 +1,3 @@\n+export function search(items, text) {\n+  return items.filter((item) => item.includes(text));\n+}\n" }],
      },
      mergeRequests: [
        {
          title: "Add the login page", description: "Adds a login form.\n\n- [x] form\n- [x] validation\n- [ ] remember me", sourceBranch: "feature/login", targetBranch: "main",
          author: "dev", assignees: ["dev"], reviewers: ["maintainer"], labels: ["feature", "frontend"], milestone: "v1.5",
          createdAt: "2024-05-01T10:00:00.000Z", updatedAt: "2024-05-03T12:00:00.000Z", upvotes: 2, timeEstimate: 14_400, timeSpent: 5_400,
          approvers: ["maintainer", "alice"], approvedBy: ["maintainer"], awardEmoji: { alice: ["thumbsup"], maintainer: ["rocket"] }, divergedCommitsCount: 2,
          files: [
            { path: "src/login.js", newFile: true, diff: "@@ -0,0 +1,4 @@\n+export function login(form) {\n+  validate(form);\n+  return submit(form);\n+}\n" },
            { path: "src/app.js", diff: "@@ -1,3 +1,4 @@\n import { home } from './home';\n+import { login } from './login';\n \n export const routes = { home };\n" },
            { oldPath: "src/auth.js", path: "src/session.js", diff: "" },
          ],
          pipelines: [{ status: "failed", createdAt: "2024-05-01T10:05:00.000Z" }, { status: "success", createdAt: "2024-05-03T11:00:00.000Z", coverage: "87.5" }],
          notes: [
            { author: "maintainer", body: "Please add a test for the empty form.", createdAt: "2024-05-01T12:00:00.000Z" },
            { author: "dev", body: "Added in the second commit.", createdAt: "2024-05-02T09:00:00.000Z" },
            { author: "maintainer", body: "Looks good to me.", createdAt: "2024-05-03T12:00:00.000Z" },
          ],
        },
        {
          title: "Draft: Rework the header", description: "Work in progress.", sourceBranch: "feature/header", targetBranch: "main",
          author: "alice", createdAt: "2024-05-05T09:00:00.000Z", conflicts: true, downvotes: 1, awardEmoji: { dev: ["thumbsdown"] },
          files: [{ path: "src/header.css", diff: "@@ -1,2 +1,2 @@\n-header { color: black; }\n+header { color: navy; }\n" }],
          pipelines: [{ status: "failed", createdAt: "2024-05-05T09:10:00.000Z" }],
        },
        {
          title: "Fix XSS in the comment view", description: "Escapes comment bodies.", sourceBranch: "fix/comment-xss", targetBranch: "main", state: "merged",
          author: "maintainer", assignees: ["alice"], reviewers: ["dev"], labels: ["bug", "security"], milestone: "v1.4",
          createdAt: "2024-04-15T08:00:00.000Z", mergedAt: "2024-04-20T16:00:00.000Z", mergedBy: "alice", approvers: ["alice"], approvedBy: ["alice", "dev"],
          deployments: [{ environment: "staging", deployedAt: "2024-04-20T17:00:00.000Z" }, { environment: "production", deployedAt: "2024-04-21T09:00:00.000Z" }],
          files: [{ path: "src/views/comment.js", diff: "@@ -15,3 +15,3 @@\n render() {\n-  return `<p>${this.body}</p>`;\n+  return `<p>${escape(this.body)}</p>`;\n" }],
          pipelines: [{ status: "success", createdAt: "2024-04-20T15:00:00.000Z" }],
        },
        {
          title: "Update the README", description: "Documents the stable branch.", sourceBranch: "docs/readme", targetBranch: "stable", state: "closed",
          author: "dev", labels: ["docs"], createdAt: "2024-04-01T08:00:00.000Z", closedAt: "2024-04-10T08:00:00.000Z", closedBy: "maintainer",
          files: [{ path: "README.md", diff: "@@ -1 +1,2 @@\n # Web\n+Stable releases come from the stable branch.\n" }],
        },
        {
          title: "Remove the legacy configuration", description: "Drops config/legacy.yml.", sourceBranch: "chore/legacy-config", targetBranch: "main", state: "locked",
          author: "dev", reviewers: ["alice"], createdAt: "2024-05-06T08:00:00.000Z", discussionLocked: true,
          files: [{ path: "config/legacy.yml", deletedFile: true, diff: "@@ -1,2 +0,0 @@\n-legacy: true\n-mode: old\n" }],
        },
      ],
    },
    "acme/api": {
      milestones: [{ title: "API 1.0", dueDate: "2030-01-31" }],
      mergeRequests: [
        {
          title: "Add rate limiting", description: "Limits requests per token.", sourceBranch: "feature/rate-limit", targetBranch: "develop",
          author: "maintainer", assignees: ["dev"], reviewers: ["alice", "dev"], labels: ["feature"], milestone: "API 1.0",
          createdAt: "2024-05-02T10:00:00.000Z", mergeAfter: "2030-01-01T00:00:00.000Z", approvers: ["alice"],
          files: [{ path: "lib/limiter.go", newFile: true, diff: "@@ -0,0 +1,2 @@\n+package lib\n+// Limiter counts requests per token.\n" }],
          pipelines: [{ status: "running", createdAt: "2024-05-02T10:05:00.000Z" }],
        },
        {
          title: "Bump dependencies", sourceBranch: "deps/bump", targetBranch: "develop", state: "merged",
          author: "dev", createdAt: "2024-04-25T10:00:00.000Z", mergedAt: "2024-04-26T10:00:00.000Z", mergedBy: "maintainer",
          deployments: [{ environment: "staging", deployedAt: "2024-04-26T11:00:00.000Z" }],
          files: [{ path: "go.sum", generatedFile: true, diff: "@@ -1 +1 @@\n-golang.org/x/net v0.10.0\n+golang.org/x/net v0.17.0\n" }],
        },
      ],
    },
    "beta/site": {
      publicPipelines: false,
      mergeRequests: [
        {
          title: "Refresh the landing page", sourceBranch: "landing", targetBranch: "main", author: "alice", createdAt: "2024-05-04T10:00:00.000Z",
          files: [{ path: "index.html", diff: "@@ -1 +1 @@\n-<h1>Beta</h1>\n+<h1>Welcome to Beta</h1>\n" }],
          pipelines: [{ status: "success", createdAt: "2024-05-04T10:10:00.000Z" }],
        },
      ],
    },
  },
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
