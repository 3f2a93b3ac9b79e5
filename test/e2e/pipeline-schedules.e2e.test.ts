/** The pipeline-schedules example through the end-to-end steps (see scenario.ts). */
import { expect } from "vitest";
import { apiPath, PlatformClient } from "pulumi-platform";
import type { Emulator } from "pulumi-platform/emulator";
import { describeExample } from "./scenario";

interface LiveSchedule {
  id: number;
  description: string;
  ref: string;
  cron: string;
  owner: { username: string };
  variables?: { key: string; value: string }[];
}

const DEPLOY_TOKEN = "e2e-deploy-token-5b1f";
const schedules = (api: PlatformClient) => api.list<LiveSchedule>(apiPath`/projects/${"acme/web"}/pipeline_schedules`);
const named = async (api: PlatformClient, description: string) => {
  const found = (await schedules(api)).filter((s) => s.description === description);
  expect(found).toHaveLength(1);
  return api.get<LiveSchedule>(apiPath`/projects/${"acme/web"}/pipeline_schedules/${found[0]!.id}`);
};
const variables = (schedule: LiveSchedule) => (schedule.variables ?? []).map((v) => `${v.key}=${v.value}`).sort();

const clientAs = (emulator: Emulator, username: string) =>
  new PlatformClient({ url: emulator.url, token: emulator.tokens[username]!, retryBaseDelayMs: 10 });

let handMade: LiveSchedule;

describeExample({
  example: "pipeline-schedules",
  // A Maintainer, so the hand-made schedule owned by a Developer has to be taken over.
  user: "maintainer",
  secrets: { deployToken: DEPLOY_TOKEN },

  async snapshot({ api }) {
    return (await schedules(api)).map((s) => `${s.description} ${s.ref} ${s.cron}`).sort();
  },

  async prepare({ emulator }) {
    handMade = await clientAs(emulator, "dev").post<LiveSchedule>(apiPath`/projects/${"acme/web"}/pipeline_schedules`, {
      description: "Weekly dependency scan",
      ref: "refs/heads/main",
      cron: "0 7 * * SUN",
    });
  },

  async verifyCreated({ api }) {
    const nightly = await named(api, "Nightly build and deploy");
    expect(nightly).toMatchObject({ ref: "refs/heads/main", cron: "0 2 * * *", owner: { username: "maintainer" } });
    expect(variables(nightly)).toEqual(["DEPLOY_ENVIRONMENT=staging", `DEPLOY_TOKEN=${DEPLOY_TOKEN}`]);
    const weekly = await named(api, "Weekly dependency scan");
    expect(weekly).toMatchObject({ cron: "0 6 * * MON", owner: { username: "maintainer" } });
    expect(variables(weekly)).toEqual(["SCAN_PROFILE=full"]);
  },

  async verifyAdopted({ api }) {
    expect((await named(api, "Weekly dependency scan")).id).toBe(handMade.id);
  },

  change: {
    config: { nightlyCron: "30 1 * * *" },
    expect: { nightly: { op: "update", changed: ["cron"] } },
    async verify({ api }) {
      expect((await named(api, "Nightly build and deploy")).cron).toBe("30 1 * * *");
    },
  },

  drift: {
    async apply({ api, emulator }) {
      // Only a schedule's owner may change it: the stack's user, by now.
      const owner = clientAs(emulator, "maintainer");
      const nightly = await named(api, "Nightly build and deploy");
      const variable = (key: string) => apiPath`/projects/${"acme/web"}/pipeline_schedules/${nightly.id}/variables/${key}`;
      await owner.put(variable("DEPLOY_ENVIRONMENT"), { value: "production" });
      await owner.put(variable("DEPLOY_TOKEN"), { value: "changed-by-hand-7c2e" });
      const weekly = await named(api, "Weekly dependency scan");
      await owner.put(apiPath`/projects/${"acme/web"}/pipeline_schedules/${weekly.id}`, { active: false });
    },
    expect: {
      // `variables` is secret: the preview's JSON shows it as [secret] on both sides, so only the step is checked.
      nightly: { op: "update" },
      "weekly-dependency-scan": { op: "update", changed: ["active"] },
    },
    // A plain variable's value and a secret one's, each named (the secret never shown).
    drifted: { nightly: ["variables.DEPLOY_ENVIRONMENT.value", "variables.DEPLOY_TOKEN.value"], "weekly-dependency-scan": ["active"] },
    async verify({ api }) {
      expect(variables(await named(api, "Nightly build and deploy"))).toEqual(["DEPLOY_ENVIRONMENT=staging", `DEPLOY_TOKEN=${DEPLOY_TOKEN}`]);
    },
  },
});
