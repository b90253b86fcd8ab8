import { isRecord, parseJsonSafely } from "../agent/json";

/** The structured result of the `get_weather` server tool, as the weather card reads it. */
export interface WeatherReport {
  location: string;
  temperature: number | undefined;
  feelsLike: number | undefined;
  unit: string;
  conditions: string;
  humidity: number | undefined;
  windSpeed: number | undefined;
  windUnit: string;
}

function numberOf(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/**
 * Reads a weather result. Servers differ on key style (snake_case vs camelCase, `city` vs
 * `location`), so both are accepted; anything that is not a JSON object yields undefined.
 */
export function weatherFromResult(content: unknown, requestedLocation: string): WeatherReport | undefined {
  const parsed = typeof content === "string" ? parseJsonSafely(content) : content;
  if (!isRecord(parsed)) return undefined;
  const pick = (...keys: string[]): unknown => keys.map((key) => parsed[key]).find((value) => value !== undefined);
  const location = pick("location", "city", "place");
  const conditions = pick("conditions", "condition", "description", "summary");
  const unit = pick("unit", "temperature_unit", "temperatureUnit");
  const windUnit = pick("wind_unit", "windUnit");
  return {
    location: typeof location === "string" ? location : requestedLocation,
    temperature: numberOf(pick("temperature", "temp")),
    feelsLike: numberOf(pick("feels_like", "feelsLike")),
    unit: typeof unit === "string" ? unit : "°C",
    conditions: typeof conditions === "string" ? conditions : "",
    humidity: numberOf(pick("humidity")),
    windSpeed: numberOf(pick("wind_speed", "windSpeed", "wind")),
    windUnit: typeof windUnit === "string" ? windUnit : "km/h",
  };
}
