import { describe, expect, it } from "vitest";
import { toolResultContent } from "./tool-result.js";

describe("toolResultContent", () => {
  it("returns a single added field as is, and several as one JSON object", () => {
    expect(toolResultContent({ toolName: "find_file", result: { output: "/tmp/a.txt" } })).toBe("/tmp/a.txt");
    expect(toolResultContent({ toolName: "search_directory", result: { numResults: 3 } })).toBe("3");
    expect(toolResultContent({ toolName: "generate_image", result: { imageName: "sunset", aspectRatio: "16:9" } })).toBe('{"imageName":"sunset","aspectRatio":"16:9"}');
  });

  it("tells no output apart from a failure, and never returns an empty string", () => {
    expect(toolResultContent({ toolName: "view_file" })).toBe("`view_file` completed without returning any output.");
    expect(toolResultContent({ toolName: "view_file", result: { output: "" } })).toBe("`view_file` completed without returning any output.");
    expect(toolResultContent({ toolName: "list_directory", result: { results: [] } })).toBe("`list_directory` completed without returning any output.");
    expect(toolResultContent({ toolName: "run_command", errorMessage: "" })).toBe("There was an error executing `run_command`: no details were given");
  });

  it("fails on a non-zero exit code, not on stderr alone", () => {
    expect(toolResultContent({ toolName: "run_command", result: { exitCode: "1" } })).toBe("There was an error executing `run_command`: exit code 1");
    expect(toolResultContent({ toolName: "run_command", result: { stderr: "warning" } })).toBe("warning");
  });

  it("reports the host's output when there are no result fields", () => {
    expect(toolResultContent({ toolName: "weather", output: { temperature: 21 } })).toBe('{"temperature":21}');
    expect(toolResultContent({ toolName: "weather", output: "sunny" })).toBe("sunny");
    expect(toolResultContent({ toolName: "weather", output: null })).toBe("`weather` completed without returning any output.");
  });
});
