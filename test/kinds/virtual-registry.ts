import { USERS, type KindTests } from "./index.mts";

export default {
  kind: "VirtualRegistry",
  matrix: (server) => {
    const flags = () => server.emulator.state.instance.featureFlags!;
    let saved: boolean | string[] | undefined;
    return [
      { create: (n) => ({ group: "acme", name: `matrix-${n}` }), update: { description: "changed" }, without: { replace: "only the group replaces: a create elsewhere, as create rows" } },
      // The flag off: administrators read it; the server refuses everyone.
      {
        create: (n) => ({ group: "acme", name: `flagged-${n}` }),
        around: {
          set: () => {
            saved = flags().container_virtual_registries;
            flags().container_virtual_registries = false;
          },
          reset: () => void (flags().container_virtual_registries = saved!),
        },
        unknownTo: USERS.filter((user) => user !== "root"),
        without: { update: "the flag gates every request: as create rows", delete: "idem", replace: "idem" },
      },
    ];
  },
  secrets: { declarations: [{ name: "registry", args: { group: "acme", name: "secrets-test" } }] },
} satisfies KindTests;
