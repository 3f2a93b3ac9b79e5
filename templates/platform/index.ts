// A first pulumi-platform program: a badge on a project, and the server's version.
// Start the emulator in another terminal (`npm run emulator`), then `npm run pulumi -- up`.
import * as pulumi from "@pulumi/pulumi";
import { Badge, getMetadataOutput } from "pulumi-platform";

const config = new pulumi.Config();
// The project that gets the badge; acme/web exists on the emulator.
const project = config.get("project") ?? "acme/web";

const pipeline = new Badge("pipeline", {
  project,
  name: "pipeline",
  linkUrl: "https://ci.example.com/%{project_path}",
  imageUrl: "https://ci.example.com/%{project_path}/badge.svg",
});

export const badgeId = pipeline.id;
export const platformVersion = getMetadataOutput().version;
