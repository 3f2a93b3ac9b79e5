/**
 * The changelog template language (gitlabhq lib/gitlab/template_parser/,
 * documented in doc/user/project/changelogs.md), which both the default
 * template and a project's own `template:` are written in:
 * - `{{ a.b.0.c }}` prints a value (nothing for a missing one); `it` is the
 *   current loop value;
 * - `{% if x %}…{% else %}…{% end %}`: true for a non-empty value or `true`
 *   (empty strings, arrays and hashes, null and false are false);
 * - `{% each x %}…{% end %}`: the body once per element, names read from it;
 * - a `{% … %}` tag swallows the newline right after it, and a line ending in
 *   a backslash is joined to the next.
 * A template that does not parse throws TemplateError (the API's 422).
 */

export class TemplateError extends Error {}

type Node =
  | { kind: "text"; text: string }
  | { kind: "print"; path: string[] }
  | { kind: "if"; path: string[]; then: Node[]; otherwise: Node[] }
  | { kind: "each"; path: string[]; body: Node[] };

const TAG = /\{%\s*(.*?)\s*%\}\n?|\{\{\s*(.*?)\s*\}\}/gs;
const IDENTIFIER_PATH = /^(?:[A-Za-z_][A-Za-z0-9_]*|\d+)(?:\.(?:[A-Za-z_][A-Za-z0-9_]*|\d+))*$/;

function pathOf(expression: string, tag: string): string[] {
  if (!IDENTIFIER_PATH.test(expression)) throw new TemplateError(`The template tag "${tag}" is invalid`);
  return expression.split(".");
}

interface OpenBlock {
  node: Extract<Node, { kind: "if" | "each" }>;
  /** Where new nodes go: the body, or the `else` branch of an `if`. */
  target: Node[];
}

/** Parses a template into nodes (see the header); throws TemplateError. */
export function parseTemplate(source: string): Node[] {
  const text = source.replace(/\\\r?\n/g, "");
  const root: Node[] = [];
  const stack: OpenBlock[] = [];
  const here = (): Node[] => stack[stack.length - 1]?.target ?? root;
  let last = 0;
  for (const match of text.matchAll(TAG)) {
    if (match.index > last) here().push({ kind: "text", text: text.slice(last, match.index) });
    last = match.index + match[0].length;
    if (match[2] !== undefined) {
      here().push({ kind: "print", path: pathOf(match[2], match[0]) });
      continue;
    }
    const [keyword = "", ...rest] = (match[1] ?? "").split(/\s+/);
    const argument = rest.join(" ");
    if (keyword === "if" || keyword === "each") {
      const path = pathOf(argument, match[0].trim());
      const node: OpenBlock["node"] =
        keyword === "if" ? { kind: "if", path, then: [], otherwise: [] } : { kind: "each", path, body: [] };
      here().push(node);
      stack.push({ node, target: node.kind === "if" ? node.then : node.body });
    } else if (keyword === "else" && argument === "") {
      const open = stack[stack.length - 1];
      if (open?.node.kind !== "if" || open.target !== open.node.then) throw new TemplateError("An else tag must follow an if tag");
      open.target = open.node.otherwise;
    } else if (keyword === "end" && argument === "") {
      if (!stack.pop()) throw new TemplateError("An end tag has no matching if or each tag");
    } else {
      throw new TemplateError(`The template tag "${match[0].trim()}" is invalid`);
    }
  }
  if (last < text.length) here().push({ kind: "text", text: text.slice(last) });
  if (stack.length > 0) throw new TemplateError("An if or each tag is not closed with an end tag");
  return root;
}

function lookup(data: unknown, path: readonly string[]): unknown {
  let value = data;
  for (const name of path) {
    if (name === "it" && value === data) continue;
    if (Array.isArray(value) && /^\d+$/.test(name)) value = value[Number(name)];
    else if (typeof value === "object" && value !== null) value = (value as Record<string, unknown>)[name];
    else return undefined;
  }
  return value;
}

function truthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

function evaluate(nodes: readonly Node[], data: unknown): string {
  let out = "";
  for (const node of nodes) {
    switch (node.kind) {
      case "text":
        out += node.text;
        break;
      case "print": {
        const value = lookup(data, node.path);
        out += value === undefined || value === null ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);
        break;
      }
      case "if":
        out += evaluate(truthy(lookup(data, node.path)) ? node.then : node.otherwise, data);
        break;
      case "each": {
        const list = lookup(data, node.path);
        if (Array.isArray(list)) for (const item of list) out += evaluate(node.body, item);
        break;
      }
    }
  }
  return out;
}

/** Renders a parsed template with its data. */
export const renderTemplate = (nodes: readonly Node[], data: unknown): string => evaluate(nodes, data);

/**
 * The default template (lib/gitlab/changelog/template.tpl): a `###` heading
 * per category with its count, one line per entry linking the commit, the
 * author when credited, and the merge request when one is known.
 */
export const DEFAULT_CHANGELOG_TEMPLATE = `{% if categories %}
{% each categories %}
### {{ title }} ({% if single_change %}1 change{% else %}{{ count }} changes{% end %})

{% each entries %}
- [{{ title }}]({{ commit.web_url }})\\
{% if author.credit %} by {{ author.reference }}{% end %}\\
{% if merge_request %} ([merge request]({{ merge_request.web_url }})){% end %}

{% end %}

{% end %}
{% else %}
No changes.
{% end %}
`;
