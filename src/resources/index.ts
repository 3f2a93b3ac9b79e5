/** Every resource the provider offers; add a resource module here. */
import type { AnyResourceDefinition } from "../engine/definition";
import { badgeDefinition } from "./badge";

export const definitions = {
  Badge: badgeDefinition,
} satisfies Record<string, AnyResourceDefinition>;

export type ResourceKind = keyof typeof definitions;
