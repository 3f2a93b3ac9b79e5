/** A project's merge request approval settings (Premium and Ultimate). */
import { z } from "zod";
import { approvalSettings, approvalSettingsNeeds, approvalSettingsOf } from "../api/approval-settings";
import { ownerReference } from "../api/owner";
import { defineObjectFunction, type Camelized } from "./core";

export type ProjectApprovalSettingsInfo = Camelized<z.output<typeof approvalSettings>>;

const settings = defineObjectFunction({
  name: "getProjectApprovalSettings",
  args: z.object({
    /** The project (id or full path). */
    project: ownerReference,
  }),
  path: (args) => approvalSettingsOf(args.project),
  subject: (args) => `the merge request approval settings of project ${args.project}`,
  needs: (args) => approvalSettingsNeeds(args, "read"),
  result: approvalSettings,
});

/**
 * A project's merge request approval settings, as `ProjectApprovalSettings` manages them.
 *
 * ```ts
 * const { resetApprovalsOnPush } = await getProjectApprovalSettings({ project: "acme/web" });
 * ```
 */
export const getProjectApprovalSettings = settings;
/** `getProjectApprovalSettings` as an Output. */
export const getProjectApprovalSettingsOutput = settings.output;
