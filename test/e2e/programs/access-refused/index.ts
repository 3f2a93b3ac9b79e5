/**
 * Memberships the server would refuse, each to be refused at preview:
 * dev inherits Developer from acme, so a direct Reporter role on acme/web is
 * below it; and, run with a Developer's token, adding anyone needs Maintainer.
 */
import * as pulumi from "@pulumi/pulumi";
import { ProjectMember } from "pulumi-platform";

const config = new pulumi.Config();

if (config.getBoolean("belowInherited") ?? true) new ProjectMember("below-inherited", { project: "acme/web", user: "dev", accessLevel: "reporter" });
new ProjectMember("contractor", { project: "acme/web", user: "outsider", accessLevel: "developer" });
