import { describe, expect, it } from "vitest";
import { defaultSeed, stateFromSeed, type Seed } from "../../src/emulator";
import { call, useEmulator } from "./helpers";

/**
 * The default seed plus a Reporter on acme/web, and a public project in an
 * Ultimate group (where non-members may read dependencies).
 */
const seed: Seed = {
  ...defaultSeed,
  users: [...(defaultSeed.users ?? []), { username: "reporter", token: "glpat-reporter-token" }],
  groups: [
    ...(defaultSeed.groups ?? []),
    { path: "open", visibility: "public", tier: "ultimate", members: { dev: 30, guest: 10 } },
  ],
  projects: [
    ...(defaultSeed.projects ?? []).map((p) => (p.path === "web" ? { ...p, members: { reporter: 20 } } : p)),
    { path: "lib", namespace: "open", visibility: "public" },
  ],
  securityReports: {
    ...(defaultSeed["securityReports"] as object),
    "open/lib": {
      dependencies: [
        {
          name: "left-pad",
          version: "1.3.0",
          packageManager: "npm",
          path: "package-lock.json",
          vulnerabilities: [{ name: "Too short", severity: "low" }],
        },
      ],
    },
  },
};

const server = useEmulator({ seed });

const WEB = "/projects/acme%2Fweb";
const SITE = "/projects/beta%2Fsite";
const LIB = "/projects/open%2Flib";

const findings = (query = "", as = "dev") => call(server.emulator, `${WEB}/vulnerability_findings${query}`, { as });
const names = (body: { name: string }[]) => body.map((f) => f.name);

describe("GET /projects/:id/vulnerability_findings", () => {
  it("answers the latest default-branch pipeline's findings, dismissed ones hidden, highest severity first", async () => {
    const result = await findings();
    expect(result.status).toBe(200);
    expect(result.body.map((f: { severity: string }) => f.severity)).toEqual([
      "critical", "high", "high", "medium", "low", "unknown", "info",
    ]);
    expect(names(result.body)).not.toContain("Hard-coded password");
    expect(result.headers.get("x-total")).toBe("7");
  });

  it("answers every field of spec part 2.4", async () => {
    const { body } = await findings("?report_type=sast");
    const web = server.emulator.state.projectByFullPath("acme/web")!;
    expect(body).toHaveLength(1);
    expect(body[0]).toEqual({
      id: 7001,
      report_type: "sast",
      name: "Cross-site scripting in comment view",
      severity: "high",
      scanner: { external_id: "semgrep", name: "Semgrep", vendor: "GitLab" },
      identifiers: [
        { external_type: "cwe", external_id: "79", name: "CWE-79", url: "https://cwe.mitre.org/data/definitions/79.html" },
      ],
      uuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      create_jira_issue_url: null,
      false_positive: false,
      create_vulnerability_feedback_issue_path: "/acme/web/-/vulnerability_feedback",
      create_vulnerability_feedback_merge_request_path: "/acme/web/-/vulnerability_feedback",
      create_vulnerability_feedback_dismissal_path: "/acme/web/-/vulnerability_feedback",
      project: { id: web.id, name: "Web", full_path: "/acme/web", full_name: "Acme / Web" },
      dismissal_feedback: null,
      issue_feedback: null,
      merge_request_feedback: null,
      description: "User input is rendered without escaping.",
      links: [],
      location: { file: "src/views/comment.js", start_line: 17, class: "CommentView", method: "render" },
      remediations: [],
      solution: "Escape the comment body.",
      evidence: null,
      request: null,
      response: null,
      evidence_source: null,
      supporting_messages: [],
      assets: [],
      details: {},
      state: "detected",
      scan: { type: "sast", status: "success", start_time: "2024-05-02T10:00:00.000Z", end_time: "2024-05-02T10:05:00.000Z" },
      blob_path: `/acme/web/-/blob/${web.lastCommitSha}/src/views/comment.js`,
    });
  });

  it("shows dismissed findings with scope=all, with their dismissal feedback", async () => {
    const result = await findings("?scope=all");
    expect(result.body).toHaveLength(8);
    const dismissed = result.body.find((f: { name: string }) => f.name === "Hard-coded password");
    expect(dismissed.state).toBe("dismissed");
    expect(dismissed.false_positive).toBe(true);
    expect(dismissed.dismissal_feedback).toMatchObject({
      feedback_type: "dismissal",
      category: "sast",
      finding_uuid: dismissed.uuid,
      dismissal_reason: "false_positive",
      author: { username: "alice" },
      comment_details: { comment: "Test fixture, not a real secret." },
      pipeline: { id: 1002, path: "/acme/web/-/pipelines/1002" },
    });
    expect((await findings("?scope=dismissed")).body).toHaveLength(7);
  });

  it("filters by report type and severity, comma-separated or repeated []", async () => {
    const dast = await findings("?report_type=dast");
    expect(dast.body.every((f: { report_type: string }) => f.report_type === "dast")).toBe(true);
    expect(dast.body).toHaveLength(2);
    const two = await findings("?report_type=container_scanning,dependency_scanning");
    expect(two.body).toHaveLength(4);
    const repeated = await findings("?report_type[]=container_scanning&report_type[]=dependency_scanning");
    expect(names(repeated.body)).toEqual(names(two.body));
    const critical = await findings("?severity=critical");
    expect(names(critical.body)).toEqual(["CVE-2023-4911 in glibc"]);
    const both = await findings("?severity=high,medium&report_type=sast&scope=all");
    expect(names(both.body)).toEqual(["Cross-site scripting in comment view", "Hard-coded password"]);
    expect((await findings("?report_type=sast&severity=info")).body).toEqual([]);
  });

  it("answers another pipeline's findings by pipeline_id, and an empty list for an unknown pipeline", async () => {
    const first = await findings("?pipeline_id=1001");
    expect(names(first.body)).toEqual(["SQL injection in report query", "Prototype pollution in lodash"]);
    expect((await findings("?pipeline_id=999999")).body).toEqual([]);
    expect((await findings("?pipeline_id=abc")).status).toBe(200);
  });

  it("answers Grape's 400 for values outside the lists, naming every bad parameter", async () => {
    expect((await findings("?report_type=secret_scanning")).body).toEqual({ error: "report_type does not have a valid value" });
    expect((await findings("?report_type=sast,nope")).status).toBe(400);
    expect((await findings("?severity=severe")).body).toEqual({ error: "severity does not have a valid value" });
    expect((await findings("?scope=none")).body).toEqual({ error: "scope does not have a valid value" });
    const all = await findings("?report_type=x&scope=y&severity=z");
    expect(all.status).toBe(400);
    expect(all.body).toEqual({
      error: "report_type does not have a valid value, scope does not have a valid value, severity does not have a valid value",
    });
    expect((await findings("?per_page=0")).body).toEqual({ error: "per_page does not have a valid value" });
  });

  it("gates: 401 anonymous (before parameters), 404 outsider, 403 guest and reporter, 200 developer+", async () => {
    const anonymous = await findings("?report_type=nope", null as unknown as string);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: "401 Unauthorized" });
    expect((await findings("", "outsider")).body).toEqual({ message: "404 Project Not Found" });
    for (const user of ["guest", "reporter"]) {
      const refused = await findings("", user);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ message: "403 Forbidden" });
    }
    for (const user of ["dev", "maintainer", "alice", "root"]) expect((await findings("", user)).status).toBe(200);
  });

  it("refuses a project below Ultimate with 403, even to its owner", async () => {
    const result = await call(server.emulator, `${SITE}/vulnerability_findings`, { as: "alice" });
    expect(result.status).toBe(403);
    expect(result.body).toEqual({ message: "403 Forbidden" });
  });
});

const dependencies = (path: string, query = "", as = "dev") => call(server.emulator, `${path}/dependencies${query}`, { as });

describe("GET /projects/:id/dependencies", () => {
  it("answers every field of spec part 2.5, with vulnerabilities for a developer", async () => {
    const result = await dependencies(WEB);
    expect(result.status).toBe(200);
    expect(result.body).toHaveLength(10);
    expect(result.body[1]).toEqual({
      name: "lodash",
      version: "4.17.20",
      package_manager: "npm",
      dependency_file_path: "package-lock.json",
      vulnerabilities: [
        { name: "Prototype pollution in lodash", severity: "high", id: 7002, url: "https://platform.example.test/acme/web/-/security/vulnerabilities/7002" },
      ],
      licenses: [{ name: "MIT", url: "https://opensource.org/licenses/MIT" }],
    });
    expect(result.body[0].vulnerabilities).toEqual([]);
  });

  it("leaves vulnerabilities out for a reporter, who may read the repository but not the security dashboard", async () => {
    const result = await dependencies(WEB, "", "reporter");
    expect(result.status).toBe(200);
    expect(result.body[1]).not.toHaveProperty("vulnerabilities");
    expect(Object.keys(result.body[1])).toEqual(["name", "version", "package_manager", "dependency_file_path", "licenses"]);
  });

  it("filters by package manager, comma-separated or repeated []", async () => {
    const pip = await dependencies(WEB, "?package_manager=pip");
    expect(names(pip.body)).toEqual(["requests", "flask", "pyyaml"]);
    const goAndPip = await dependencies(WEB, "?package_manager=go,pip");
    expect(goAndPip.body).toHaveLength(6);
    const repeated = await dependencies(WEB, "?package_manager[]=go&package_manager[]=pip");
    expect(names(repeated.body)).toEqual(names(goAndPip.body));
    expect((await dependencies(WEB, "?package_manager=maven")).body).toEqual([]);
  });

  it("answers 400 for a package manager outside the fourteen", async () => {
    const result = await dependencies(WEB, "?package_manager=npm,cargo");
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: "package_manager does not have a valid value" });
  });

  it("gates: 401 anonymous, 404 outsider, 403 guest of a private project, 200 reporter+", async () => {
    expect((await dependencies(WEB, "", null as unknown as string)).status).toBe(401);
    expect((await dependencies(WEB, "", "outsider")).status).toBe(404);
    expect((await dependencies(WEB, "", "guest")).body).toEqual({ message: "403 Forbidden" });
    for (const user of ["reporter", "dev", "maintainer", "alice", "root"]) {
      expect((await dependencies(WEB, "", user)).status).toBe(200);
    }
  });

  it("on a public Ultimate project, lets non-members and guests read dependencies without vulnerabilities", async () => {
    for (const user of ["outsider", "guest"]) {
      const result = await dependencies(LIB, "", user);
      expect(result.status).toBe(200);
      expect(result.body[0]).not.toHaveProperty("vulnerabilities");
    }
    const developer = await dependencies(LIB, "", "dev");
    expect(developer.body[0].vulnerabilities).toEqual([
      expect.objectContaining({ name: "Too short", severity: "low", id: expect.any(Number) }),
    ]);
    expect((await dependencies(LIB, "", null as unknown as string)).status).toBe(401);
  });

  it("refuses a project below Ultimate with 403, even to its owner", async () => {
    const result = await dependencies(SITE, "", "alice");
    expect(result.status).toBe(403);
    expect(result.body).toEqual({ message: "403 Forbidden" });
  });
});

describe("pagination over more than 100 records", () => {
  const many = 130;
  const bigSeed: Seed = {
    ...seed,
    securityReports: {
      "acme/web": {
        pipelines: [
          {
            findings: Array.from({ length: many }, (_, i) => ({
              reportType: "sast",
              name: `finding ${String(i).padStart(3, "0")}`,
              severity: "low",
            })),
          },
        ],
        dependencies: Array.from({ length: many }, (_, i) => ({
          name: `package-${String(i).padStart(3, "0")}`,
          version: "1.0.0",
          packageManager: "npm",
          path: "package-lock.json",
        })),
      },
    },
  };
  const big = useEmulator({ seed: bigSeed });

  for (const resource of ["vulnerability_findings", "dependencies"]) {
    it(`pages ${resource} with the real headers and caps per_page at 100`, async () => {
      const first = await call(big.emulator, `${WEB}/${resource}?per_page=100`, { as: "dev" });
      expect(first.body).toHaveLength(100);
      expect(first.headers.get("x-total")).toBe(String(many));
      expect(first.headers.get("x-total-pages")).toBe("2");
      expect(first.headers.get("x-next-page")).toBe("2");
      expect(first.headers.get("link")).toContain(`rel="next"`);
      const second = await call(big.emulator, `${WEB}/${resource}?per_page=100&page=2`, { as: "dev" });
      expect(second.body).toHaveLength(many - 100);
      expect(second.headers.get("x-next-page")).toBe("");
      const capped = await call(big.emulator, `${WEB}/${resource}?per_page=500`, { as: "dev" });
      expect(capped.body).toHaveLength(100);
      const byDefault = await call(big.emulator, `${WEB}/${resource}?page=7`, { as: "dev" });
      expect(byDefault.body).toHaveLength(many - 120);
      expect(byDefault.headers.get("x-total-pages")).toBe("7");
      const seen = new Set([...first.body, ...second.body].map((r: { name: string }) => r.name));
      expect(seen.size).toBe(many);
    });
  }
});

describe("the securityReports seed section", () => {
  const withSection = (section: unknown): Seed => ({ ...defaultSeed, securityReports: section });

  it("rejects unknown projects, report types, severities and package managers, saying where", () => {
    expect(() => stateFromSeed(withSection({ "acme/nope": {} }))).toThrow(/unknown project acme\/nope/);
    expect(() =>
      stateFromSeed(withSection({ "acme/web": { pipelines: [{ findings: [{ reportType: "fuzz", name: "x", severity: "low" }] }] } })),
    ).toThrow('securityReports["acme/web"].pipelines[0].findings[0].reportType: must be one of sast, dast, dependency_scanning, container_scanning');
    expect(() =>
      stateFromSeed(withSection({ "acme/web": { pipelines: [{ findings: [{ reportType: "sast", name: "x", severity: "bad" }] }] } })),
    ).toThrow('securityReports["acme/web"].pipelines[0].findings[0].severity: must be one of info, unknown, low, medium, high, critical');
    expect(() =>
      stateFromSeed(withSection({ "acme/web": { pipelines: [{ findings: [{ reportType: "sast", name: "x", severity: "low", location: { startLine: 1.5 } }] }] } })),
    ).toThrow('securityReports["acme/web"].pipelines[0].findings[0].location.startLine: must be an integer');
    expect(() =>
      stateFromSeed(withSection({ "acme/web": { dependencies: [{ name: "a", version: "1", packageManager: "cargo", path: "Cargo.lock" }] } })),
    ).toThrow(/securityReports\["acme\/web"\]\.dependencies\[0\]\.packageManager: must be one of /);
    expect(() =>
      stateFromSeed(withSection({ "acme/web": { dependencies: [{ name: "a", version: "1", packageManager: "npm", path: "p", vulnerabilities: [{ name: "CVE", severity: "dire" }] }] } })),
    ).toThrow('securityReports["acme/web"].dependencies[0].vulnerabilities[0].severity: must be one of');
    expect(() => stateFromSeed(withSection({ "acme/web": { findings: [] } }))).toThrow(/securityReports\["acme\/web"\]: unknown key\(s\) findings/);
  });

  it("is optional", () => {
    const { securityReports: _omitted, ...withoutSection } = defaultSeed;
    expect(() => stateFromSeed(withoutSection)).not.toThrow();
  });
});
