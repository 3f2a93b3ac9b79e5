/**
 * The webhooks a platform team keeps: the CI system hears of pushes to
 * release branches and of merge requests on the main project, and an audit
 * service hears of membership and subgroup changes across the group.
 * The tokens come from the stack's secret config and stay secret in the state.
 *
 * Config: ciHookToken (secret, required); project, group, ciUrl, auditUrl (optional).
 * Against the emulator, a receiver on 127.0.0.1 gets the events it sends.
 */
import * as pulumi from "@pulumi/pulumi";
import { GroupHook, ProjectHook, getProjectHooksOutput } from "pulumi-platform";

const config = new pulumi.Config();
const project = config.get("project") ?? "acme/web";
const group = config.get("group") ?? "acme";

const ci = new ProjectHook("ci", {
  project,
  name: "ci",
  url: config.get("ciUrl") ?? "https://ci.example.com/hooks/platform",
  token: config.requireSecret("ciHookToken"),
  pushEvents: true,
  pushEventsBranchFilter: "release/*",
  mergeRequestsEvents: true,
  pipelineEvents: true,
});

new GroupHook("audit", {
  group,
  name: "audit",
  url: config.get("auditUrl") ?? "https://audit.example.com/platform",
  pushEvents: false,
  memberEvents: true,
  subgroupEvents: true,
});

export const ciHookId = ci.hookId;
/** Whether repeated failed deliveries disabled a hook of the project (the list is secret: a URL may carry credentials). */
export const disabledHooks = getProjectHooksOutput({ project }, { dependsOn: [ci] }).apply((hooks) => hooks.filter((hook) => hook.alertStatus !== "executable").map((hook) => hook.id));
