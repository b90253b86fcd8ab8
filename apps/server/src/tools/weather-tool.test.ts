import { describe, expect, it } from "vitest";
import { simulatedWeather } from "./weather-tool.js";

describe("simulatedWeather", () => {
  it("is deterministic per place, whatever its case or padding, and differs between places", () => {
    expect(simulatedWeather(" tokyo ")).toEqual({ ...simulatedWeather("Tokyo"), location: "tokyo" });
    expect(simulatedWeather("Tokyo")).not.toEqual({ ...simulatedWeather("Paris"), location: "Tokyo" });
  });

  it("stays in plausible ranges", () => {
    for (const place of ["Tokyo", "Paris", "San Francisco", "New York", "Reykjavik", "", "Ushuaia"]) {
      const report = simulatedWeather(place);
      expect(report.temperature).toBeGreaterThanOrEqual(-5);
      expect(report.temperature).toBeLessThanOrEqual(30);
      expect(report.humidity).toBeGreaterThanOrEqual(30);
      expect(report.humidity).toBeLessThanOrEqual(95);
      expect(report.wind_speed).toBeGreaterThanOrEqual(3);
      expect(report.conditions).not.toBe("");
    }
    expect(simulatedWeather("").location).toBe("Unknown");
  });

  it("is near a mild day at the place: San Francisco is never freezing, Singapore never cold, no rain below 0 °C", () => {
    expect(Math.abs(simulatedWeather("San Francisco").temperature - 16)).toBeLessThanOrEqual(4);
    expect(simulatedWeather("Singapore").temperature).toBeGreaterThanOrEqual(25);
    for (const place of ["Anchorage", "Reykjavik", "Oslo", "Moscow", "Atlantis", "Ushuaia"]) {
      const report = simulatedWeather(place);
      if (report.temperature <= 0) expect(report.conditions).not.toMatch(/rain|shower/i);
      else expect(report.conditions).not.toMatch(/snow/i);
    }
  });
});
