/**
 * CI job tokens in the emulator, driven by @gitbeaker/rest configured with
 * `jobToken` (it sends `JOB-TOKEN`): the token reaches its own project's
 * container registry with its user's role, nothing else.
 */
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

const seed: Seed = {
  ...defaultSeed,
  jobTokens: [
    { token: "glcbt-web-maintainer-job", project: "acme/web", user: "maintainer" },
    { token: "glcbt-web-dev-job", project: "acme/web", user: "dev" },
    { token: "glcbt-web-finished-job", project: "acme/web", user: "maintainer", status: "success" },
  ],
};
const server = useEmulator({ seed });
const registryOf = (jobToken: string) => new Gitlab({ host: server.emulator.url, jobToken }).ContainerRegistry;
const projectsOf = (jobToken: string) => new Gitlab({ host: server.emulator.url, jobToken }).Projects;
const statusOf = (promise: Promise<unknown>) => promise.then(() => 200, (error: { cause?: { response?: { status?: number } } }) => error.cause?.response?.status);

describe("@gitbeaker/rest with a job token", () => {
  it("lists, reads and deletes in its own project's registry, with the role of the user who ran the pipeline", async () => {
    const registry = registryOf("glcbt-web-maintainer-job");
    expect((await registry.allRepositories({ projectId: "acme/web" })).map((r) => r.path)).toEqual(["acme/web", "acme/web/api-server"]);
    expect(await registry.allTags("acme/web", 2)).toHaveLength(12);
    expect(await registry.showTag("acme/web", 2, "main-1a2b3c4d")).toMatchObject({ name: "main-1a2b3c4d" });
    await registry.removeTag("acme/web", 2, "main-1a2b3c4d");
    expect((await registry.allTags("acme/web", 2)).map((t) => t.name)).not.toContain("main-1a2b3c4d");
  });

  it("a Developer's job may not delete a protected tag or a repository (403), as the Developer may not", async () => {
    const registry = registryOf("glcbt-web-dev-job");
    expect(await statusOf(registry.removeTag("acme/web", 2, "v1.0.0"))).toBe(403);
    expect(await statusOf(registry.removeRepository("acme/web", 2))).toBe(403);
  });

  it("another project's registry is hidden (404); the rest of the API ignores the token (anonymous: 404 on a private project)", async () => {
    expect(await statusOf(registryOf("glcbt-web-maintainer-job").allRepositories({ projectId: "acme/api" }))).toBe(404);
    expect(await statusOf(projectsOf("glcbt-web-maintainer-job").show("acme/web"))).toBe(404);
  });

  it("an unknown token, or one whose job has finished, is 401", async () => {
    expect(await statusOf(registryOf("glcbt-web-finished-job").allRepositories({ projectId: "acme/web" }))).toBe(401);
    expect(await statusOf(registryOf("glcbt-nobody").allRepositories({ projectId: "acme/web" }))).toBe(401);
  });

  it("/jwt/auth takes it as gitlab-ci-token's password and grants only its project's images", async () => {
    const auth = (scope: string, password = "glcbt-web-maintainer-job") =>
      fetch(`${server.emulator.url}/jwt/auth?service=container_registry&scope=${encodeURIComponent(scope)}`, {
        headers: { authorization: `Basic ${Buffer.from(`gitlab-ci-token:${password}`).toString("base64")}` },
      }).then(async (res) => ({ status: res.status, access: res.ok ? JSON.parse(Buffer.from(((await res.json()) as { token: string }).token.split(".")[1]!, "base64url").toString()).access : undefined }));
    expect(await auth("repository:acme/web/api-server:pull,delete")).toEqual({ status: 200, access: [{ type: "repository", name: "acme/web/api-server", actions: ["pull", "delete"] }] });
    expect(await auth("repository:acme/platform/infra/tools:pull")).toEqual({ status: 200, access: [] });
    expect((await auth("repository:acme/web:pull", "glcbt-web-finished-job")).status).toBe(401);
  });
});
