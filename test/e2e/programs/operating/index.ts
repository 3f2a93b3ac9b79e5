/**
 * The program of the operating tests: a badge on group acme (token rotation,
 * ../../token-rotation.e2e.test.ts; with `moreResources`, three more badges
 * and a SAML group link, so that a refused token meets several, and a data
 * function), and, when config names them, objects
 * that already exist taken over with the `import` resource option
 * (../../import.e2e.test.ts): `importBadge` a badge id, `importSchedule` a
 * pipeline schedule id, `importGroupSettings` a group settings id; and
 * `adoptBadge` (any value) a badge named `adopted` taken over with
 * `adoptExisting`.
 */
import * as pulumi from "@pulumi/pulumi";
import { Badge, getMetadataOutput, GroupSettings, PipelineSchedule, SamlGroupLink } from "pulumi-platform";

const config = new pulumi.Config();

new Badge("docs", { group: "acme", name: "docs", linkUrl: "https://docs.example.com/acme", imageUrl: "https://img.example.com/docs.svg" });

if (config.getBoolean("moreResources")) {
  for (const name of ["api", "status", "coverage"]) {
    new Badge(name, { group: "acme", name, linkUrl: `https://${name}.example.com/acme`, imageUrl: `https://img.example.com/${name}.svg` });
  }
  new SamlGroupLink("developers", { group: "acme", samlGroupName: "platform-developers", accessLevel: "developer" });
  exports.platformVersion = getMetadataOutput().version;
}

const importBadge = config.get("importBadge");
if (importBadge) {
  new Badge("imported-badge", { group: "acme", name: "coverage", linkUrl: "https://ci.example.com/acme", imageUrl: "https://ci.example.com/acme/coverage.svg" }, { import: importBadge });
}

const importSchedule = config.get("importSchedule");
if (importSchedule) {
  new PipelineSchedule("imported-schedule", { project: "acme/web", description: "Nightly", ref: "main", cron: "0 3 * * *" }, { import: importSchedule });
}

const importGroupSettings = config.get("importGroupSettings");
if (importGroupSettings) {
  new GroupSettings("imported-settings", { group: "beta", description: "Beta, managed" }, { import: importGroupSettings });
}

if (config.get("adoptBadge")) {
  new Badge("adopted-badge", { group: "acme", name: "adopted", linkUrl: "https://ci.example.com/adopted", imageUrl: "https://ci.example.com/adopted.svg", adoptExisting: true });
}
