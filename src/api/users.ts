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
