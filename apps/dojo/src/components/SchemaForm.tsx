import { useState } from "react";
import { fieldsOf, valueOf, type Field, type JsonSchema } from "../features/schemaFields";

interface SchemaFormProps {
  schema: JsonSchema;
  disabled: boolean;
  onSubmit(payload: unknown): void;
}

/** A form generated from an interrupt's `responseSchema`, covering the shapes agents actually ask for. */
export function SchemaForm({ schema, disabled, onSubmit }: SchemaFormProps) {
  const { fields, wrapped } = fieldsOf(schema);
  const [raw, setRaw] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (name: string, value: unknown): void => setRaw((current) => ({ ...current, [name]: value }));

  const submit = (): void => {
    const payload: Record<string, unknown> = {};
    const found: Record<string, string> = {};
    for (const field of fields) {
      const { value, error } = valueOf(field, raw[field.name]);
      if (error !== undefined) found[field.name] = error;
      else if (value !== undefined) payload[field.name] = value;
    }
    setErrors(found);
    if (Object.keys(found).length === 0) onSubmit(wrapped ? payload["value"] : payload);
  };

  return (
    <form
      className="schema-form"
      data-testid="schema-form"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {fields.map((field) => (
        <div key={field.name} className="schema-field" data-testid={`schema-field-${field.name}`}>
          <div className="schema-label">
            {field.label}
            {field.required && <span className="required-mark"> *</span>}
          </div>
          {field.description !== undefined && <div className="schema-description">{field.description}</div>}
          <FieldInput field={field} value={raw[field.name]} disabled={disabled} onChange={(value) => set(field.name, value)} />
          {errors[field.name] !== undefined && <div className="field-error">{errors[field.name]}</div>}
        </div>
      ))}
      <div className="button-row">
        <button type="submit" className="button primary" data-testid="schema-submit" disabled={disabled}>
          Send answer
        </button>
      </div>
    </form>
  );
}

interface FieldInputProps {
  field: Field;
  value: unknown;
  disabled: boolean;
  onChange(value: unknown): void;
}

function FieldInput({ field, value, disabled, onChange }: FieldInputProps) {
  switch (field.kind) {
    case "choice":
      return (
        <div className="question-options">
          {field.options.map((option, index) => (
            <button
              key={index}
              type="button"
              className={value === option ? "option selected" : "option"}
              aria-pressed={value === option}
              data-testid="schema-option"
              disabled={disabled}
              onClick={() => onChange(option)}
            >
              {String(option)}
            </button>
          ))}
        </div>
      );
    case "multi-choice": {
      const chosen = Array.isArray(value) ? value : [];
      return (
        <div className="question-options">
          {field.options.map((option, index) => (
            <label key={index} className="chip-toggle">
              <input
                type="checkbox"
                checked={chosen.includes(option)}
                disabled={disabled}
                onChange={(event) => onChange(event.target.checked ? [...chosen, option] : chosen.filter((item) => item !== option))}
              />
              {String(option)}
            </label>
          ))}
        </div>
      );
    }
    case "boolean":
      return (
        <label className="chip-toggle">
          <input type="checkbox" data-testid="schema-input" checked={value === true} disabled={disabled} onChange={(event) => onChange(event.target.checked)} />
          Yes
        </label>
      );
    case "json":
      return <textarea className="code-editor" data-testid="schema-input" rows={4} value={typeof value === "string" ? value : ""} disabled={disabled} onChange={(event) => onChange(event.target.value)} />;
    default:
      return (
        <input
          data-testid="schema-input"
          type={field.kind === "number" ? "number" : "text"}
          placeholder={field.kind === "list" ? "Comma-separated" : ""}
          value={typeof value === "string" ? value : ""}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value)}
        />
      );
  }
}
