import { createHash } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { CustomTool } from "@ag-ui-antigravity/harness";

/** The structured result the dojo's weather card reads (snake_case, as the AG-UI dojo's pages do). */
export interface WeatherReport {
  location: string;
  temperature: number;
  feels_like: number;
  unit: "°C";
  conditions: string;
  humidity: number;
  wind_speed: number;
  wind_unit: "km/h";
  /** Always "simulated": the demo makes no network calls, so the numbers are derived from the place name. */
  source: "simulated";
}

const conditionsByIndex = ["Sunny", "Partly cloudy", "Cloudy", "Light rain", "Showers", "Windy", "Foggy", "Clear"] as const;

/**
 * Deterministic weather for a place: the same place always gets the same report, so demos and tests
 * are reproducible without an external weather service or a key for one.
 */
export function simulatedWeather(location: string): WeatherReport {
  const place = location.trim() === "" ? "Unknown" : location.trim();
  const digest = createHash("sha256").update(place.toLowerCase()).digest();
  const byte = (index: number): number => digest[index] ?? 0;
  const temperature = Math.round((byte(0) / 255) * 35 - 5);
  const wind = 3 + Math.round((byte(1) / 255) * 37);
  return {
    location: place,
    temperature,
    feels_like: temperature - Math.round(wind / 15),
    unit: "°C",
    conditions: conditionsByIndex[byte(2) % conditionsByIndex.length] ?? "Clear",
    humidity: 30 + Math.round((byte(3) / 255) * 65),
    wind_speed: wind,
    wind_unit: "km/h",
    source: "simulated",
  };
}

/** How long the simulated lookup takes: about a quick real weather API's round trip. */
export const weatherLookupMs = 400;


export const getWeatherTool: CustomTool = {
  name: "get_weather",
  description:
    "Get the current weather for a place: temperature (°C), feels-like temperature, conditions, humidity (%) and wind speed (km/h). " +
    "The page renders the result as a weather card, so do not repeat every number; summarise it in one sentence.",
  parameters: {
    type: "object",
    properties: {
      location: { type: "string", description: "The city or place, e.g. 'Tokyo' or 'San Francisco'." },
    },
    required: ["location"],
  },
  handler: async (args, context) => {
    // A real weather service takes a moment; so does the simulation, so the page's pending card is seen.
    await delay(weatherLookupMs, undefined, { signal: context.signal });
    return simulatedWeather(typeof args["location"] === "string" ? args["location"] : "");
  },
};
