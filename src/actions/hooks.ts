/**
 * Webhooks: fire a hook's test event. The server delivers it at once, with
 * the hook's token and headers, and answers whether the receiver took it
 * (a 2xx): a receiver that failed, or an event that cannot be made (a push
 * test of a project without commits), is a 422 with the reason.
 */
import { z } from "zod";
import { GROUP_HOOK_EVENTS, hookNeeds, hooksPath, hookTestPath, hookTriggers } from "../api/hooks";
import { snakeCase } from "../api/fields";
import { exactlyOneOwner, ownerName, ownerReference } from "../api/owner";
import { defineAction } from "./core";

const answer = z.looseObject({ message: z.string().optional() });

/**
 * Fires a test event of a hook (`pushEvents` by default) and answers the
 * server's message (`201 Created`) once the receiver took it.
 *
 * ```ts
 * await testHook({ project: "acme/web", hookId: 7, trigger: "mergeRequestsEvents" });
 * ```
 */
export const testHook = defineAction({
  name: "testHook",
  verb: "test",
  args: z.object({
    /** The project whose hook it is (id or full path); set this or `group`. */
    project: ownerReference.optional(),
    /** The group whose hook it is (id or full path); set this or `project`. */
    group: ownerReference.optional(),
    /** The hook's id (a ProjectHook's or GroupHook's `hookId`, or see `getProjectHooks`). */
    hookId: z.number().int().positive(),
    /** The event to send, by its switch's name (`pushEvents`, `mergeRequestsEvents`, ...; `subgroupEvents`, `memberEvents`, `projectEvents` for a group's hook). */
    trigger: z.enum(GROUP_HOOK_EVENTS).default("pushEvents"),
  }),
  validate: (args) => [
    ...exactlyOneOwner(args).map(({ property, reason }) => ({ argument: property, reason: `${property}: ${reason}` })),
    ...(args.project !== undefined && !hookTriggers("project").includes(snakeCase(args.trigger))
      ? [{ argument: "trigger", reason: `trigger: ${args.trigger} is a group hook's event; a project's hook has no such switch` }]
      : []),
  ],
  subject: (args) => `hook ${args.hookId} of ${ownerName(args)}`,
  needs: (args) => (args.project !== undefined ? hookNeeds("project", args.project) : hookNeeds("group", args.group!)),
  refusals: {
    404: () => "Check the hook's id: the owner has no such hook.",
    422: () => "The receiver did not take the event (its answer was not a 2xx, or it could not be reached), or the event cannot be made (a push test needs a commit in the project); the server's reason is above.",
    429: () => "The server allows a few tests a minute per hook and user; try again in a minute.",
  },
  async run(call, args) {
    const path = hookTestPath(`${hooksPath(args)}/${args.hookId}`, snakeCase(args.trigger));
    return call.checked(answer, await call.client.post<unknown>(path, {}));
  },
});
