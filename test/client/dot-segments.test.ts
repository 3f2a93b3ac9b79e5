/**
 * `.` and `..` never reach a request's path. URL parsers resolve them, the
 * encoded forms too (`/a/%2E%2E/b` is `/b`), so a SAML group link named `..`
 * would be read with `GET /groups/acme/` and destroyed with
 * `DELETE /groups/acme/`. The rule (src/validation.ts) refuses such values in
 * check; the path builder refuses them as segments; the client refuses a
 * path holding one, whoever built it (a recorded or imported id).
 */
import { describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { useEmulator } from "../support";
// The rule itself is internal: the package exports what programs use.
import { DOT_SEGMENT_RULE, hasDotSegment } from "../../src/validation";

const server = useEmulator();

describe("the rule", () => {
  it("finds . and .. as a value or a segment, plain, percent-encoded (any case, nested), split by / or \\, spaced, with tabs", () => {
    for (const value of [".", "..", "%2e", "%2E", "%2e%2e", "%2E%2e", ".%2E", "%2e.", "acme/..", "acme/./web", "../acme", "acme%2f..", "acme%2F%2e%2e", "%252e%252e", "%25252e", " .. ", "..\t", ".\n.", "acme\\..", "acme%5c..", "acme/ ../web"]) {
      expect(hasDotSegment(value), JSON.stringify(value)).toBe(true);
    }
  });

  it("lets every other name through: dots inside a segment, three dots, encoded text that is no dot", () => {
    for (const value of ["acme", "acme/web", "a.b", "a..b", "...", ".hidden", "v1.2.3", "acme/web.git", "%2e%2e%2e", "50%", "a%20b", "%zz", "acme%2Fweb", "DOMAIN\\devs", ""]) {
      expect(hasDotSegment(value), JSON.stringify(value)).toBe(false);
    }
  });

  it("looks through a bounded number of decodings, so escapes of escapes cost a few passes", () => {
    // Decoding it to the end would take 200,000 passes over 400 kB (minutes): an answer at all shows the bound.
    const deep = `%${"25".repeat(200_000)}2e`;
    expect(hasDotSegment(deep)).toBe(false);
  });

  it("is worded once, naming what is refused and why", () => {
    expect(DOT_SEGMENT_RULE).toBe('must not be "." or ".." nor have one as a path segment (plain or percent-encoded, as %2e): a URL would resolve it to another address');
  });
});

describe("the path builder", () => {
  it("why encoding is not enough: the URL parser resolves %2e too", () => {
    expect(new URL("http://h/a/%2e%2e/b").pathname).toBe("/b");
    expect(new URL("http://h/a/.%2E/b").pathname).toBe("/b");
    expect(new URL("http://h/a/%2E/b").pathname).toBe("/a/b");
  });

  it("encodes / inside a segment as %2F (a full path in :id) and refuses a dot segment instead of sending it", () => {
    expect(apiPath`/projects/${"acme/web"}/badges`).toBe("/projects/acme%2Fweb/badges");
    expect(apiPath`/groups/${"a.b"}/saml_group_links/${"x y"}`).toBe("/groups/a.b/saml_group_links/x%20y");
    for (const value of ["..", ".", "%2e%2e", "acme/..", "acme%2F.."]) {
      expect(() => apiPath`/groups/${value}`, value).toThrow(/was not sent: a value in a path must not be "\." or "\.\."/);
    }
  });
});

describe("the client", () => {
  it("never sends a path holding a dot segment, however it was built", async () => {
    const client = server.as("alice");
    const requests = await server.requestsDuring(async () => {
      for (const path of ["/groups/acme/saml_group_links/..", "/groups/acme/saml_group_links/%2e%2e", "/groups/acme/saml_group_links/.%2E", "/groups/acme/./saml_group_links", "/groups/acme%2F../saml_group_links"]) {
        await expect(client.get(path), path).rejects.toThrow(/was not sent: a path must not be "\." or "\.\."/);
        await expect(client.delete(path), path).rejects.toThrow(/was not sent/);
        await expect(client.list(path), path).rejects.toThrow(/was not sent/);
      }
    });
    expect(requests).toEqual([]);
  });

  it("a query may hold anything: only the path is looked at", async () => {
    const requests = await server.requestsDuring(() => server.as("alice").get("/groups/acme", { search: "../..", with_projects: false }));
    expect(requests).toEqual([{ method: "GET", path: "/api/v4/groups/acme", status: 200 }]);
  });
});

describe("a SAML group link named ..", () => {
  const link = providers.SamlGroupLink;

  it("is refused in check, and its recorded or imported id is neither refreshed nor destroyed: no request reaches the group", async () => {
    await server.configureProviders("alice");
    const requests = await server.requestsDuring(async () => {
      for (const name of ["..", ".", "%2e%2e", "%2E%2e", ".%2E"]) {
        const checked = await link.check({}, { group: "acme", samlGroupName: name, accessLevel: "developer" });
        expect(checked.failures?.map((f) => f.reason).join("\n"), name).toContain(`samlGroupName: ${DOT_SEGMENT_RULE}`);
        // What refresh and destroy get for a link recorded (or imported) under that name.
        const id = `groups/acme/saml_group_links/${name}`;
        const outs = { group: "acme", samlGroupName: name, accessLevel: "developer" };
        await expect(link.read(id, outs), id).rejects.toThrow(/was not sent/);
        await expect(link.delete(id, outs), id).rejects.toThrow(/was not sent/);
      }
      await expect(link.read("groups/../saml_group_links/devs", {}), "an owner of ..").rejects.toThrow(/was not sent/);
    });
    expect(requests).toEqual([]);
    expect(await server.as().get<{ full_path: string }>("/groups/acme", { with_projects: false })).toMatchObject({ full_path: "acme" });
  });

  it("is refused before the preview's verification reads anything", async () => {
    await server.configureProviders("alice", { "platform:verifyAtPreview": "true" });
    try {
      const requests = await server.requestsDuring(async () => {
        for (const [group, samlGroupName] of [["acme", ".."], ["acme/..", "devs"], ["..", "devs"]]) {
          const checked = await link.check({}, { group, samlGroupName, accessLevel: "developer" });
          expect(checked.failures?.map((f) => f.reason).join("\n")).toContain(DOT_SEGMENT_RULE);
        }
      });
      expect(requests).toEqual([]);
    } finally {
      await server.configureProviders("alice");
    }
  });
});
