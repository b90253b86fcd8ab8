/*
 * Which wheel of google-antigravity fits this machine. The wheel's Python tag does not matter (we
 * want its Go binary, not its Python), only its platform tag: `manylinux_2_17_x86_64`,
 * `macosx_11_0_arm64`, `win_amd64`, ... (a tag may hold several, joined with dots).
 */

/** One file of a release on the package index. */
export interface IndexFile {
  filename: string;
  url: string;
  /** The index's sha256 of the file, hex; a file without one is never installed. */
  sha256: string | undefined;
}

/** A wheel's parts, from its file name. */
export interface WheelName {
  version: string;
  platformTags: string[];
}

/** Reads `<name>-<version>[-<build>]-<python>-<abi>-<platform>.whl`; undefined for anything else. */
export function parseWheelName(filename: string): WheelName | undefined {
  if (!filename.endsWith(".whl")) return undefined;
  const parts = filename.slice(0, -4).split("-");
  if (parts.length !== 5 && parts.length !== 6) return undefined;
  const version = parts[1];
  const platform = parts.at(-1);
  if (version === undefined || platform === undefined) return undefined;
  return { version, platformTags: platform.split(".") };
}

/** The platform tag patterns a wheel for this OS and CPU carries, best first. */
export function platformTagPatterns(platform: NodeJS.Platform = process.platform, arch: string = process.arch): RegExp[] {
  const cpu = { x64: { linux: "x86_64", mac: "x86_64", windows: "amd64" }, arm64: { linux: "aarch64", mac: "arm64", windows: "arm64" } }[arch as "x64" | "arm64"];
  if (cpu === undefined) return [];
  if (platform === "linux") return [new RegExp(`^manylinux\\w*_${cpu.linux}$`), new RegExp(`^linux_${cpu.linux}$`)];
  if (platform === "darwin") return [new RegExp(`^macosx_\\d+_\\d+_${cpu.mac}$`), /^macosx_\d+_\d+_universal2$/];
  if (platform === "win32") return [new RegExp(`^win_${cpu.windows}$`)];
  return [];
}

/**
 * The wheel of `files` for this machine: the first platform pattern any wheel matches decides. Undefined
 * when none fits (the error then lists what the release has).
 */
export function pickPlatformWheel(files: readonly IndexFile[], patterns: readonly RegExp[] = platformTagPatterns()): IndexFile | undefined {
  for (const pattern of patterns) {
    const match = files.find((file) => parseWheelName(file.filename)?.platformTags.some((tag) => pattern.test(tag)) === true);
    if (match !== undefined) return match;
  }
  return undefined;
}
