import { setFlagsFromString } from "node:v8";

// V8's default: after a scavenge in which much survived, the young generation doubles (up to 16 MiB a
// semi-space). Loading the server is one long such phase (every module's schemas and closures survive),
// so by the time it listens the young generation has grown to its maximum and stays resident while the
// server idles: about 20 MiB of RSS for a phase that is over (BENCHMARKS.md, section 6: idle RSS). V8 reads this
// flag each time it would grow the young generation, so it can be held at 1 while the server loads and
// given back once it listens; under load the young generation then grows as usual.
const defaultSemiSpaceGrowthFactor = 2;

/** Keeps the young generation at its initial size while modules load. */
export function holdYoungGenerationWhileLoading(): void {
  setFlagsFromString("--semi-space-growth-factor=1");
}

/** Lets the young generation grow under load again (V8's default growth). */
export function releaseYoungGeneration(): void {
  setFlagsFromString(`--semi-space-growth-factor=${defaultSemiSpaceGrowthFactor}`);
}
