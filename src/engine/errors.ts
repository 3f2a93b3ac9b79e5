/** The failures the engine and the resource modules raise on purpose. */
import type { AnyResourceDefinition, Live } from "./definition";

/**
 * Thrown from create when the object exists but a later step failed: the engine
 * records the object (id and outputs) as created-but-failed, so nothing is
 * orphaned and the next `up` finishes the job.
 */
export class PartialCreateError extends Error {
  readonly id: string;
  properties: Record<string, unknown>;
  readonly reasons: string[];
  /** The API object as it stands, when the engine should record it (see `fromLive`). */
  readonly live?: Live;
  constructor(message: string, id: string, properties: Record<string, unknown>, live?: Live) {
    super(message);
    this.id = id;
    this.properties = properties;
    this.reasons = [message];
    this.live = live;
    this.stack = "";
  }

  /** From a resource's create hook: the engine turns `live` into the recorded outputs. */
  static fromLive(message: string, id: string, live: Live): PartialCreateError {
    return new PartialCreateError(message, id, {}, live);
  }
}

/**
 * An expected failure whose message already says what happened and what to
 * do (a refusal explained, an object in the way): the engine shows it as it
 * is, secrets redacted, with no stack trace of ours.
 */
export class ExplainedError extends Error {
  /**
   * Pulumi's program runner prints an error so marked as its message alone
   * (`RunError.isInstance`), where any other error of a program (a data
   * function's, say) reads `Running program … failed with an unhandled
   * exception` followed by its stack.
   */
  readonly __pulumiRunError = true;
  constructor(message: string) {
    super(message);
    this.stack = "";
  }
}

/**
 * For the kinds whose create takes over what is there by nature (settings
 * resources, `importByCreating` kinds): the object create takes must be the
 * one the import names, or the declaration and the id disagree.
 */
export function checkImportedId(definition: AnyResourceDefinition, importId: string, found: string): void {
  if (found === importId) return;
  throw new ExplainedError(
    `${definition.name}: cannot import "${importId}": the declared properties name the object "${found}". ` +
      `Import "${found}", or change the declaration to name the object "${importId}" is.`,
  );
}
