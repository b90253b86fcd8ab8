#!/usr/bin/env node
// A committed launcher, so installing the package never points a bin at a dist/ file not built yet.
// Clients that spawn the emulator run dist/bin.js directly (emulatorBinaryPath()).
await import("../dist/bin.js");
