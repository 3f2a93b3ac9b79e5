/**
 * The program of the derived secrets test (../../derived-secrets.e2e.test.ts):
 * a project badge whose `linkUrl` the program gives as `pulumi.secret(...)`
 * (the value planted here, and in the test); the server renders it into
 * `renderedLinkUrl`, which must stay as secret. The image URL is plain, and
 * so is what the server renders of it.
 */
import * as pulumi from "@pulumi/pulumi";
import { Badge } from "pulumi-platform";

const badge = new Badge("scan", {
  project: "acme/web",
  name: "security-scan",
  linkUrl: pulumi.secret("https://scan.example.com/%{project_path}?key=derived-secret-link-5b8e0d"),
  imageUrl: "https://scan.example.com/%{project_path}/badge.svg",
});

export const rendered = badge.renderedLinkUrl;
export const image = badge.renderedImageUrl;
