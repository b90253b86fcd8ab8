import type { CustomTool } from "@ag-ui-antigravity/harness";
import { getState, setState } from "@ag-ui-antigravity/hitl";

/**
 * The shared_state demo's state is `{ recipe }`, the shape of the AG-UI dojo's recipe page. The user
 * edits it in the page (it reaches the agent as `RunAgentInput.state`); the agent edits it through
 * `update_recipe`, whose writes reach the page as STATE_SNAPSHOT / STATE_DELTA events.
 */
export interface Ingredient {
  icon: string;
  name: string;
  amount: string;
}

export interface Recipe {
  title: string;
  skill_level: string;
  cooking_time: string;
  special_preferences: string[];
  ingredients: Ingredient[];
  instructions: string[];
}

export const skillLevels = ["Beginner", "Intermediate", "Advanced"];
export const cookingTimes = ["5 min", "15 min", "30 min", "45 min", "60+ min"];

const emptyRecipe: Recipe = { title: "", skill_level: "Intermediate", cooking_time: "45 min", special_preferences: [], ingredients: [], instructions: [] };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function ingredientsOf(value: unknown): Ingredient[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((item) => ({
    icon: typeof item["icon"] === "string" && item["icon"] !== "" ? item["icon"] : "🍴",
    name: typeof item["name"] === "string" ? item["name"] : "",
    amount: typeof item["amount"] === "string" ? item["amount"] : "",
  }));
}

/** The recipe inside a state object, with missing or mistyped fields filled from an empty recipe. */
export function recipeFromState(state: unknown): Recipe {
  const recipe = isRecord(state) && isRecord(state["recipe"]) ? state["recipe"] : {};
  const text = (key: keyof Recipe, fallback: string): string => (typeof recipe[key] === "string" ? (recipe[key] as string) : fallback);
  return {
    title: text("title", emptyRecipe.title),
    skill_level: text("skill_level", emptyRecipe.skill_level),
    cooking_time: text("cooking_time", emptyRecipe.cooking_time),
    special_preferences: strings(recipe["special_preferences"]),
    ingredients: ingredientsOf(recipe["ingredients"]),
    instructions: strings(recipe["instructions"]),
  };
}

/** A plain-text description of a recipe, for the model (and for the emulator to quote). */
export function describeRecipe(recipe: Recipe): string {
  const ingredients = recipe.ingredients.map((ingredient) => (ingredient.amount === "" ? ingredient.name : `${ingredient.name} (${ingredient.amount})`));
  const preferences = recipe.special_preferences.length === 0 ? "none" : recipe.special_preferences.join(", ");
  return [
    `Recipe "${recipe.title}" (${recipe.skill_level}, ${recipe.cooking_time}; preferences: ${preferences}).`,
    `Ingredients: ${ingredients.length === 0 ? "none yet" : ingredients.join(", ")}.`,
    `Steps: ${recipe.instructions.length === 0 ? "none yet" : recipe.instructions.map((step, index) => `${index + 1}. ${step}`).join(" ")}`,
  ].join("\n");
}

const ingredientSchema = {
  type: "object",
  properties: {
    icon: { type: "string", description: "One emoji for the ingredient." },
    name: { type: "string" },
    amount: { type: "string", description: "Quantity and preparation, e.g. '2 cups' or '3 large, grated'." },
  },
  required: ["icon", "name", "amount"],
};

export const readRecipeTool: CustomTool = {
  name: "read_recipe",
  description: "Read the current recipe, including every edit the user made in the page since your last turn. Call it before answering questions about the recipe.",
  parameters: { type: "object", properties: {} },
  handler: () => describeRecipe(recipeFromState(getState())),
};

/**
 * Applies the changes one field at a time, each its own state write: the page sees the recipe change
 * piece by piece (a STATE_SNAPSHOT, then a STATE_DELTA per field) rather than in one jump.
 */
export const updateRecipeTool: CustomTool = {
  name: "update_recipe",
  description:
    "Change the recipe shown in the page. Every field is optional: fields you give replace the current ones; " +
    "add_ingredients and add_instructions append to the current lists instead. The user's own edits are kept unless you replace that field.",
  parameters: {
    type: "object",
    properties: {
      title: { type: "string" },
      skill_level: { type: "string", enum: skillLevels },
      cooking_time: { type: "string", enum: cookingTimes },
      special_preferences: { type: "array", items: { type: "string" }, description: "Replaces the dietary preferences, e.g. ['Vegetarian', 'Spicy']." },
      ingredients: { type: "array", items: ingredientSchema, description: "Replaces the whole ingredient list." },
      instructions: { type: "array", items: { type: "string" }, description: "Replaces every step." },
      add_ingredients: { type: "array", items: ingredientSchema, description: "Appended to the ingredient list." },
      add_instructions: { type: "array", items: { type: "string" }, description: "Appended to the steps." },
    },
  },
  handler: (args) => {
    const state = getState();
    const base = isRecord(state) ? state : {};
    let recipe = recipeFromState(state);
    const changed: string[] = [];
    const write = (next: Recipe, what: string): void => {
      recipe = next;
      changed.push(what);
      setState({ ...base, recipe });
    };
    if (typeof args["title"] === "string") write({ ...recipe, title: args["title"] }, `title "${args["title"]}"`);
    if (typeof args["skill_level"] === "string") write({ ...recipe, skill_level: args["skill_level"] }, `skill level ${args["skill_level"]}`);
    if (typeof args["cooking_time"] === "string") write({ ...recipe, cooking_time: args["cooking_time"] }, `cooking time ${args["cooking_time"]}`);
    if (Array.isArray(args["special_preferences"])) {
      const preferences = strings(args["special_preferences"]);
      write({ ...recipe, special_preferences: preferences }, `preferences ${preferences.join(", ") || "none"}`);
    }
    if (Array.isArray(args["ingredients"])) write({ ...recipe, ingredients: ingredientsOf(args["ingredients"]) }, "the ingredient list");
    if (Array.isArray(args["instructions"])) write({ ...recipe, instructions: strings(args["instructions"]) }, "the steps");
    for (const ingredient of ingredientsOf(args["add_ingredients"])) {
      write({ ...recipe, ingredients: [...recipe.ingredients, ingredient] }, `added ${ingredient.name}`);
    }
    for (const step of strings(args["add_instructions"])) write({ ...recipe, instructions: [...recipe.instructions, step] }, `added the step "${step}"`);
    if (changed.length === 0) return "Nothing changed: no field was given.";
    return `Updated the recipe: ${changed.join("; ")}.\n${describeRecipe(recipe)}`;
  },
};
