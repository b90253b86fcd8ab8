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

/** A mild day's temperature (°C) for places people ask about; anywhere else gets a temperate one. */
const typicalTemperatures: Readonly<Record<string, number>> = {
  "san francisco": 16, tokyo: 18, "new york": 14, london: 13, paris: 14, berlin: 12, rome: 19, madrid: 17,
  sydney: 20, singapore: 29, mumbai: 29, dubai: 31, cairo: 24, toronto: 10, chicago: 11, seattle: 13,
  "los angeles": 20, "mexico city": 18, "são paulo": 21, "sao paulo": 21, "buenos aires": 18, lima: 19,
  moscow: 7, stockholm: 9, oslo: 7, reykjavik: 5, ushuaia: 6, "cape town": 18, nairobi: 19, delhi: 26,
  beijing: 14, seoul: 13, "hong kong": 24, bangkok: 29, honolulu: 26, anchorage: 3,
};
const temperateDefault = 16;

/** Conditions that go with a temperature: no rain below freezing, no snow above it. */
function conditionsFor(temperature: number, pick: number): string {
  const options = temperature <= 0 ? ["Clear", "Cloudy", "Light snow", "Overcast"] : temperature >= 26 ? ["Sunny", "Partly cloudy", "Humid", "Thunderstorms"] : ["Sunny", "Partly cloudy", "Cloudy", "Light rain", "Showers", "Overcast"];
  return options[pick % options.length] ?? "Clear";
}

/**
 * Deterministic, plausible weather for a place: the same place always gets the same report (so
 * demos and tests are reproducible without an external weather service or a key for one), near a
 * mild day there: a known city's typical temperature, else a temperate one, within ±4 °C.
 */
export function simulatedWeather(location: string): WeatherReport {
  const place = location.trim() === "" ? "Unknown" : location.trim();
  const digest = createHash("sha256").update(place.toLowerCase()).digest();
  const byte = (index: number): number => digest[index] ?? 0;
  const typical = typicalTemperatures[place.toLowerCase()] ?? temperateDefault;
  const temperature = typical + Math.round((byte(0) / 255) * 8 - 4);
  const wind = 3 + Math.round((byte(1) / 255) * 27);
  return {
    location: place,
    temperature,
    // Wind makes it feel colder; humid heat, warmer.
    feels_like: temperature >= 26 ? temperature + 2 : temperature - Math.round(wind / 12),
    unit: "°C",
    conditions: conditionsFor(temperature, byte(2)),
    humidity: 30 + Math.round((byte(3) / 255) * 60),
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
