/**
 * The provider object that resource classes hand to Pulumi, and that Pulumi
 * serializes into the state of every resource. It is deliberately thin: each
 * method loads the implementation from the installed package when called.
 * So the state stays small, nothing (no credentials) is captured, and a stack
 * written by an older version is refreshed and deleted by today's code.
 */
import type * as pulumi from "@pulumi/pulumi";

const shims = new Map<string, pulumi.dynamic.ResourceProvider>();

/**
 * The provider for one resource kind; the same object every time, so Pulumi
 * serializes it once. Its methods load `pulumi-platform/runtime`, which must
 * resolve from the program's directory (it does once the package is installed).
 */
export function providerShim(kind: string): pulumi.dynamic.ResourceProvider {
  let shim = shims.get(kind);
  if (!shim) {
    shim = makeShim(kind);
    shims.set(kind, shim);
  }
  return shim;
}

function makeShim(kind: string): pulumi.dynamic.ResourceProvider {
  // Each method is self-contained: the serializer captures only `kind`.
  return {
    async configure(request) {
      return require("pulumi-platform/runtime").provider(kind).configure(request);
    },
    async check(olds, news) {
      return require("pulumi-platform/runtime").provider(kind).check(olds, news);
    },
    async diff(id, olds, news) {
      return require("pulumi-platform/runtime").provider(kind).diff(id, olds, news);
    },
    async create(inputs) {
      return require("pulumi-platform/runtime").provider(kind).create(inputs);
    },
    async read(id, props) {
      return require("pulumi-platform/runtime").provider(kind).read(id, props);
    },
    async update(id, olds, news) {
      return require("pulumi-platform/runtime").provider(kind).update(id, olds, news);
    },
    async delete(id, props) {
      return require("pulumi-platform/runtime").provider(kind).delete(id, props);
    },
  };
}
