/**
 * Who may do what in a group and its projects: the group's Maintainer (a
 * membership that exists, taken over), a contractor's Developer role on one
 * project until the contract ends, a Guest of the group raised to Maintainer
 * on the project its team owns, no other direct members of that project, and
 * a group whose members may read it.
 *
 * Run it with the token of an Owner of the group. The preview refuses what
 * the server would: a role below one the user inherits from the group, the
 * Owner role given by a non-Owner, a blocked or unknown user; the review says
 * who gains or loses what ("gives guest Maintainer on project acme/web").
 *
 * Config (all optional): `group` (default acme), `project` (default
 * acme/web), `contractor` (default outsider), `contractEnds` (default
 * 2027-06-30) and `readers` (default beta), the group shared into the project.
 */
import * as pulumi from "@pulumi/pulumi";
import { ExclusiveProjectMembers, GroupMember, ProjectMember, ProjectShare } from "pulumi-platform";

const config = new pulumi.Config();
const group = config.get("group") ?? "acme";
const project = config.get("project") ?? "acme/web";

new GroupMember("maintainer", { group, user: "maintainer", accessLevel: "maintainer", adoptExisting: true });

const contractor = new ProjectMember("contractor", {
  project,
  user: config.get("contractor") ?? "outsider",
  accessLevel: "developer",
  expiresAt: config.get("contractEnds") ?? "2027-06-30",
});

// A Guest of the group, raised on the project its team owns.
const owner = new ProjectMember("web-owner", { project, user: "guest", accessLevel: "maintainer" });

export const contractorId = contractor.userId;
export const raisedBy = owner.createdBy;

// The project's direct members are these and no others; the bots of its access tokens are left alone.
new ExclusiveProjectMembers("only-these-members", { project, keep: [contractor.userId, owner.userId], ignore: ["project_*_bot*"] });

// The members of group beta may read the project: Reporter at most, whatever their role in beta.
new ProjectShare("beta-reads-web", { project, sharedWith: config.get("readers") ?? "beta", groupAccess: "reporter" });
