import { useState } from "react";
import { isRecord } from "../agent/json";
import type { AgentSession } from "../agent/useAgentSession";
import { cookingTimes, dietaryPreferences, recipeFromState, skillLevels, type Recipe } from "../features/recipe";

/**
 * shared_state's recipe. The agent's STATE_SNAPSHOT / STATE_DELTA events re-render it live; the
 * user's edits go into the agent's state, which the next run carries to the server as `state`.
 * Editing is paused while a run streams, because the agent owns the state until the run ends.
 */
export function RecipeEditor({ session }: { session: AgentSession }) {
  const recipe = recipeFromState(session.state);
  const locked = session.isRunning;
  const [newIngredientName, setNewIngredientName] = useState("");
  const [newIngredientAmount, setNewIngredientAmount] = useState("");
  const [newInstruction, setNewInstruction] = useState("");

  const update = (changes: Partial<Recipe>): void => {
    const base = isRecord(session.state) ? session.state : {};
    session.updateState({ ...base, recipe: { ...recipe, ...changes } });
  };
  const togglePreference = (preference: string, on: boolean): void =>
    update({ special_preferences: on ? [...recipe.special_preferences, preference] : recipe.special_preferences.filter((item) => item !== preference) });
  const addIngredient = (): void => {
    if (newIngredientName.trim() === "") return;
    update({ ingredients: [...recipe.ingredients, { icon: "🍴", name: newIngredientName.trim(), amount: newIngredientAmount.trim() }] });
    setNewIngredientName("");
    setNewIngredientAmount("");
  };
  const addInstruction = (): void => {
    if (newInstruction.trim() === "") return;
    update({ instructions: [...recipe.instructions, newInstruction.trim()] });
    setNewInstruction("");
  };

  return (
    <aside className="side-panel recipe" data-testid="recipe-editor" data-locked={locked ? "true" : "false"}>
      <input
        className="recipe-title"
        data-testid="recipe-title"
        aria-label="Recipe title"
        value={recipe.title}
        disabled={locked}
        onChange={(event) => update({ title: event.target.value })}
      />
      {locked && <div className="recipe-lock">The agent is updating the recipe…</div>}
      <div className="recipe-meta">
        <label>
          Skill
          <select data-testid="recipe-skill" value={recipe.skill_level} disabled={locked} onChange={(event) => update({ skill_level: event.target.value })}>
            {[...new Set([...skillLevels, recipe.skill_level])].map((level) => (
              <option key={level}>{level}</option>
            ))}
          </select>
        </label>
        <label>
          Time
          <select data-testid="recipe-time" value={recipe.cooking_time} disabled={locked} onChange={(event) => update({ cooking_time: event.target.value })}>
            {[...new Set([...cookingTimes, recipe.cooking_time])].map((time) => (
              <option key={time}>{time}</option>
            ))}
          </select>
        </label>
      </div>

      <h3 className="recipe-section">Dietary preferences</h3>
      <div className="recipe-preferences">
        {[...new Set([...dietaryPreferences, ...recipe.special_preferences])].map((preference) => (
          <label key={preference} className="chip-toggle">
            <input
              type="checkbox"
              data-testid="recipe-preference"
              value={preference}
              checked={recipe.special_preferences.includes(preference)}
              disabled={locked}
              onChange={(event) => togglePreference(preference, event.target.checked)}
            />
            {preference}
          </label>
        ))}
      </div>

      <h3 className="recipe-section">Ingredients</h3>
      <ul className="ingredient-list">
        {recipe.ingredients.map((ingredient, index) => (
          <li key={index} className="ingredient-row" data-testid="ingredient-row">
            <span className="ingredient-icon" aria-hidden="true">
              {ingredient.icon}
            </span>
            <input
              aria-label="Ingredient name"
              data-testid="ingredient-name"
              value={ingredient.name}
              disabled={locked}
              onChange={(event) => update({ ingredients: recipe.ingredients.map((item, position) => (position === index ? { ...item, name: event.target.value } : item)) })}
            />
            <input
              aria-label="Amount"
              className="ingredient-amount"
              value={ingredient.amount}
              disabled={locked}
              onChange={(event) => update({ ingredients: recipe.ingredients.map((item, position) => (position === index ? { ...item, amount: event.target.value } : item)) })}
            />
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove ${ingredient.name}`}
              disabled={locked}
              onClick={() => update({ ingredients: recipe.ingredients.filter((_, position) => position !== index) })}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <div className="add-row">
        <input data-testid="new-ingredient-name" placeholder="Ingredient" value={newIngredientName} disabled={locked} onChange={(event) => setNewIngredientName(event.target.value)} />
        <input data-testid="new-ingredient-amount" placeholder="Amount" className="ingredient-amount" value={newIngredientAmount} disabled={locked} onChange={(event) => setNewIngredientAmount(event.target.value)} />
        <button type="button" className="button secondary" data-testid="add-ingredient" disabled={locked} onClick={addIngredient}>
          Add
        </button>
      </div>

      <h3 className="recipe-section">Instructions</h3>
      <ol className="instruction-list">
        {recipe.instructions.map((instruction, index) => (
          <li key={index} className="instruction-item" data-testid="instruction-item">
            <input
              aria-label={`Step ${index + 1}`}
              value={instruction}
              disabled={locked}
              onChange={(event) => update({ instructions: recipe.instructions.map((item, position) => (position === index ? event.target.value : item)) })}
            />
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove step ${index + 1}`}
              disabled={locked}
              onClick={() => update({ instructions: recipe.instructions.filter((_, position) => position !== index) })}
            >
              ×
            </button>
          </li>
        ))}
      </ol>
      <div className="add-row">
        <input data-testid="new-instruction" placeholder="Next step" value={newInstruction} disabled={locked} onChange={(event) => setNewInstruction(event.target.value)} />
        <button type="button" className="button secondary" data-testid="add-instruction" disabled={locked} onClick={addInstruction}>
          Add
        </button>
      </div>
    </aside>
  );
}
