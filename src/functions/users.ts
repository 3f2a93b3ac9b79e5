/**
 * Users by username: `GET /users?username=` (one user, matched without
 * regard to case) and `GET /users` with `search` (part of a username or a
 * name, or a whole email address). A signed-in caller sees every active user;
 * the answers are the basic fields (`UserBasic`).
 */
import { z } from "zod";
import { USERS_PATH, userBasic } from "../api/users";
import { ExplainedError } from "../engine/errors";
import { defineComposedFunction, defineListFunction, type Camelized } from "./core";

export type UserInfo = Camelized<z.output<typeof userBasic>>;

const USERNAME_RULE = "must be a username such as alice";
/** A username, as the server's usernames are written. */
const username = z.string().regex(/^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/, { message: USERNAME_RULE });

const user = defineComposedFunction({
  name: "getUser",
  args: z.object({
    /** The user's username (any case). */
    username,
  }),
  subject: (args) => `user ${args.username}`,
  async run(read, args): Promise<UserInfo> {
    const [found] = await read.list(USERS_PATH, { username: args.username }, userBasic, 1);
    if (found === undefined) throw new ExplainedError(`getUser: no user has the username ${args.username} (GET ${USERS_PATH}?username= answered none). Check the username.`);
    return found;
  },
});

/**
 * One user by username, or an error naming it when there is none.
 *
 * ```ts
 * const dev = await getUser({ username: "dev" });
 * export const devId = dev.id;
 * ```
 */
export const getUser = user;
/** `getUser` as an Output. */
export const getUserOutput = user.output;

const users = defineListFunction({
  name: "getUsers",
  args: z.object({
    /** Only the user with this username (any case): a list of one, or none. */
    username: username.optional(),
    /** Users whose username or name contains this text (any case), or whose email is this address. */
    search: z.string().min(1).optional(),
  }),
  path: () => USERS_PATH,
  query: (args) => ({ username: args.username, search: args.search }),
  subject: (args) => (args.username !== undefined ? `the user ${args.username}` : args.search !== undefined ? `the users matching ${args.search}` : "the users"),
  item: userBasic,
});

/**
 * Users, by username or by a search; `limit` caps how many are read.
 *
 * ```ts
 * const bots = await getUsers({ search: "bot", limit: 20 });
 * ```
 */
export const getUsers = users;
/** `getUsers` as an Output. */
export const getUsersOutput = users.output;
