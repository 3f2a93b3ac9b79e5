/** What the members' and shares' tests share: users of their own, and the engine's check and create as a user. */
import { expect } from "vitest";
import type { providers } from "pulumi-platform";
import type { TestServer } from "../support";

type Provider = (typeof providers)[keyof typeof providers];

/** A user added to the emulator's state, as an administrator would add one (none exists twice). */
export function addUser(server: TestServer, username: string, options: { blocked?: boolean } = {}): { username: string; id: number } {
  const { state } = server.emulator;
  const found = state.userByUsername(username);
  if (found) return { username, id: found.id };
  const id = state.nextId("users");
  state.users.push({ id, username, name: username, email: `${username}@example.test`, isAdmin: false, tokens: [], createdAt: "2024-01-01T00:00:00.000Z", ...options });
  return { username, id };
}

/** check, then create, as the engine does: the id, the checked inputs and the outputs. */
export async function checkAndCreate(provider: Provider, inputs: Record<string, unknown>) {
  const checked = await provider.check({}, inputs);
  expect(checked.failures ?? []).toEqual([]);
  const created = await provider.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Record<string, unknown>, outs: created.outs as Record<string, unknown> };
}

/** A preview's check as `user`, verifying at preview: its failures' reasons. */
export async function previewFailures(server: TestServer, provider: Provider, user: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<string[]> {
  await server.configureProviders(user, { "platform:verifyAtPreview": "true" });
  try {
    return ((await provider.check(olds, news)).failures ?? []).map((failure) => failure.reason);
  } finally {
    await server.configureProviders();
  }
}

/** A preview's step on an existing object as `user`: check, then diff (which verifies what only the object's id tells); the reasons of either. */
export async function previewStepFailures(server: TestServer, provider: Provider, user: string, id: string, state: Record<string, unknown>, news: Record<string, unknown>): Promise<string[]> {
  await server.configureProviders(user, { "platform:verifyAtPreview": "true" });
  try {
    const checked = await provider.check(state, news);
    if (checked.failures?.length) return checked.failures.map((failure) => failure.reason);
    return await provider.diff(id, state, checked.inputs).then(
      () => [],
      (error: Error) => [error.message],
    );
  } finally {
    await server.configureProviders();
  }
}
