// Imported into a server the bench measures (`node --expose-gc --import report-memory.mjs …`): on
// SIGUSR2 it runs two full collections and prints one `MEMORY {json}` line (process.memoryUsage() after
// them) on stderr, so the bench reads a server's idle footprint without the garbage its startup left.
process.on("SIGUSR2", () => {
  globalThis.gc?.();
  globalThis.gc?.();
  process.stderr.write(`MEMORY ${JSON.stringify(process.memoryUsage())}\n`);
});
