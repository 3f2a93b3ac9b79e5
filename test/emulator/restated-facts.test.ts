/**
 * The facts the provider and the emulator each state in their own code, as a
 * real server and its clients do: the application settings (names, types,
 * defaults, enumerations, licences, credentials, hidden ones, other names,
 * companions), cron expressions and time zones, durations, avatar files, label
 * colors. Each is read from the provider's statement and checked against the
 * emulator's answers over HTTP, so a wrong entry on either side fails here instead of
 * passing on both. (Durations are also compared tag by tag, through the
 * provider and the emulator's worker, in
 * test/resources/container-registry-cleanup-rules.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { defaultSeed, startEmulator, type Seed } from "pulumi-platform/emulator";
import { ALIASES_SHOWN, APPLICATION_SETTINGS, decimalText, REQUIRED_WHEN_ENABLED, SETTING_ALIASES, SETTING_ENTRIES, type SettingEntry } from "../../src/application-settings-catalogue";
import { parseDuration } from "../../src/chronic-duration";
import { IMAGE_EXTENSIONS, imageContentType, isImageFile, MAX_AVATAR_BYTES } from "../../src/image-types";
import { SERVER_SETTINGS } from "../../src/emulator/areas/application-settings/settings";
import { NAMED_COLORS, storedColor } from "../../src/api/labels";
import { ACCESS_TOKEN_SCOPES, MAX_TOKEN_LIFETIME_DAYS } from "../../src/api/access-tokens";
import { isSshPublicKey } from "../../src/api/deploy-keys";
import { DEPLOY_TOKEN_SCOPES } from "../../src/api/deploy-tokens";
import { sshPublicKey, useEmulator } from "../support";

function seedWith(tier: "free" | "ultimate"): Seed {
  return { ...defaultSeed, instance: { ...defaultSeed.instance, offering: "self-managed", tier } };
}

const server = useEmulator({ seed: seedWith("ultimate") });

interface Answer {
  status: number;
  body: any;
}

async function request(method: string, path: string, body?: object): Promise<Answer> {
  const response = await fetch(server.emulator.apiUrl + path, {
    method,
    headers: { "PRIVATE-TOKEN": server.emulator.tokens.root!, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text && (response.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : text };
}

const settings = async (): Promise<Record<string, unknown>> => (await request("GET", "/application/settings")).body;
const putSettings = (body: object) => request("PUT", "/application/settings", body);

/** A setting's default as an answer shows it: a numeric column's as text. */
const shown = (entry: SettingEntry) => (entry.kind === "decimal" && typeof entry.default === "number" ? decimalText(entry.default) : entry.default);

/** A value of the wrong type for a setting of this kind, which the server's parameter check refuses. */
const WRONG_TYPE: Record<SettingEntry["kind"], unknown> = {
  boolean: "sometimes",
  integer: "many",
  number: "far",
  decimal: "much",
  string: { not: "a string" },
  "string[]": { not: "a list" },
  "integer[]": { not: "a list" },
  hash: "not a hash",
};

describe("application settings: the provider's catalogue and the emulator's answers", () => {
  it("the same names, each with the same default; the hidden ones never shown", async () => {
    const answer = await settings();
    const { id: _id, created_at: _created, updated_at: _updated, ...values } = answer;
    const expected = Object.fromEntries([
      ...SETTING_ENTRIES.filter(([, entry]) => !entry.writeOnly).map(([name, entry]) => [name, shown(entry)]),
      ...ALIASES_SHOWN.map((alias) => [alias, shown(APPLICATION_SETTINGS[SETTING_ALIASES[alias]])]),
    ]);
    expect(values).toEqual(expected);
  });

  it("the same credentials", () => {
    const provider = SETTING_ENTRIES.filter(([, entry]) => entry.secret).map(([name]) => name);
    const emulator = Object.entries(SERVER_SETTINGS).filter(([, setting]) => setting.credential).map(([name]) => name);
    expect(emulator.sort()).toEqual(provider.sort());
  });

  it("the same types: a value of another type is refused, each setting by name", async () => {
    for (const [name, entry] of SETTING_ENTRIES) {
      const answer = await putSettings({ [name]: WRONG_TYPE[entry.kind] });
      expect({ name, status: answer.status, error: answer.body.error }).toEqual({ name, status: 400, error: expect.stringContaining(name) });
    }
  });

  it("the same enumerations: every value the provider allows is accepted, one beside them refused", async () => {
    for (const [name, entry] of SETTING_ENTRIES.filter(([, entry]) => entry.values)) {
      for (const value of entry.values!) expect({ name, value, status: (await putSettings({ [name]: value })).status }).toEqual({ name, value, status: 200 });
      const outside = typeof entry.values![0] === "number" ? 999_999 : "none-of-these";
      expect({ name, status: (await putSettings({ [name]: outside })).status }).toEqual({ name, status: 400 });
      await putSettings({ [name]: entry.default });
    }
  });

  it("the same companions: enabling a setting without them names each missing one, and no other setting needs any", async () => {
    for (const [enabling, required] of Object.entries(REQUIRED_WHEN_ENABLED)) {
      const answer = await putSettings({ [enabling]: true });
      expect({ enabling, status: answer.status, error: answer.body.error }).toEqual({ enabling, status: 400, error: required.map((name) => `${name} is missing`).join(", ") });
    }
    const others = SETTING_ENTRIES.filter(([name, entry]) => entry.kind === "boolean" && !(name in REQUIRED_WHEN_ENABLED));
    for (const [name, entry] of others) {
      const answer = await putSettings({ [name]: !entry.default });
      expect({ name, status: answer.status }).toEqual({ name, status: 200 });
      await putSettings({ [name]: entry.default });
    }
  });

  it("the same other names: each writes the setting it stands for", async () => {
    for (const [alias, name] of Object.entries(SETTING_ALIASES)) {
      const entry: SettingEntry = APPLICATION_SETTINGS[name];
      const value = entry.kind === "boolean" ? !entry.default : entry.values ? entry.values.find((candidate) => candidate !== entry.default) : "ops@example.test";
      expect((await putSettings({ [alias]: value })).status).toBe(200);
      expect((await settings())[name]).toEqual(value);
      await putSettings({ [name]: entry.default });
    }
  });

  it("the same licences: a Free instance shows none of the licensed settings and refuses each by name", async () => {
    const free = await startEmulator({ port: 0, seed: seedWith("free") });
    const headers = { "PRIVATE-TOKEN": free.tokens.root!, "Content-Type": "application/json" };
    try {
      const answer = await fetch(`${free.apiUrl}/application/settings`, { headers });
      const shownNames = Object.keys((await answer.json()) as object);
      const licensed = SETTING_ENTRIES.filter(([, entry]) => entry.tier).map(([name]) => name);
      const unlicensed = SETTING_ENTRIES.filter(([, entry]) => !entry.tier && !entry.writeOnly).map(([name]) => name);
      expect(licensed.filter((name) => shownNames.includes(name))).toEqual([]);
      expect(unlicensed.filter((name) => !shownNames.includes(name))).toEqual([]);
      for (const name of licensed) {
        const entry: SettingEntry = APPLICATION_SETTINGS[name as keyof typeof APPLICATION_SETTINGS];
        const refused = await fetch(`${free.apiUrl}/application/settings`, { method: "PUT", headers, body: JSON.stringify({ [name]: entry.default }) });
        expect({ name, status: refused.status, body: await refused.text() }).toEqual({ name, status: 400, body: expect.stringContaining(`"${name}":["is not available`) });
      }
    } finally {
      await free.stop();
    }
  });
});

describe("cron expressions and zones: the preview's verdict and the server's", () => {
  const schedule = providers.PipelineSchedule;
  const inputs = (cron: string, cronTimezone = "UTC") => ({ project: "acme/web", description: "restated", ref: "main", cron, cronTimezone });

  async function verdicts(cron: string, zone = "UTC") {
    await server.configureProviders("root");
    const preview = ((await schedule.check({}, inputs(cron, zone))).failures ?? []).length === 0;
    const created = await request("POST", apiPath`/projects/${"acme/web"}/pipeline_schedules`, { description: "restated", ref: "main", cron, cron_timezone: zone });
    if (created.status === 201) await request("DELETE", apiPath`/projects/${"acme/web"}/pipeline_schedules/${created.body.id}`);
    return { cron, zone, preview, server: created.status === 201 };
  }

  /** Forms both read alike. */
  const AGREED: [cron: string, accepted: boolean][] = [
    ["0 2 * * *", true],
    ["30 6 * * 1-5", true],
    ["*/15 * * * *", true],
    ["0 0 1,15 * *", true],
    ["0 0 L * *", true],
    ["0 9 * * fri#2", true],
    ["0 9 * * 5#L", true],
    ["0 0 * * 7", true],
    ["5 4 * JAN-MAR MON", true],
    ["0 0 2 * * *", true],
    ["1-29/2 * * * *", true],
    ["@daily", true],
    ["@hourly", true],
    // Forms of the server's dialect beyond the common one.
    ["0 24 * * *", true],
    ["0 20-24 * * *", true],
    ["5/15 * * * *", true],
    ["0 0 -1 * *", true],
    ["0 0 last * *", true],
    ["0 9 * * 5#-1", true],
    ["0 9 * * fri#-2", true],
    ["50-10 * * * *", true],
    ["*/70 * * * *", true],
    ["/15 * * * *", true],
    ["@noon", true],
    ["0 0 -7--1 * *", true],
    ["0 0 25-L * *", true],
    ["0 0 1-L * *", true],
    ["0 0 * dec-feb *", true],
    ["0 0 * NOV-Feb/2 *", true],
    ["0 0 * * fri-mon", true],
    ["0 0 29 2 *", true],
    ["0 0 31 2,3 *", true],
    ["0 9 * * mon%2", true],
    ["0 9 * * mon%2+1", true],
    [",0, 0 * * *", true],
    ["0,,5 * * * *", true],
    ["0 0 1& * mon", true],
    ["0 0 * * */0", true],
    ["1 , 2 * * * *", true],
    [",,1, ,2,, * * * *", true],
    ["0\t0\t*\t*\t*", true],
    ["0 0 * * *  ", true],
    ["0 0 -31 4 *", true],
    ["0 0 * * 3/2", true],
    ["0 0 * * *,1", true],
    ["0 0 * * 1-5/0", true],
    ["0 0 30,31 2,3 1", true],
    ["0 0 29 2 1&", true],
    ["0 24/2 * * *", true],
    ["0 */24 * * *", true],
    ["0 0 * * 1#2,2%2", true],
    // Comma runs with blanks: each piece of the grammar takes what it matches, in one pass over the text.
    ["1" + ", \t".repeat(300) + " * * * *", true],
    [Array(200).fill("1, ,").join("") + " * * * *", true],
    [Array(200).fill("1, ,").join("") + "x * * * *", false],
    ["1" + ",".repeat(500) + " * * * * x", false],
    // Forms the server's parser raises on.
    ["0 0 L/2 * *", false],
    ["0 0 -3-5 * *", false],
    ["0 */0 * * *", false],
    ["0 0 * */0 *", false],
    ["0 0 * * 1#2,1%2", false],
    ["0 0 * * *\t", false],
    ["0 0 * * 1#0", false],
    ["0 0 * * 8", false],
    ["0 0 * * sunday", false],
    ["0 0 * * * Europe/Berlin", false],
    // No day it names falls in a month it names: the server refuses it.
    ["0 0 30 2 1", false],
    ["0 0 31 2 *", false],
    ["0 0 30 2 *", false],
    ["0 0 31 4 *", false],
    ["0 0 15W * *", false],
    ["0 0 ? * *", false],
    ["0 0 * * 5L", false],
    ["60 * * * *", false],
    ["0 0 32 * *", false],
    ["0 0 * 13 *", false],
    ["* * * *", false],
    ["*/0 * * * *", false],
    ["0 2 * * * * *", false],
    ["@fortnightly", false],
    ["@DAILY", false],
    ["@reboot", false],
    ["0 0 L-5 * *", false],
    ["*/0 * * * *", false],
    ["5/0 * * * *", false],
    ["0 0 0 * *", false],
    ["0 0 1 0 *", false],
    ["0 25 * * *", false],
    ["0 0 -32 * *", false],
    ["0 9 * * 5#-6", false],
    ["*/100 * * * *", false],
    ["5/100 * * * *", false],
    ["", false],
  ];

  it("agree on every form of the table", async () => {
    for (const [cron, accepted] of AGREED) expect(await verdicts(cron)).toEqual({ cron, zone: "UTC", preview: accepted, server: accepted });
  });

  it("agree on zones: framework names and tz identifiers, spelled as the database spells them", async () => {
    for (const [zone, accepted] of [
      ["UTC", true],
      ["Europe/Berlin", true],
      ["America/Argentina/Buenos_Aires", true],
      ["Pacific Time (US & Canada)", true],
      ["Etc/GMT+5", true],
      ["utc", false],
      ["america/new_york", false],
      ["Nowhere/Land", false],
      ["Pacific Time", false],
    ] as const) {
      expect(await verdicts("0 2 * * *", zone)).toEqual({ cron: "0 2 * * *", zone, preview: accepted, server: accepted });
    }
  });
});

describe("durations: the preview's reading of older_than and the server's", () => {
  it("what the preview reads the server takes; what the preview refuses for want of a number or unit the server refuses too", async () => {
    const repositories = (await request("GET", apiPath`/projects/${"acme/web"}/registry/repositories`)).body as { id: number }[];
    const path = apiPath`/projects/${"acme/web"}/registry/repositories/${repositories[0]!.id}/tags`;
    for (const [text, readable] of [
      ["1h", true],
      ["30d", true],
      ["2 weeks", true],
      ["1month", true],
      ["1h30m", true],
      ["1.5 hours", true],
      ["3 weeks, 2 days", true],
      ["1 month and 2 days", true],
      ["0.1 years", true],
      ["3600", true],
      ["soon", false],
      ["", false],
    ] as const) {
      expect({ text, preview: parseDuration(text) !== undefined }).toEqual({ text, preview: readable });
      const answer = await fetch(`${server.emulator.apiUrl}${path}?name_regex_delete=none&older_than=${encodeURIComponent(text)}`, {
        method: "DELETE",
        headers: { "PRIVATE-TOKEN": server.emulator.tokens.root! },
      });
      // After the first accepted deletion the hourly lease refuses the others, after their parameters are checked.
      const body = await answer.text();
      expect({ text, refusedAsInvalid: body.includes("older_than is invalid") }).toEqual({ text, refusedAsInvalid: !readable });
    }
  });
});

describe("avatars: the files the provider uploads and the ones the server takes", () => {
  const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

  async function upload(filename: string, content: Buffer) {
    const form = new FormData();
    form.append("avatar", new Blob([content]), filename);
    const answer = await fetch(`${server.emulator.apiUrl}${apiPath`/groups/${"beta"}`}`, { method: "PUT", headers: { "PRIVATE-TOKEN": server.emulator.tokens.root! }, body: form });
    return { status: answer.status, body: (await answer.json()) as any };
  }

  it("every extension the provider uploads is taken and served with the provider's media type", async () => {
    for (const extension of IMAGE_EXTENSIONS) {
      const filename = `logo.${extension.toUpperCase()}`;
      expect(isImageFile(filename)).toBe(true);
      expect({ filename, status: (await upload(filename, png)).status }).toEqual({ filename, status: 200 });
      const served = await fetch(`${server.emulator.apiUrl}${apiPath`/groups/${"beta"}/avatar`}`, { headers: { "PRIVATE-TOKEN": server.emulator.tokens.root! } });
      expect({ filename, type: served.headers.get("content-type") }).toEqual({ filename, type: imageContentType(filename) });
    }
  });

  it("a file the provider refuses the server refuses: another extension, or one byte over the size", async () => {
    for (const filename of ["logo.svg", "logo.txt", "logo"]) {
      expect(isImageFile(filename)).toBe(false);
      expect((await upload(filename, png)).body.message?.avatar?.[0]).toMatch(/file format is not supported/);
    }
    expect((await upload("big.png", Buffer.alloc(MAX_AVATAR_BYTES, 1))).status).toBe(200);
    expect((await upload("big.png", Buffer.alloc(MAX_AVATAR_BYTES + 1, 1))).body.message?.avatar).toEqual([expect.stringMatching(/too big/)]);
  });
});

describe("label colors: the provider's table of names and the emulator's answers", () => {
  it("each CSS color name is stored as the hex form the provider expects, whatever its case; hex as given; others refused on both sides", async () => {
    const names = Object.keys(NAMED_COLORS);
    for (const [index, name] of names.entries()) {
      const given = index % 2 === 0 ? name : name.toUpperCase();
      const made = await request("POST", apiPath`/groups/${"beta"}/labels`, { name: `color-${index}`, color: given });
      expect({ given, color: made.body.color }).toEqual({ given, color: storedColor(given) });
    }
    for (const given of ["#abc", "#AbCdEf"]) expect((await request("POST", apiPath`/groups/${"beta"}/labels`, { name: `hex-${given}`, color: given })).body.color).toBe(storedColor(given));
    for (const given of ["reddish", "#abcd", "abcdef", "#ggg"]) {
      expect(storedColor(given)).toBeUndefined();
      expect((await request("POST", apiPath`/groups/${"beta"}/labels`, { name: `bad-${given}`, color: given })).body).toEqual({ message: { color: ["must be a valid color code"] } });
    }
  });
});

describe("access tokens, deploy tokens and deploy keys: the scopes and the key forms", () => {
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

  it("every scope the provider offers an access token, and no other, the emulator accepts; a day past the longest lifetime it refuses", async () => {
    const made = await request("POST", "/projects/acme%2Fweb/access_tokens", { name: "restated", scopes: [...ACCESS_TOKEN_SCOPES], expires_at: inDays(MAX_TOKEN_LIFETIME_DAYS) });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await request("POST", "/projects/acme%2Fweb/access_tokens", { name: "restated", scopes: ["read_user"], expires_at: inDays(30) })).status).toBe(400);
    expect((await request("POST", "/projects/acme%2Fweb/access_tokens", { name: "restated", scopes: ["api"], expires_at: inDays(MAX_TOKEN_LIFETIME_DAYS + 1) })).status).toBe(400);
    await request("DELETE", `/projects/acme%2Fweb/access_tokens/${made.body.id}`);
  });

  it("every scope the provider offers a deploy token the emulator accepts", async () => {
    const made = await request("POST", "/projects/acme%2Fweb/deploy_tokens", { name: "restated", scopes: [...DEPLOY_TOKEN_SCOPES] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await request("DELETE", `/projects/acme%2Fweb/deploy_tokens/${made.body.id}`);
  });

  it("a key the provider takes for an SSH public key the emulator takes too, and one it refuses the emulator refuses", async () => {
    for (const key of [sshPublicKey("restated"), "ssh-ed25519 AAAAB3NzaC1yc2EAAAADAQAB forged", "ssh-rsa not-base64!", "ecdsa-sha2-nistp256"]) {
      const answer = await request("POST", "/projects/acme%2Fweb/deploy_keys", { title: "restated", key });
      expect(answer.status === 201, key).toBe(isSshPublicKey(key));
      if (answer.status === 201) await request("DELETE", `/projects/acme%2Fweb/deploy_keys/${answer.body.id}`);
    }
  });
});
