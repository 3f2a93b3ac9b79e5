/**
 * The shape of src/ that keeps an area's layers apart: imports run one way
 * (nothing in functions/ or actions/ imports resources/, and api/ imports no
 * layer above it), and no module imports itself through others (a circle
 * makes the load order decide what is defined). Type-only imports do not
 * count: they are gone at run time.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const src = path.resolve(__dirname, "../src");

function modules(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return modules(file);
    return name.endsWith(".ts") ? [file] : [];
  });
}

/** The modules of src/ each module imports at run time. */
function valueImports(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of modules(src)) {
    const text = readFileSync(file, "utf8");
    const targets: string[] = [];
    for (const match of text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+"(\.[^"]+)"/gm)) {
      const base = path.resolve(path.dirname(file), match[1]!);
      const target = [`${base}.ts`, path.join(base, "index.ts")].find((candidate) => existsSync(candidate));
      if (target) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The circles of the graph: each strongly connected group of more than one module (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (module: string): void => {
    index.set(module, next);
    low.set(module, next++);
    stack.push(module);
    onStack.add(module);
    for (const target of graph.get(module) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(module, Math.min(low.get(module)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(module, Math.min(low.get(module)!, index.get(target)!));
    }
    if (low.get(module) !== index.get(module)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(path.relative(src, member));
    } while (member !== module);
    if (group.length > 1) found.push(group.sort());
  };
  for (const module of graph.keys()) if (!index.has(module)) visit(module);
  return found;
}

const layerOf = (file: string) => path.relative(src, file).split(path.sep)[0]!;

describe("the layers of src/", () => {
  const graph = valueImports();

  it("no module imports itself through others", () => {
    expect(circles(graph)).toEqual([]);
  });

  it("imports run one way: functions/ and actions/ never import resources/; api/ imports only client/; nothing imports import/", () => {
    const crossings: string[] = [];
    for (const [file, targets] of graph) {
      for (const target of targets) {
        const [from, to] = [layerOf(file), layerOf(target)];
        const wrong =
          ((from === "functions" || from === "actions") && to === "resources") ||
          (from === "api" && !["api", "client"].includes(to) && !to.endsWith(".ts")) ||
          // platform-import (src/import) sits on top: it reads through resources/, engine/, api/ and client/, and none of them know it.
          (to === "import" && from !== "import") ||
          (from === "import" && !["import", "resources", "engine", "api", "client"].includes(to) && !to.endsWith(".ts"));
        if (wrong) crossings.push(`${path.relative(src, file)} → ${path.relative(src, target)}`);
      }
    }
    expect(crossings).toEqual([]);
  });
});
