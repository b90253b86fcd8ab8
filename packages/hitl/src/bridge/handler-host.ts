import type { SchemaValidator } from "../schema/schema-validator.js";
import type { TurnScope } from "../turn/turn-scope.js";
import type { HitlBridgeOptions } from "./bridge-options.js";
import type { HitlNotification } from "./notifications.js";
import type { ParkingDesk } from "./parking-desk.js";
import type { SharedState } from "./shared-state.js";
import type { ToolCatalogue } from "./tool-catalogue.js";

/**
 * What the handlers of the bridge's own tools (host-tools.ts) and of its harness hooks
 * (harness-hooks.ts) need from their bridge, which owns every piece of it. A port of its own, as
 * `RunHost` is for a run, so the handlers keep no state and see no more of the bridge than this.
 */
export interface HandlerHost {
  readonly options: HitlBridgeOptions;
  readonly validator: SchemaValidator;
  readonly desk: ParkingDesk;
  readonly shared: SharedState;
  readonly tools: ToolCatalogue;
  /** An id for an interrupt, or for a call the harness gave none. */
  createId(): string;
  /** Tells the client: through the attached run, else the next run. */
  notify(notification: HitlNotification): void;
  /** The turn in progress, if one is. */
  currentTurn(): TurnScope | undefined;
}
