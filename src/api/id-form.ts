/**
 * How a resource kind names its object in the id it records, declared beside
 * the area's paths: the form in words and its parse. The engine checks the id
 * of an `import` option with it before any request (../engine/import.ts), and
 * the kind reads its recorded ids through it, refusing one not of the form in
 * the same words.
 */

export interface IdForm<T = unknown> {
  /** What an id of the kind is, completing "is not ...": `of the form projects/<project>/badges/<id>`. */
  readonly says: string;
  /** The id's parts; undefined when the id is not of the form. */
  parse(id: string): T | undefined;
}

export function idForm<T>(says: string, parse: (id: string) => T | undefined): IdForm<T> {
  return { says, parse };
}

/** The one wording of an id not of its kind's form: `Badge id "42" is not of the form ...`. */
export function malformedId(kind: string, form: IdForm, id: string): string {
  return `${kind} id "${id}" is not ${form.says}.`;
}

/** The parts of a recorded id of `kind`; an id not of the form is refused, saying the form. */
export function parsedId<T>(kind: string, form: IdForm<T>, id: string): T {
  const parsed = form.parse(id);
  if (parsed === undefined) throw new Error(malformedId(kind, form, id));
  return parsed;
}
