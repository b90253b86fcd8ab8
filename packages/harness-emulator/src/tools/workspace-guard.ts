import { readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { EmulatorError } from "../errors/emulator-error.js";

/** Links followed at most while resolving one path; Linux gives up at 40 too (ELOOP). */
const maxLinkHops = 40;

/**
 * Resolves a path through symlinks; for a path that does not exist yet, through its nearest existing
 * parent. A dangling symlink resolves to where it points, since writing to it would create that file.
 */
function realpathLenient(path: string, hops = 0): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    let target: string | undefined;
    try {
      target = readlinkSync(path);
    } catch {
      target = undefined;
    }
    if (target !== undefined) {
      if (hops >= maxLinkHops) throw new EmulatorError("WORKSPACE_VIOLATION", `path ${path} goes through too many symbolic links`);
      return realpathLenient(resolve(parent, target), hops + 1);
    }
    return resolve(realpathLenient(parent, hops), basename(path));
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
    if (!this.contains(absolute)) throw new EmulatorError("WORKSPACE_VIOLATION", `path ${absolute} is outside the workspaces`);
    return absolute;
  }

  /**
   * Whether an absolute path, once every symlink on it is followed (a dangling one included), lies
   * inside a workspace. Walks use it for each entry, so a link inside a workspace leads nowhere else.
   */
  contains(absolute: string): boolean {
    if (!this.#enforce) return true;
    let real: string;
    try {
      real = realpathLenient(absolute);
    } catch {
      return false;
    }
    return this.#realRoots.some((root) => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep));
  }
}
