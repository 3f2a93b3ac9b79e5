/** The deploy keys: one record per key, with the projects it is enabled on and whether it may push there. */
import { defineStore, type EmulatorState, type Project } from "../../state";

export interface DeployKeyRecord {
  id: number;
  title: string;
  key: string;
  createdAt: string;
  /** ISO time, or null. */
  expiresAt: string | null;
  /** Public keys (instance-wide, made by an administrator) may be enabled by any maintainer. */
  public: boolean;
  /** Project id → can push. */
  projects: Record<string, boolean>;
}

export const deployKeyStore = defineStore("deploy-keys", (): { keys: DeployKeyRecord[] } => ({ keys: [] }));

export const deployKeyById = (state: EmulatorState, keyId: number): DeployKeyRecord | undefined => deployKeyStore.of(state).keys.find((key) => key.id === keyId);

/** `DeployKeysProject.with_write_access`: the key exists, is enabled on the project, and may push there. */
export function keyPushesTo(state: EmulatorState, keyId: number, project: Project): "missing" | "read-only" | "writes" {
  const record = deployKeyById(state, keyId);
  if (!record) return "missing";
  return record.projects[String(project.id)] === true ? "writes" : "read-only";
}
