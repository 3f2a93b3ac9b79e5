/** Project and group webhooks, and the delivery of the events the emulator produces to them. */
import type { EmulatorArea } from "../../area";
import { deliverQueued } from "./deliver";
import { hookRoutesOfOwners } from "./routes";

export const hooksArea: EmulatorArea = {
  name: "hooks",
  routes: hookRoutesOfOwners,
  // Events queued by requests go out here, on the emulator's timer or `runDueWork()`: never within the request that caused them.
  runDue: deliverQueued,
};
