import { describe, expect, test } from "vitest";
import { weatherFromResult } from "../../src/features/weather.js";

describe("weatherFromResult", () => {
  test("reads the snake_case result the demo server sends", () => {
    const weather = weatherFromResult(
      JSON.stringify({ location: "Paris", temperature: 18, feels_like: 17, conditions: "Partly cloudy", humidity: 72, wind_speed: 14, unit: "°C" }),
      "ignored",
    );
    expect(weather).toEqual({ location: "Paris", temperature: 18, feelsLike: 17, unit: "°C", conditions: "Partly cloudy", humidity: 72, windSpeed: 14, windUnit: "km/h" });
  });

  test("accepts camelCase keys, `city`, numeric strings and an already-parsed object", () => {
    const weather = weatherFromResult({ city: "Oslo", temperature: "-3.5", feelsLike: -8, condition: "Snow", humidity: "90", windSpeed: 20 }, "fallback");
    expect(weather).toMatchObject({ location: "Oslo", temperature: -3.5, feelsLike: -8, conditions: "Snow", humidity: 90, windSpeed: 20 });
  });

  test("falls back to the requested location and leaves missing numbers undefined", () => {
    expect(weatherFromResult("{}", "Lima")).toMatchObject({ location: "Lima", temperature: undefined, humidity: undefined });
  });

  test("is undefined for results that are not a JSON object, so the generic card shows them", () => {
    expect(weatherFromResult("Weather service unavailable", "Rome")).toBeUndefined();
    expect(weatherFromResult("[1,2]", "Rome")).toBeUndefined();
  });
});
