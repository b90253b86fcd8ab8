// The demo server's entry point (`pnpm start` runs the built copy). It only holds V8's young generation
// at its initial size before anything else loads, then loads and runs the server (serve.ts), which
// releases it once it listens: see startup-heap.ts for why.
import { holdYoungGenerationWhileLoading } from "./startup-heap.js";

holdYoungGenerationWhileLoading();
await import("./serve.js");
