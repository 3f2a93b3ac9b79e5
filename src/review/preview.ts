/**
 * The output of `pulumi preview --json` (and of `pulumi up --json`), as far as
 * the review reads it. Read loosely: the CLI adds fields between releases, and
 * a failed preview may leave most of them out.
 */
import { z } from "zod";

/** A resource's state in a step: the properties its program declared and those the provider returned. */
const stepState = z.looseObject({
  urn: z.string().optional(),
  type: z.string().optional(),
  id: z.string().optional(),
  inputs: z.record(z.string(), z.unknown()).optional().nullable(),
  outputs: z.record(z.string(), z.unknown()).optional().nullable(),
  /** The engine's record of a create that failed after the provider made the object: the object is in the state with these errors, and the next apply finishes it. */
  initErrors: z.array(z.string()).optional().nullable(),
});

/** How one property changes, as the engine's detailed diff says it. */
const propertyDiff = z.looseObject({ kind: z.string().optional(), diffKind: z.string().optional(), inputDiff: z.boolean().optional() });

const step = z.looseObject({
  op: z.string(),
  urn: z.string(),
  oldState: stepState.optional().nullable(),
  newState: stepState.optional().nullable(),
  diffReasons: z.array(z.string()).optional().nullable(),
  replaceReasons: z.array(z.string()).optional().nullable(),
  detailedDiff: z.record(z.string(), propertyDiff).optional().nullable(),
});

const diagnostic = z.looseObject({
  urn: z.string().optional(),
  message: z.string(),
  severity: z.string().optional(),
});

export const previewOutput = z.looseObject({
  steps: z.array(step).optional().nullable(),
  diagnostics: z.array(diagnostic).optional().nullable(),
  changeSummary: z.record(z.string(), z.number()).optional().nullable(),
  duration: z.number().optional(),
  /** Read from `pulumi up --json`: the steps were carried out, not proposed. */
  applied: z.boolean().optional(),
  /** Read from `pulumi up --json`: the resources whose step failed, or was refused before it started. */
  failed: z.array(z.string()).optional(),
});

export type PreviewOutput = z.output<typeof previewOutput>;
export type PreviewStep = z.output<typeof step>;
export type StepState = z.output<typeof stepState>;

/** Whether a state is the engine's record of a create that failed after its object was made (the create's `initErrors`). */
export const recordsFailedCreate = (state: StepState | null | undefined): boolean => (state?.initErrors?.length ?? 0) > 0;
export type Diagnostic = z.output<typeof diagnostic>;

/** The text a failed CLI run can leave before or after its JSON (a warning on stderr merged in, say). */
function jsonPart(text: string): string {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end < start) throw new Error("The preview file holds no JSON object: give the output of `pulumi preview --json`.");
  return text.slice(start, end + 1);
}

/** One line of `pulumi up --json`: an engine event, of which the review reads a few kinds. */
const engineEvent = z.looseObject({
  resOutputsEvent: z.looseObject({ metadata: z.looseObject({}) }).optional(),
  resOpFailedEvent: z.looseObject({ metadata: z.looseObject({}) }).optional(),
  diagnosticEvent: diagnostic.optional(),
  summaryEvent: z.looseObject({ result: z.string().optional() }).optional(),
});

/** A step of an event's metadata, in the form of a preview's step. */
function stepOfEvent(metadata: Record<string, unknown>): unknown {
  return { ...metadata, oldState: metadata.old, newState: metadata.new, diffReasons: metadata.diffs };
}

/**
 * The engine's words, under `pulumi up --plan`, for an operation of the plan
 * the run never reached: after another step failed, the update stops, and it
 * says so for each step it did not start. Then it is no problem of its own,
 * and its resource's step did not fail: it was not applied. Alone, it is the
 * problem (the program did otherwise than its plan).
 */
const PLAN_NOT_REACHED = /^(?:error: )?expected resource operations for \S+ but none were seen\s*$/;

/**
 * `pulumi up --json` writes the engine's events, one JSON object a line: the
 * steps it carried out, its diagnostics, and its summary. Read into the form
 * of a preview, with an error for a run whose summary says it failed.
 */
export function parseEngineEvents(text: string): PreviewOutput {
  const steps: unknown[] = [];
  const diagnostics: Diagnostic[] = [];
  const failed: string[] = [];
  const notReached: Diagnostic[] = [];
  let result: string | undefined;
  for (const line of text.split("\n")) {
    if (!line.startsWith('{"sequence":')) continue;
    const parsed = engineEvent.safeParse(JSON.parse(line));
    if (!parsed.success) continue;
    const event = parsed.data;
    if (event.resOutputsEvent) steps.push(stepOfEvent(event.resOutputsEvent.metadata));
    const failedUrn = event.resOpFailedEvent?.metadata.urn;
    if (typeof failedUrn === "string") failed.push(failedUrn);
    const diagnostic = event.diagnosticEvent;
    if (diagnostic && diagnostic.severity === "error" && PLAN_NOT_REACHED.test(diagnostic.message)) notReached.push(diagnostic);
    else if (diagnostic && diagnostic.severity !== "debug") {
      diagnostics.push(diagnostic);
      // A step refused before it started (its check failed) has an error on its resource and no failed event.
      if (diagnostic.severity === "error" && diagnostic.urn) failed.push(diagnostic.urn);
    }
    if (event.summaryEvent) result = event.summaryEvent.result;
  }
  if (result === undefined) throw new Error("The file holds no summary event: give the output of `pulumi up --json` as it ended.");
  const stoppedOtherwise = diagnostics.some((d) => d.severity === "error") || failed.length > 0;
  if (!stoppedOtherwise) diagnostics.push(...notReached);
  if (result !== "succeeded" && !diagnostics.some((d) => d.severity === "error")) diagnostics.push({ severity: "error", message: `The update ${result}.` });
  return previewOutput.parse({ steps, diagnostics, applied: true, ...(failed.length > 0 ? { failed: [...new Set(failed)] } : {}) });
}

/**
 * The events of `pulumi up --json` that may be kept (a CI artifact): every
 * engine event but the SDK's debug diagnostics, which print the plain values
 * of secrets (`pulumi.secret(...)`, the outputs a class marks secret) on every
 * run; and nothing that is not an event.
 */
export function keptEngineEvents(text: string): string {
  const kept: string[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith('{"sequence":')) continue;
    let event: { diagnosticEvent?: { severity?: string } };
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      continue;
    }
    if (event.diagnosticEvent && event.diagnosticEvent.severity === "debug") continue;
    kept.push(line);
  }
  return kept.length > 0 ? kept.join("\n") + "\n" : "";
}

/** The type of a stack's own resource, the root of every other. */
const STACK_TYPE = "pulumi:pulumi:Stack";

/**
 * The stack's name, from the engine's own record of the stack's resource: the
 * step whose URN (`urn:pulumi:<stack>::<project>::pulumi:pulumi:Stack::<name>`)
 * has that type and no parent type. An apply that failed may end before the
 * engine reports that resource; then the stack every step's URN names, when
 * they all name one. Undefined otherwise.
 */
export function stackOfPreview(preview: PreviewOutput): string | undefined {
  for (const step of preview.steps ?? []) {
    if (!isStackResource(step.urn)) continue;
    const type = step.newState?.type ?? step.oldState?.type;
    if (type !== undefined && type !== STACK_TYPE) continue;
    return step.urn.split("::")[0]!.slice("urn:pulumi:".length);
  }
  const named = new Set((preview.steps ?? []).map((step) => step.urn.split("::")[0]!));
  const [only] = named;
  return named.size === 1 && only!.startsWith("urn:pulumi:") ? only!.slice("urn:pulumi:".length) : undefined;
}

/** Whether a URN is a stack's own resource, which the engine makes and which changes nothing on any server. */
export function isStackResource(urn: string): boolean {
  const parts = urn.split("::");
  return parts.length === 4 && parts[2] === STACK_TYPE && parts[0]!.startsWith("urn:pulumi:");
}

/** Whether a text is the event stream of `pulumi up --json` (or `preview --json` with events), not one preview object. */
export const isEngineEvents = (text: string) => /^\{"sequence":/m.test(text);

/**
 * Parses the text of `pulumi preview --json`, or the events of `pulumi up
 * --json`; a message that says what is wrong otherwise. Only events make an
 * apply's report: a preview object's own `applied` or `failed` is dropped,
 * whatever wrote it.
 */
export function parsePreview(text: string): PreviewOutput {
  if (isEngineEvents(text)) return parseEngineEvents(text);
  let value: unknown;
  try {
    value = JSON.parse(jsonPart(text));
  } catch (error) {
    throw new Error(`The preview file is not the JSON of \`pulumi preview --json\`: ${(error as Error).message}`);
  }
  const parsed = previewOutput.safeParse(value);
  if (!parsed.success) throw new Error(`The preview file is not the JSON of \`pulumi preview --json\`: ${parsed.error.issues[0]?.message}`);
  const { applied: _applied, failed: _failed, ...preview } = parsed.data;
  return preview;
}

/** The value the CLI writes for an output not known until the apply. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
/** The value the CLI writes for a secret. */
export const SECRET = "[secret]";
