/**
 * The program of the verify-at-preview test (../../verify-at-preview.e2e.test.ts),
 * run with the token of alice (Owner of acme and of the Free group beta,
 * Developer of the Premium group ops). Each resource passes the static checks
 * and would be refused by the server at `up`, for its own reason. Config
 * `declare` (names, comma-separated) declares only those; default all five.
 */
import * as pulumi from "@pulumi/pulumi";
import { Badge, GroupSettings, SamlGroupLink } from "pulumi-platform";

const declared = (new pulumi.Config().get("declare") ?? "missing-group,too-low-role,too-low-tier,gated-setting,existing").split(",");
const badge = { linkUrl: "https://ci.example.com/%{project_path}", imageUrl: "https://ci.example.com/%{project_path}/badge.svg" };

// A group that does not exist.
if (declared.includes("missing-group")) new Badge("missing-group", { group: "acme/missing", ...badge });
// A role too low: SAML group links need an Owner.
if (declared.includes("too-low-role")) new SamlGroupLink("too-low-role", { group: "ops", samlGroupName: "ops-developers", accessLevel: "developer" });
// A tier too low: SAML group links need Premium.
if (declared.includes("too-low-tier")) new SamlGroupLink("too-low-tier", { group: "beta", samlGroupName: "beta-developers", accessLevel: "developer" });
// A setting of a tier too low: membership lock needs Premium.
if (declared.includes("gated-setting")) new GroupSettings("gated-setting", { group: "beta", membershipLock: true });
// An object that already exists: the test makes this badge out of band.
if (declared.includes("existing")) new Badge("existing", { project: "acme/web", name: "pipeline", ...badge });
