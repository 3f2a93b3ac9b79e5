// A first pulumi-platform program: a badge on a project, and the server's version.
// Start the emulator in another terminal (`npm run emulator`), then `npm run pulumi -- up`.
import * as pulumi from "@pulumi/pulumi";
import { Badge, getMetadataOutput } from "pulumi-platform";

const config = new pulumi.Config();
// The project that gets the badge: each stack's own (Pulumi.<stack>.yaml: dev's acme/web,
// prod's acme/api, both on the emulator), so that two stacks never make the same badge.
const project = config.get("project") ?? "acme/web";

const pipeline = new Badge("pipeline", {
  project,
  name: "pipeline",
  linkUrl: "https://ci.example.com/%{project_path}",
  imageUrl: "https://ci.example.com/%{project_path}/badge.svg",
});

export const badgeId = pipeline.id;
export const platformVersion = getMetadataOutput().version;
