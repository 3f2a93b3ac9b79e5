/**
 * CI/CD variables of projects, groups and the instance: the records, the
 * store and the rules every write checks (the model's validations on real
 * servers: `Ci::HasVariable`, `Ci::Maskable`, `Ci::HidableVariable`, the
 * plan limits), each failure in the server's words.
 */
import { ApiError, validationError } from "../../errors";
import { defineStore, type EmulatorState, type Group } from "../../state";

/** Where a variable belongs. */
export type VariableLevel = "project" | "group" | "instance";

export interface VariableRecord {
  id: number;
  level: VariableLevel;
  /** The project's or group's id; 0 for the instance. */
  ownerId: number;
  key: string;
  value: string;
  variableType: "env_var" | "file";
  protected: boolean;
  masked: boolean;
  /** Masked and hidden: the value is never shown again (projects and groups only). */
  hidden: boolean;
  raw: boolean;
  /** `*` unless set; the instance's variables have none. */
  environmentScope: string;
  description: string | null;
}

export const ciVariableStore = defineStore("ciVariables", (): { variables: VariableRecord[] } => ({ variables: [] }));
export const CI_VARIABLE_SEQUENCE = "ci_variables";

/** The plan limits of each level (`project_ci_variables`, `group_ci_variables`, `ci_instance_level_variables`). */
export const VARIABLE_LIMITS: Record<VariableLevel, number> = { project: 8000, group: 30000, instance: 25 };
const LIMIT_NAMES: Record<VariableLevel, string> = { project: "project ci variables", group: "group ci variables", instance: "instance ci variables" };

/** The longest value (`Ci::HasVariable`: 10,000 characters). */
export const MAX_VALUE_LENGTH = 10_000;
export const MAX_KEY_LENGTH = 255;
export const MAX_DESCRIPTION_LENGTH = 255;
const KEY = /^[a-zA-Z0-9_]+$/;
/** `Ci::Maskable::REGEX`: a masked value that is expanded. */
const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/;
/** `Ci::Maskable::MASK_AND_RAW_REGEX`: a masked raw value (no whitespace, 8 or more). */
const MASKABLE_RAW = /^\S{8,}$/;
/** `Gitlab::Regex.environment_scope_regex`. */
const ENVIRONMENT_SCOPE = /^[a-zA-Z0-9_/${}. *-]+$/;

export const ownVariables = (state: EmulatorState, level: VariableLevel, ownerId: number): VariableRecord[] =>
  ciVariableStore.of(state).variables.filter((variable) => variable.level === level && variable.ownerId === ownerId);

/** Whether a group's tier has environment scopes on its variables (Premium and up). */
export const groupHasScopes = (state: EmulatorState, group: Group): boolean => state.tierOf(group) !== "free";

/**
 * The validations of a variable about to be saved, as `render_validation_error!`
 * answers them (400 with the errors by attribute). `creating`: a new one;
 * otherwise `before` is the record as it was.
 */
export function validateVariable(state: EmulatorState, variable: VariableRecord, before?: VariableRecord): void {
  const errors: Record<string, string[]> = {};
  const add = (attribute: string, message: string) => (errors[attribute] ??= []).push(message);
  if (variable.key.trim() === "") add("key", "can't be blank");
  if (variable.key.length > MAX_KEY_LENGTH) add("key", `is too long (maximum is ${MAX_KEY_LENGTH} characters)`);
  if (variable.key !== "" && !KEY.test(variable.key)) add("key", "can contain only letters, digits and '_'.");
  if (variable.value.length > MAX_VALUE_LENGTH) add("value", `is too long (maximum is ${MAX_VALUE_LENGTH} characters)`);
  if (variable.masked && !(variable.raw ? MASKABLE_RAW : MASKABLE).test(variable.value)) add("value", "is invalid");
  if ((variable.description ?? "").length > MAX_DESCRIPTION_LENGTH) add("description", `is too long (maximum is ${MAX_DESCRIPTION_LENGTH} characters)`);
  if (variable.level !== "instance") {
    if (variable.environmentScope.length > MAX_KEY_LENGTH) add("environment_scope", `is too long (maximum is ${MAX_KEY_LENGTH} characters)`);
    if (!ENVIRONMENT_SCOPE.test(variable.environmentScope)) add("environment_scope", "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces");
  }
  if (!before && variable.hidden && !variable.masked) add("masked", "should be true when variable is hidden");
  if (before && before.hidden && before.masked !== variable.masked) add("base", "Updating masked attribute is not allowed on updates for hidden variables.");
  const taken = ownVariables(state, variable.level, variable.ownerId).some(
    (other) => other.id !== variable.id && other.key === variable.key && (variable.level === "instance" || other.environmentScope === variable.environmentScope),
  );
  if (taken) add("key", `(${variable.key}) has already been taken`);
  if (!before && ownVariables(state, variable.level, variable.ownerId).length >= VARIABLE_LIMITS[variable.level]) {
    add("base", `Maximum number of ${LIMIT_NAMES[variable.level]} (${VARIABLE_LIMITS[variable.level]}) exceeded`);
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

/**
 * `find_variable`: the owner's variables of this key, narrowed by
 * `filter[environment_scope]` where the level has scopes; two or more is a
 * 409, none undefined.
 */
export function findVariable(variables: readonly VariableRecord[], key: string, scope: string | undefined): VariableRecord | undefined {
  const found = variables.filter((variable) => variable.key === key && (scope === undefined || variable.environmentScope === scope));
  if (found.length > 1) throw new ApiError(409, { message: "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'" });
  return found[0];
}

/** The variable as `Entities::Ci::Variable` shows it: a hidden one's value never; the instance's without `hidden` and scope. */
export function presentVariable(variable: VariableRecord): Record<string, unknown> {
  const body: Record<string, unknown> = { variable_type: variable.variableType, key: variable.key, value: variable.hidden ? null : variable.value };
  if (variable.level !== "instance") body.hidden = variable.hidden;
  Object.assign(body, { protected: variable.protected, masked: variable.masked, raw: variable.raw });
  if (variable.level !== "instance") body.environment_scope = variable.environmentScope;
  body.description = variable.description;
  return body;
}
