/**
 * Users: the token's own user (`/user`) and the users list searched by
 * username (`/users?username=`).
 */
import { z } from "zod";
import { requestsOf } from "./core";

/** A user as `/user` and the users list show it (the fields read here; the rest passes through). */
export const user = z.looseObject({ id: z.number(), username: z.string(), is_admin: z.boolean().optional() });
export type User = z.output<typeof user>;
export const userRequests = requestsOf(user);

/** The token's own user. */
export const CURRENT_USER_PATH = "/user";
export const USERS_PATH = "/users";

/** A user as lists of users show it (`UserBasic`): the fields read here; the rest passes through. */
export const userBasic = z.looseObject({
  id: z.number(),
  username: z.string(),
  name: z.string(),
  /** `active`, `blocked`, ... */
  state: z.string(),
  locked: z.boolean().optional(),
  avatar_url: z.string().nullable().optional(),
  web_url: z.string(),
});
export type UserBasic = z.output<typeof userBasic>;
