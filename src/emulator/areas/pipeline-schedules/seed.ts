/** The `pipelineSchedules` seed section: its schema, and schedules made from it as a POST makes them. */
import { z } from "zod";
import { keyedSection } from "../../area";
import { SeedError } from "../../seed-error";
import { type EmulatorState, type Project } from "../../state";
import {
  KEY_FORMAT,
  MAX_KEY_LENGTH,
  PIPELINE_STATUSES,
  SCHEDULE_SEQUENCE,
  VARIABLE_TYPES,
  computeNextRun,
  expandRef,
  isInputValue,
  pipelineScheduleStore,
  runPipeline,
  validateSchedule,
  type InputValue,
  type ScheduleRecord,
} from "./model";

// ---------------------------------------------------------------------------
// Seed: "pipelineSchedules": { "acme/web": [{ "description": "Nightly", "ref": "main", "cron": "0 2 * * *",
//   "cronTimezone": "UTC", "active": true, "owner": "alice",
//   "variables": [{ "key": "TARGET", "value": "staging", "variableType": "env_var" }],
//   "inputs": [{ "name": "mode", "value": "full" }],
//   "pipelines": [{ "status": "success", "createdAt": "2024-05-01T02:00:00Z" }] }] }
// Schedules as a POST would make them (ref expanded, cron and zone checked,
// next run computed), with the pipelines they already ran, oldest first.

const text = z.string({ error: "must be a string" });
const seedVariable = z.object({
  key: z.string({ error: "must be 1 to 255 of A-Z a-z 0-9 _" }).regex(KEY_FORMAT, "must be 1 to 255 of A-Z a-z 0-9 _").max(MAX_KEY_LENGTH, "must be 1 to 255 of A-Z a-z 0-9 _"),
  value: text,
  variableType: z.enum(VARIABLE_TYPES, { error: "must be env_var or file" }).default("env_var"),
});
const seedInput = z.object(
  { name: text, value: z.custom<InputValue>(isInputValue, "must be a string, number, boolean or array") },
  { error: "must have a name and a string, number, boolean or array value" },
);
const seedPipeline = z.object({
  status: z.enum(PIPELINE_STATUSES, { error: `must be one of ${PIPELINE_STATUSES.join(", ")}` }).default("success"),
  createdAt: z.string({ error: "must be a date and time" }).refine((time) => !Number.isNaN(Date.parse(time)), "must be a date and time").optional(),
});
const seedScheduleSchema = z.object(
  {
    description: text,
    ref: text,
    cron: text,
    cronTimezone: text.default("UTC"),
    active: z.boolean({ error: "must be a boolean" }).default(true),
    owner: text,
    variables: z.array(seedVariable).default([]),
    inputs: z.array(seedInput).default([]),
    pipelines: z.array(seedPipeline).default([]),
  },
  { error: "must be an object" },
);
type SeedSchedule = z.infer<typeof seedScheduleSchema>;

export const pipelineSchedulesSeedSchema = keyedSection("project full path", z.array(seedScheduleSchema, { error: "must be an array of schedules" }));

function seedSchedule(state: EmulatorState, project: Project, seed: SeedSchedule, where: string): ScheduleRecord {
  const owner = state.userByUsername(seed.owner);
  if (!owner) throw new SeedError(`${where}.owner: unknown user ${seed.owner}`);
  const fields = { description: seed.description, ref: expandRef(project, seed.ref), cron: seed.cron, cronTimezone: seed.cronTimezone };
  try {
    validateSchedule(fields);
  } catch {
    throw new SeedError(`${where}: the description must not be blank, the ref must name one branch or tag of ${state.projectFullPath(project)}, and cron and cronTimezone must be valid`);
  }
  const id = state.nextId(SCHEDULE_SEQUENCE);
  // Seeded state is the same on every start: times follow the project's creation, not the clock.
  const createdAt = new Date(Date.parse(project.createdAt) + id * 60_000).toISOString();
  return {
    id,
    projectId: project.id,
    ...fields,
    active: seed.active,
    ownerId: owner.id,
    nextRunAt: computeNextRun(state, fields),
    createdAt,
    updatedAt: createdAt,
    variables: seed.variables.map((v) => ({ key: v.key, value: v.value, variableType: v.variableType })),
    inputs: seed.inputs.map((i) => ({ name: i.name, value: i.value })),
  };
}

function seedPipelines(state: EmulatorState, project: Project, schedule: ScheduleRecord, seeds: SeedSchedule["pipelines"]): void {
  for (const [index, seed] of seeds.entries()) {
    const pipeline = runPipeline(state, project, schedule, schedule.ownerId);
    const createdAt = seed.createdAt === undefined ? new Date(Date.parse(schedule.createdAt) + (index + 1) * 3_600_000).toISOString() : new Date(seed.createdAt).toISOString();
    Object.assign(pipeline, { status: seed.status, createdAt, updatedAt: createdAt });
  }
}

export function applyPipelineSchedulesSeed(state: EmulatorState, section: z.infer<typeof pipelineSchedulesSeedSchema> | undefined): void {
  if (section === undefined) return;
  const store = pipelineScheduleStore.of(state);
  for (const [fullPath, list] of Object.entries(section)) {
    const where = `pipelineSchedules["${fullPath}"]`;
    const project = state.projectByFullPath(fullPath);
    if (!project) throw new SeedError(`${where}: unknown project ${fullPath}`);
    list.forEach((seed, index) => {
      const schedule = seedSchedule(state, project, seed, `${where}[${index}]`);
      store.schedules.push(schedule);
      seedPipelines(state, project, schedule, seed.pipelines);
    });
  }
}
