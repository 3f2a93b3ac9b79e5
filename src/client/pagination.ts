/**
 * Reading the `Link` header (RFC 8288) that both offset and keyset pagination
 * use to point at the next page. Clients follow it rather than building URLs.
 */

/** The URL of relation `rel` in a `Link` header, if present. */
export function linkRelation(header: string | string[] | undefined, rel: string): string | undefined {
  const value = Array.isArray(header) ? header.join(", ") : header;
  // Most answers are a list's only or last page: no parsing when the relation is not named at all.
  if (!value || !value.toLowerCase().includes(rel)) return undefined;
  for (const match of value.matchAll(/<([^>]*)>\s*((?:;\s*[^;,]+)*)/g)) {
    const params = match[2] ?? "";
    const rels = /;\s*rel="?([^";]+)"?/i.exec(params)?.[1]?.split(/\s+/) ?? [];
    if (rels.includes(rel)) return match[1];
  }
  return undefined;
}
