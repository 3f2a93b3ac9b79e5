/**
 * The program of ../../merge-requests.e2e.test.ts: a standing release merge
 * request, declared with values the server stores in another form (a title
 * it strips, labels it sorts and matches without regard to case, an instant
 * it writes out in full, CRLF line ends), none of which may show as a change.
 * Config `title` changes the title.
 */
import * as pulumi from "@pulumi/pulumi";
import { MergeRequest } from "pulumi-platform";

const config = new pulumi.Config();

const release = new MergeRequest("release", {
  project: "acme/web",
  sourceBranch: "release/1.x",
  targetBranch: "main",
  title: config.get("title") ?? "  Release 1.x ",
  description: "Everything on release/1.x.\r\nMerge after QA.",
  labels: ["zeta-release", "BUG"],
  mergeAfter: "2030-01-01T00:00:00Z",
});

export const iid = release.iid;
export const webUrl = release.webUrl;
