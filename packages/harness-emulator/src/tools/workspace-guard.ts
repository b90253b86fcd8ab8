import { realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { EmulatorError } from "../errors/emulator-error.js";

/** Resolves a path through symlinks; for a path that does not exist yet, through its nearest existing parent. */
function realpathLenient(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    return resolve(realpathLenient(parent), relative(parent, path));
  }
}

/**
 * Keeps builtin file tools inside the conversation's workspaces, the containment the real harness
 * enforces natively. Symlinks are resolved first so a link inside a workspace cannot point outside it.
 */
export class WorkspaceGuard {
  readonly roots: readonly string[];
  readonly #realRoots: readonly string[];
  readonly #enforce: boolean;

  constructor(options: { roots: readonly string[]; enforce: boolean }) {
    this.roots = options.roots;
    this.#realRoots = options.roots.map((root) => realpathLenient(root));
    this.#enforce = options.enforce;
  }

  /** Absolute path for a model-supplied one: `file://` URIs decoded, relative paths taken from the first workspace. */
  resolvePath(path: string): string {
    const plain = path.startsWith("file://") ? fileURLToPath(path) : path;
    if (isAbsolute(plain)) return resolve(plain);
    const base = this.roots[0];
    if (base === undefined) throw new EmulatorError("WORKSPACE_VIOLATION", `relative path "${path}" but no workspace is configured`);
    return resolve(base, plain);
  }

  /** Returns the absolute path if it lies inside a workspace, else throws WORKSPACE_VIOLATION. */
  check(path: string): string {
    const absolute = this.resolvePath(path);
    if (!this.#enforce) return absolute;
    const real = realpathLenient(absolute);
    const inside = this.#realRoots.some((root) => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep));
    if (!inside) throw new EmulatorError("WORKSPACE_VIOLATION", `path ${absolute} is outside the workspaces`);
    return absolute;
  }
}
