import { CLIENT_ERROR_CODES, type ClientErrorCodeInfo } from "@ag-ui-antigravity/core";

/** The first-`RUN_ERROR` codes answered with an HTTP status, from the one table in core. */
export function runRefusalStatuses(): Record<string, number> {
  const statuses: Record<string, number> = {};
  for (const [name, info] of Object.entries(CLIENT_ERROR_CODES) as [string, ClientErrorCodeInfo][]) {
    if (info.refusesRun && info.httpStatus !== null) statuses[name] = info.httpStatus;
  }
  return statuses;
}

/** docs/error-codes.md's table, rendered from the vocabulary. */
export function renderClientErrorCodeTable(): string {
  const rows = (Object.entries(CLIENT_ERROR_CODES) as [string, ClientErrorCodeInfo][]).map(([name, info]) => {
    const status = info.httpStatus === null ? "streamed" : String(info.httpStatus);
    const when = info.refusesRun ? "HTTP error when it is the first event, else streamed" : info.httpStatus === null ? "`RUN_ERROR` in the stream" : "HTTP error body";
    return `| \`${name}\` | ${status} | ${when} | ${info.from} | ${info.meaning} |`;
  });
  return ["| code | HTTP status | how it arrives | sent by | meaning |", "| --- | --- | --- | --- | --- |", ...rows].join("\n");
}
