/**
 * A deploy token that rotates itself: acme/api's access token, rotated a week
 * before it expires, kept in a masked CI/CD variable of acme/web, whose
 * webhook tells a receiver of each push with a token of the receiver's.
 */
import * as pulumi from "@pulumi/pulumi";
import { ProjectAccessToken, ProjectHook, ProjectVariable } from "pulumi-platform";

const config = new pulumi.Config();

const deployer = new ProjectAccessToken("deployer", { project: "acme/api", name: "deployer", scopes: ["api"], accessLevel: "developer", rotateBeforeDays: 7 });

// `token` is undefined only for a token taken over, whose value the server never shows again.
const token = deployer.token.apply((value) => {
  if (value === undefined) throw new Error("the deployer token was taken over: its value is unknown");
  return value;
});
new ProjectVariable("deploy-token", { project: "acme/web", key: "DEPLOY_TOKEN", value: token, masked: true, protected: true });

const hook = new ProjectHook("receiver", { project: "acme/web", name: "receiver", url: config.require("receiverUrl"), token: config.requireSecret("hookToken"), pushEvents: true });

export const hookId = hook.hookId;
export const tokenId = deployer.tokenId;
