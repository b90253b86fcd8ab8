import type { InlineConfig } from "vitest/node";

export declare const sharedTestOptions: InlineConfig;
