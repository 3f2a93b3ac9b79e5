/**
 * Deploy keys (`lib/api/deploy_keys.rb`): SSH public keys that open a
 * project's repository, each enabled on one project or more.
 *
 * - Every project route needs `admin_project` (Maintainer; administrators
 *   pass): 403 below it, 401 anonymous.
 * - `GET /projects/:id/deploy_keys`, `GET .../:key_id`: the keys enabled on
 *   the project (`Entities::DeployKeysProject`: id, title, created_at,
 *   expires_at, key, usage_type, fingerprint, fingerprint_sha256, can_push);
 *   a key not enabled there 404 `404 Not found`.
 * - `POST /projects/:id/deploy_keys` (`title` and `key` required, `can_push`,
 *   `expires_at`): a key already enabled on the project is answered as it
 *   is; a key that exists on another project the caller maintains (or a
 *   public one) is enabled here with `can_push`; otherwise a new key. The key
 *   must be an SSH public key (`ssh-rsa`, `ssh-dss`, `ssh-ed25519`,
 *   `ecdsa-sha2-nistp256/384/521`, `sk-ecdsa-sha2-nistp256@openssh.com`,
 *   `sk-ssh-ed25519@openssh.com`, its base64 blob starting with its type):
 *   else 400 `{"message":{"key":["is invalid"],"fingerprint_sha256":["cannot
 *   be generated"]}}`; an `expires_at` in the past 400 `{"message":
 *   {"expires_at":["must be in the future"]}}`. 201 in each case.
 * - `PUT .../:key_id`: `title` and `can_push` only.
 * - `POST .../:key_id/enable`: a key the caller may reach (a key of a
 *   project the caller maintains, or public) enabled on the project, 201
 *   with `Entities::SSHKey` (without `can_push`); otherwise 404 `404 Not found`.
 * - `DELETE .../:key_id`: the key no longer enabled on the project (204);
 *   a key left enabled nowhere, and not public, is deleted.
 */
import { createHash } from "node:crypto";
import { canReadProject, hasProjectAccess } from "../../access";
import type { EmulatorArea } from "../../area";
import { forbidden, paramError, recordNotFound, validationError } from "../../errors";
import { findProject } from "../../lookup";
import { created, noContent, ok, paginate, requireUser, route, type RequestContext } from "../../router";
import { AccessLevel, type EmulatorState, type Project } from "../../state";
import { deployKeyStore, type DeployKeyRecord } from "./model";

const DEPLOY_KEY_SEQUENCE = "keys";

/** `Gitlab::SSHPublicKey`'s technologies and their key type names. */
const KEY_TYPES = [
  "ssh-rsa",
  "ssh-dss",
  "ssh-ed25519",
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
  "sk-ecdsa-sha2-nistp256@openssh.com",
  "sk-ssh-ed25519@openssh.com",
];

/** The key's blob when it is an SSH public key (`<type> <base64 blob> [comment]`, the blob naming the same type). */
export function sshKeyBlob(text: string): Buffer | undefined {
  const [type, encoded] = text.trim().split(/\s+/);
  if (type === undefined || encoded === undefined || !KEY_TYPES.includes(type) || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
  const blob = Buffer.from(encoded, "base64");
  if (blob.length < 4) return undefined;
  const length = blob.readUInt32BE(0);
  return length === type.length && blob.subarray(4, 4 + length).toString("latin1") === type && blob.length > 4 + length ? blob : undefined;
}

function present(record: DeployKeyRecord, projectId?: number): Record<string, unknown> {
  const blob = sshKeyBlob(record.key) ?? Buffer.alloc(0);
  const md5 = createHash("md5").update(blob).digest("hex").match(/../g)!.join(":");
  const sha256 = "SHA256:" + createHash("sha256").update(blob).digest("base64").replace(/=+$/, "");
  return {
    id: record.id,
    title: record.title,
    created_at: record.createdAt,
    expires_at: record.expiresAt,
    key: record.key,
    usage_type: "auth_and_signing",
    fingerprint: md5,
    fingerprint_sha256: sha256,
    ...(projectId === undefined ? {} : { can_push: record.projects[String(projectId)] ?? false }),
  };
}

function maintainedProject(ctx: RequestContext<unknown>): Project {
  requireUser(ctx);
  const project = findProject(ctx);
  if (!hasProjectAccess(ctx.state, ctx.user, project, AccessLevel.Maintainer)) throw forbidden();
  return project;
}

const enabledOn = (project: Project) => (record: DeployKeyRecord) => String(project.id) in record.projects;

function enabledKey(state: EmulatorState, project: Project, keyId: string): DeployKeyRecord {
  const record = /^\d+$/.test(keyId) ? deployKeyStore.of(state).keys.find((key) => key.id === Number(keyId) && enabledOn(project)(key)) : undefined;
  if (!record) throw recordNotFound();
  return record;
}

/** `accessible_deploy_keys`: keys enabled on a project the user maintains, and public keys. */
function accessible(ctx: RequestContext<unknown>, record: DeployKeyRecord): boolean {
  if (record.public || ctx.user?.isAdmin) return true;
  return Object.keys(record.projects).some((id) => {
    const project = ctx.state.projects.find((candidate) => candidate.id === Number(id));
    return project !== undefined && canReadProject(ctx.state, ctx.user, project) && hasProjectAccess(ctx.state, ctx.user, project, AccessLevel.Maintainer);
  });
}

const keyIdParams = { id: { type: "string", required: true }, key_id: { type: "string", required: true } } as const;

const list = route("GET", "/projects/:id/deploy_keys", { paginated: true, params: { id: { type: "string", required: true } } }, (ctx) => {
  const project = maintainedProject(ctx);
  const keys = deployKeyStore.of(ctx.state).keys.filter(enabledOn(project));
  return paginate(ctx, keys, { present: (record) => present(record, project.id) });
});

const getOne = route("GET", "/projects/:id/deploy_keys/:key_id", { params: keyIdParams }, (ctx) => {
  const project = maintainedProject(ctx);
  return ok(present(enabledKey(ctx.state, project, ctx.params.key_id), project.id));
});

const create = route(
  "POST",
  "/projects/:id/deploy_keys",
  { params: { id: { type: "string", required: true }, key: { type: "string", required: true }, title: { type: "string", required: true }, can_push: { type: "boolean" }, expires_at: { type: "string" } } },
  (ctx) => {
    const { state } = ctx;
    const project = maintainedProject(ctx);
    const text = ctx.params.key.trim();
    const keys = deployKeyStore.of(state).keys;
    const here = keys.find((record) => record.key === text && enabledOn(project)(record));
    if (here) return created(present(here, project.id));
    const elsewhere = keys.find((record) => record.key === text && accessible(ctx, record));
    if (elsewhere) {
      elsewhere.projects[String(project.id)] = ctx.params.can_push === true;
      return created(present(elsewhere, project.id));
    }
    if (!sshKeyBlob(text)) throw validationError({ key: ["is invalid"], fingerprint_sha256: ["cannot be generated"] });
    let expiresAt: string | null = null;
    if (ctx.params.expires_at !== undefined && ctx.params.expires_at !== "") {
      const time = Date.parse(ctx.params.expires_at);
      if (Number.isNaN(time)) throw paramError("expires_at is invalid");
      if (time <= Date.parse(state.now())) throw validationError({ expires_at: ["must be in the future"] });
      expiresAt = new Date(time).toISOString();
    }
    const record: DeployKeyRecord = {
      id: state.nextId(DEPLOY_KEY_SEQUENCE),
      title: ctx.params.title,
      key: text,
      createdAt: state.now(),
      expiresAt,
      public: false,
      projects: { [String(project.id)]: ctx.params.can_push === true },
    };
    keys.push(record);
    return created(present(record, project.id));
  },
);

const update = route("PUT", "/projects/:id/deploy_keys/:key_id", { params: { ...keyIdParams, title: { type: "string" }, can_push: { type: "boolean" } } }, (ctx) => {
  const project = maintainedProject(ctx);
  const record = enabledKey(ctx.state, project, ctx.params.key_id);
  if (ctx.params.title !== undefined) record.title = ctx.params.title;
  if (ctx.params.can_push !== undefined) record.projects[String(project.id)] = ctx.params.can_push;
  return ok(present(record, project.id));
});

const enable = route("POST", "/projects/:id/deploy_keys/:key_id/enable", { params: keyIdParams }, (ctx) => {
  const project = maintainedProject(ctx);
  const id = ctx.params.key_id;
  const record = /^\d+$/.test(id) ? deployKeyStore.of(ctx.state).keys.find((key) => key.id === Number(id)) : undefined;
  if (!record || !accessible(ctx, record)) throw recordNotFound();
  if (!(String(project.id) in record.projects)) record.projects[String(project.id)] = false;
  return created(present(record));
});

const disable = route("DELETE", "/projects/:id/deploy_keys/:key_id", { params: keyIdParams }, (ctx) => {
  const project = maintainedProject(ctx);
  const record = enabledKey(ctx.state, project, ctx.params.key_id);
  delete record.projects[String(project.id)];
  const store = deployKeyStore.of(ctx.state);
  if (!record.public && Object.keys(record.projects).length === 0) store.keys = store.keys.filter((key) => key !== record);
  return noContent();
});

export const deployKeysArea: EmulatorArea = { name: "deploy-keys", routes: [list, getOne, create, update, enable, disable] };
