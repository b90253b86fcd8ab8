import type { ToolCall } from "@ag-ui/client";
import { weatherFromResult } from "../features/weather";
import { ToolCallCard, ToolStatusPill, type ToolCallStatus } from "./ToolCallCard";

interface WeatherCardProps {
  location: string;
  resultText: string | undefined;
  toolCall: ToolCall;
  status: ToolCallStatus;
}

function conditionIcon(conditions: string): string {
  const lower = conditions.toLowerCase();
  if (/thunder|storm/.test(lower)) return "⛈";
  if (/snow|sleet/.test(lower)) return "❄";
  if (/rain|drizzle|shower/.test(lower)) return "🌧";
  if (/fog|mist|haze/.test(lower)) return "🌫";
  if (/cloud|overcast/.test(lower)) return "☁";
  return "☀";
}

function formatted(value: number | undefined, suffix: string): string {
  return value === undefined ? "—" : `${Math.round(value * 10) / 10}${suffix}`;
}

/** `get_weather` rendered from its structured result; a placeholder until the result arrives. */
export function WeatherCard({ location, resultText, toolCall, status }: WeatherCardProps) {
  if (resultText === undefined) {
    return (
      <div className="weather-card loading" data-testid="weather-card-loading" data-status={status}>
        <div className="weather-header">
          <span>Checking the weather{location === "" ? "" : ` in ${location}`}…</span>
          <ToolStatusPill status={status} />
        </div>
      </div>
    );
  }
  const weather = weatherFromResult(resultText, location);
  // A result that is not structured weather (an error message, say) still deserves to be seen.
  if (weather === undefined) return <ToolCallCard toolCall={toolCall} resultText={resultText} status={status} />;
  const unit = weather.unit.startsWith("°") ? weather.unit : `°${weather.unit}`;
  return (
    <div className="weather-card" data-testid="weather-card" data-tool-name="get_weather" data-status={status}>
      <div className="weather-header">
        <div>
          <div className="weather-eyebrow">Current weather</div>
          <div className="weather-location" data-testid="weather-location">
            {weather.location}
          </div>
        </div>
        <div className="weather-icon" aria-hidden="true">
          {conditionIcon(weather.conditions)}
        </div>
      </div>
      <div className="weather-main">
        <span className="weather-temperature" data-testid="weather-temperature">
          {formatted(weather.temperature, unit)}
        </span>
        <span className="weather-conditions" data-testid="weather-conditions">
          {weather.conditions}
        </span>
      </div>
      <dl className="weather-details">
        <div>
          <dt>Humidity</dt>
          <dd data-testid="weather-humidity">{formatted(weather.humidity, "%")}</dd>
        </div>
        <div>
          <dt>Wind</dt>
          <dd data-testid="weather-wind">{formatted(weather.windSpeed, ` ${weather.windUnit}`)}</dd>
        </div>
        <div>
          <dt>Feels like</dt>
          <dd>{formatted(weather.feelsLike, unit)}</dd>
        </div>
      </dl>
    </div>
  );
}
