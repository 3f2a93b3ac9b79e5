/**
 * The protected-branches example through the end-to-end steps (see
 * scenario.ts): the default branch's rule taken over, a release rule, a tag
 * rule and an approval rule. A new merge level of the release rule is one
 * PATCH of the rule in place: the emulator's request log shows no DELETE of
 * it, so the branches it matches were never open in between; a rule deleted
 * by hand is drift, made again. The destroy's review says what unprotecting
 * opens.
 */
import { expect } from "vitest";
import { apiPath, type PlatformClient } from "pulumi-platform";
import { describeExample } from "./scenario";

interface LiveRule {
  name: string;
  push_access_levels: { access_level: number }[];
  merge_access_levels: { access_level: number }[];
}

const levels = (rule: LiveRule) => `${rule.name} push ${rule.push_access_levels.map((level) => level.access_level).join("/")} merge ${rule.merge_access_levels.map((level) => level.access_level).join("/")}`;
const rules = async (api: PlatformClient) => (await api.list<LiveRule>(apiPath`/projects/${"acme/web"}/protected_branches`)).map(levels).sort();
const tagRules = async (api: PlatformClient) => (await api.list<{ name: string }>(apiPath`/projects/${"acme/web"}/protected_tags`)).map((rule) => rule.name).sort();
const approvalRules = async (api: PlatformClient) => (await api.list<{ name: string; approvals_required: number }>(apiPath`/projects/${"acme/web"}/approval_rules`)).map((rule) => `${rule.name} ${rule.approvals_required}`).sort();
/** The requests that reached the release rule itself (its path, decoded). */
const releaseRuleWrites = (log: readonly { method: string; path: string }[]) =>
  log.filter((request) => request.method !== "GET" && decodeURIComponent(request.path).endsWith("/protected_branches/release/*")).map((request) => request.method);

describeExample({
  example: "protected-branches",

  async snapshot({ api }) {
    // The default branch's rule is the server's, taken over: the program owns it from then on, and its destroy removes it.
    return { branches: (await rules(api)).filter((rule) => !rule.startsWith("main ")), tags: await tagRules(api), approvals: await approvalRules(api) };
  },

  async verifyCreated({ api }) {
    expect(await rules(api)).toEqual(["main push 0 merge 40", "release/* push 40 merge 30"]);
    expect(await tagRules(api)).toEqual(["v*"]);
    expect(await approvalRules(api)).toEqual(["release review 2"]);
  },

  async verifyAdopted({ api }) {
    expect((await rules(api)).filter((rule) => rule.startsWith("main "))).toHaveLength(1);
  },

  change: {
    config: { releaseMergers: "maintainer" },
    // The approval rule names the release rule by its name, which the preview knows while the rule updates: it is left alone.
    expect: { "release-branches": { op: "update", changed: ["mergeAccessLevel"] } },
    async verify({ api, emulator }) {
      expect(await rules(api)).toContain("release/* push 40 merge 40");
      // Made once, changed once in place: never deleted, so never unprotected.
      expect(releaseRuleWrites(emulator.requestLog)).toEqual(["PATCH"]);
    },
  },

  drift: {
    async apply({ api }) {
      await api.delete(apiPath`/projects/${"acme/web"}/protected_branches/${"release/*"}`);
    },
    expect: { "release-branches": { op: "create" }, "release-review": { op: "update" } },
    async verify({ api }) {
      expect(await rules(api)).toContain("release/* push 40 merge 40");
    },
  },

  destroyReview(report) {
    expect(report).toMatch(/unprotects it: the branches it matched can then be pushed to/);
  },
});
