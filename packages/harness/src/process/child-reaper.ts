/**
 * The one process-wide exit hook that kills every harness process group still alive when Node
 * exits, so a crashed or forgetful host never leaves orphans. It lives on globalThis under a
 * registry symbol so the ESM and CJS builds (or two installs) share one hook instead of each
 * adding their own.
 */
interface ReaperState {
  groups: Set<number>;
  listener: (() => void) | undefined;
}

const stateKey = Symbol.for("ag-ui-antigravity.harness.childReaper");

function reaperState(): ReaperState {
  const holder = globalThis as unknown as Record<symbol, ReaperState | undefined>;
  let state = holder[stateKey];
  if (state === undefined) {
    state = { groups: new Set(), listener: undefined };
    holder[stateKey] = state;
  }
  return state;
}

/** Sends a signal to a whole process group; a group that is already gone is not an error. */
export function signalProcessGroup(processGroupId: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(process.platform === "win32" ? processGroupId : -processGroupId, signal);
    return true;
  } catch {
    return false;
  }
}

/** Registers a live process group; the exit listener exists only while some group is registered. */
export function trackProcessGroup(processGroupId: number): void {
  const state = reaperState();
  state.groups.add(processGroupId);
  if (state.listener === undefined) {
    const listener = (): void => {
      for (const group of state.groups) signalProcessGroup(group, "SIGKILL");
      state.groups.clear();
    };
    state.listener = listener;
    process.on("exit", listener);
  }
}

export function untrackProcessGroup(processGroupId: number): void {
  const state = reaperState();
  state.groups.delete(processGroupId);
  if (state.groups.size === 0 && state.listener !== undefined) {
    process.off("exit", state.listener);
    state.listener = undefined;
  }
}

/** For tests: the process groups the hook would kill now. */
export function trackedProcessGroups(): number[] {
  return [...reaperState().groups];
}
