import type { Options } from "tsup";

export declare const publishedBuildOptions: Options;
