#!/usr/bin/env node
// A committed launcher, so installing the package never points a bin at a dist/ file not built yet.
await import("../dist/bin.js");
