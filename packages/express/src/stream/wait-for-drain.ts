import type { Response } from "express";

/**
 * Resolves once the response can take more data, or once it closed (a closed socket never drains,
 * and waiting on 'drain' alone would hang the writer forever). Both listeners are removed either way.
 */
export function waitForDrain(response: Response): Promise<void> {
  if (response.destroyed || response.writableEnded) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const settle = (): void => {
      response.off("drain", settle);
      response.off("close", settle);
      resolve();
    };
    response.on("drain", settle);
    response.on("close", settle);
  });
}
