/**
 * Several servers in one program: a resource's `connection` argument, driven
 * through `providers.<Name>` exactly as the engine calls them, with two
 * emulators (the stack's server and another one); and the data functions'
 * `connection` option against both.
 */
import { describe, expect, it } from "vitest";
import * as pulumi from "@pulumi/pulumi";
import { getBadges, getBadgesOutput, providers } from "pulumi-platform";
import { tokenOf, useEmulator, type TestServer } from "../support";

const stackServer = useEmulator();
const otherServer = useEmulator();

const badge = { project: "acme/web", linkUrl: "https://ci.example.com/%{project_path}", imageUrl: "https://ci.example.com/badge.svg" };
const connectionTo = (server: TestServer, username = "root") => ({ url: server.emulator.url, token: tokenOf(server.emulator, username) });
const badgesOn = (server: TestServer) => server.as().list<{ id: number; link_url: string }>(`/projects/acme%2Fweb/badges`);

describe("a resource's own connection", () => {
  it("check keeps it in the inputs; create, read, update and delete all go to its server, none to the stack's", async () => {
    await stackServer.configureProviders();
    const connection = connectionTo(otherServer);
    const stackRequests = await stackServer.requestsDuring(async () => {
      const checked = await providers.Badge.check({}, { ...badge, connection });
      expect(checked.failures ?? []).toEqual([]);
      expect(checked.inputs.connection).toEqual(connection);

      const { id, outs } = await providers.Badge.create(checked.inputs);
      expect(outs.connection).toEqual(connection);
      expect((await badgesOn(otherServer)).map((b) => String(b.id))).toHaveLength(1);

      const read = await providers.Badge.read(id, outs);
      expect(read.id).toBe(id);
      expect(read.props?.connection).toEqual(connection);
      expect(read.inputs?.connection).toEqual(connection);

      const changed = { ...checked.inputs, linkUrl: "https://ci.example.com/other" };
      const updated = await providers.Badge.update(id, read.props!, changed);
      expect(updated.outs?.connection).toEqual(connection);
      expect((await badgesOn(otherServer)).map((b) => b.link_url)).toEqual(["https://ci.example.com/other"]);

      await providers.Badge.delete(id, updated.outs!);
      expect(await badgesOn(otherServer)).toEqual([]);
    });
    expect(stackRequests).toEqual([]);
  });

  it("the same declaration without a connection goes to the stack's server", async () => {
    await stackServer.configureProviders();
    const otherRequests = await otherServer.requestsDuring(async () => {
      const { id, outs } = await providers.Badge.create((await providers.Badge.check({}, badge)).inputs);
      expect(outs.connection).toBeUndefined();
      expect(await badgesOn(stackServer)).toHaveLength(1);
      await providers.Badge.delete(id, outs);
    });
    expect(otherRequests).toEqual([]);
  });

  it("diff: another URL replaces, a rotated token updates in place (changes unknown: the engine names the masked change), the same connection is no change", async () => {
    await stackServer.configureProviders();
    const recorded = { ...badge, badgeId: 1, connection: connectionTo(otherServer) };
    const same = await providers.Badge.diff("project:acme%2Fweb:1", recorded, { ...badge, connection: connectionTo(otherServer) });
    expect(same.changes).toBe(false);
    expect(same.replaces ?? []).toEqual([]);

    const rotated = await providers.Badge.diff("project:acme%2Fweb:1", recorded, { ...badge, connection: { ...connectionTo(otherServer), token: "glpat-rotated-0001" } });
    expect(rotated.changes).toBeUndefined();
    expect(rotated.replaces ?? []).toEqual([]);

    const moved = await providers.Badge.diff("project:acme%2Fweb:1", recorded, { ...badge, connection: connectionTo(stackServer) });
    expect(moved.changes).toBe(true);
    expect(moved.replaces).toEqual(["connection"]);

    // Dropping the connection means the stack's server: another server here.
    const dropped = await providers.Badge.diff("project:acme%2Fweb:1", recorded, { ...badge });
    expect(dropped.replaces).toEqual(["connection"]);
    // Naming the stack's own server explicitly (a trailing slash aside) is no move.
    const explicit = await providers.Badge.diff("project:acme%2Fweb:1", { ...badge, badgeId: 1 }, { ...badge, connection: { ...connectionTo(stackServer), url: `${stackServer.emulator.url}/` } });
    expect(explicit.replaces ?? []).toEqual([]);
  });

  it("a rotated token takes effect at the update, which records it; refresh and delete then use it", async () => {
    await stackServer.configureProviders();
    const first = connectionTo(otherServer, "root");
    const { id, outs } = await providers.Badge.create((await providers.Badge.check({}, { ...badge, connection: first })).inputs);
    // The "rotation": another token with the rights needed (a Maintainer of acme/web's).
    const second = connectionTo(otherServer, "maintainer");
    const updated = await providers.Badge.update(id, outs, { ...badge, connection: second });
    expect(updated.outs?.connection).toEqual(second);
    const requests = await otherServer.requestsDuring(async () => {
      expect((await providers.Badge.read(id, updated.outs!)).id).toBe(id);
      await providers.Badge.delete(id, updated.outs!);
    });
    expect(requests.map((r) => r.status)).toEqual([200, 204]);
    expect(await badgesOn(otherServer)).toEqual([]);
  });

  it("a settings resource (GroupSettings) on another server: its prior value recorded there, a rotated token updated in place, given back there on delete", async () => {
    await stackServer.configureProviders();
    const admin = otherServer.as();
    const before = (await admin.get<{ require_two_factor_authentication: boolean }>(`/groups/acme`)).require_two_factor_authentication;
    const declared = { group: "acme", requireTwoFactorAuthentication: !before };
    const checked = await providers.GroupSettings.check({}, { ...declared, connection: connectionTo(otherServer, "alice") });
    expect(checked.failures ?? []).toEqual([]);
    const { id, outs } = await providers.GroupSettings.create(checked.inputs);
    expect((await admin.get<{ require_two_factor_authentication: boolean }>(`/groups/acme`)).require_two_factor_authentication).toBe(!before);
    expect((await stackServer.as().get<{ require_two_factor_authentication: boolean }>(`/groups/acme`)).require_two_factor_authentication).toBe(before);
    const rotated = { ...declared, connection: connectionTo(otherServer, "root") };
    const diff = await providers.GroupSettings.diff(id, outs, rotated);
    expect(diff.replaces ?? []).toEqual([]);
    const updated = await providers.GroupSettings.update(id, outs, rotated);
    expect(updated.outs?.connection).toEqual(connectionTo(otherServer, "root"));
    await providers.GroupSettings.delete(id, updated.outs!);
    expect((await admin.get<{ require_two_factor_authentication: boolean }>(`/groups/acme`)).require_two_factor_authentication).toBe(before);
  });

  it("an incomplete or unusable connection fails at check, naming connection.<setting>, before any request", async () => {
    await stackServer.configureProviders();
    const cases: [Record<string, unknown>, string][] = [
      [{ url: otherServer.emulator.url }, "it needs an access token (connection.token)"],
      [{ url: "ftp://example.com", token: "x" }, 'connection.url must be an http(s) URL such as https://platform.example.com; got "ftp://example.com"'],
      [{ ...connectionTo(otherServer), caCertificate: "/nonexistent/ca.pem" }, "connection.caCertificate: cannot read the file /nonexistent/ca.pem (ENOENT)"],
      [{ ...connectionTo(otherServer), clientKey: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----" }, "connection.clientKey is set without connection.clientCertificate"],
    ];
    for (const [connection, message] of cases) {
      const requests = await otherServer.requestsDuring(async () => {
        const result = await providers.Badge.check({}, { ...badge, connection });
        expect(result.failures?.[0]?.reason).toContain(message);
      });
      expect(requests).toEqual([]);
    }
  });

  it("the connection's token is masked in messages, even when the server repeats it", async () => {
    await stackServer.configureProviders();
    // Not the stack's token (both emulators' seeds give root the same one): only the connection's own is masked here.
    const connection = connectionTo(otherServer, "alice");
    otherServer.emulator.inject({ method: "POST", status: 422, body: { message: `token ${connection.token} may not create badges` }, times: 1 });
    const error = (await providers.Badge.create({ ...badge, connection }).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain("token [secret] may not create badges");
    expect(error.message).not.toContain(connection.token);
  });

  it("a connection not known yet at preview (built from outputs): no failure, no request; an unknown URL may be another server", async () => {
    await stackServer.configureProviders();
    const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    const requests = await otherServer.requestsDuring(async () => {
      for (const connection of [UNKNOWN, { url: UNKNOWN, token: UNKNOWN }, { url: otherServer.emulator.url, token: UNKNOWN }]) {
        const checked = await providers.Badge.check({}, { ...badge, connection });
        expect(checked.failures ?? []).toEqual([]);
        expect(checked.inputs.connection).toEqual(connection);
      }
    });
    expect(requests).toEqual([]);
    const recorded = { ...badge, badgeId: 1, connection: connectionTo(otherServer) };
    expect((await providers.Badge.diff("project:acme%2Fweb:1", recorded, { ...badge, connection: { url: UNKNOWN, token: UNKNOWN } })).replaces).toEqual(["connection"]);
    const tokenPending = await providers.Badge.diff("project:acme%2Fweb:1", recorded, { ...badge, connection: { url: otherServer.emulator.url, token: UNKNOWN } });
    expect(tokenPending.replaces ?? []).toEqual([]);
    expect(tokenPending.changes).toBeUndefined();
  });

  it("a connection's server that does not answer is named as connection.url", async () => {
    await stackServer.configureProviders();
    const error = (await providers.Badge.create({ ...badge, connection: { url: "http://127.0.0.1:9", token: "x", retryTimeout: 1 } }).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain("no answer from the server");
    expect(error.message).toContain("Check that connection.url points at a running server");
  });

  it("a token the connection's server refuses is named as the connection's, not the stack's", async () => {
    await stackServer.configureProviders();
    const error = (await providers.Badge.create({ ...badge, connection: { url: otherServer.emulator.url, token: "glpat-revoked-0042" } }).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain("401");
    expect(error.message).toContain("The server refused the token in the connection given (connection.token): it is mistyped, expired or revoked; give a valid one.");
    expect(error.message).not.toContain("platform:token");
  });
});

describe("data functions against two servers", () => {
  it("the Promise form reads the stack's server, or the connection given", async () => {
    await stackServer.configureProviders();
    const onOther = await otherServer.as().post<{ id: number }>(`/projects/acme%2Fweb/badges`, { link_url: "https://other.example.com", image_url: "https://other.example.com/b.svg" });
    try {
      expect(await getBadges({ project: "acme/web" })).toEqual([]);
      const found = await getBadges({ project: "acme/web" }, { connection: connectionTo(otherServer) });
      expect(found.map((b) => b.id)).toEqual([onOther.id]);
      // With a token the other server does not know: its refusal, the token masked.
      const refused = (await getBadges({ project: "acme/web" }, { connection: { url: otherServer.emulator.url, token: "glpat-unknown-token-77" } }).catch((e: unknown) => e)) as Error;
      expect(refused.message).toContain("401");
      expect(refused.message).not.toContain("glpat-unknown-token-77");
    } finally {
      await otherServer.as().delete(`/projects/acme%2Fweb/badges/${onOther.id}`);
    }
  });

  it("the Output form takes the connection as inputs, a secret token included, and its result is not made secret by it", async () => {
    await stackServer.configureProviders();
    const onOther = await otherServer.as().post<{ id: number }>(`/projects/acme%2Fweb/badges`, { link_url: "https://other.example.com", image_url: "https://other.example.com/b.svg" });
    try {
      const connection = { url: pulumi.output(otherServer.emulator.url), token: pulumi.secret(tokenOf(otherServer.emulator, "root")) };
      const result = getBadgesOutput({ project: "acme/web" }, { connection });
      expect(await pulumi.isSecret(result)).toBe(false);
      const ids = await new Promise<number[]>((resolve) => result.apply((badges) => resolve(badges.map((b) => b.id))));
      expect(ids).toEqual([onOther.id]);
    } finally {
      await otherServer.as().delete(`/projects/acme%2Fweb/badges/${onOther.id}`);
    }
  });
});
