import { isRecord, stringArray } from "../agent/json";

/** The shared_state page's agent state: `{ recipe: Recipe }`, edited by both the user and the agent. */
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

export const skillLevels = ["Beginner", "Intermediate", "Advanced"] as const;
export const cookingTimes = ["5 min", "15 min", "30 min", "45 min", "60+ min"] as const;
export const dietaryPreferences = [
  "High Protein",
  "Low Carb",
  "Spicy",
  "Budget-Friendly",
  "One-Pot Meal",
  "Vegetarian",
  "Vegan",
] as const;

export const initialRecipe: Recipe = {
  title: "Make Your Recipe",
  skill_level: "Intermediate",
  cooking_time: "45 min",
  special_preferences: [],
  ingredients: [
    { icon: "🥕", name: "Carrots", amount: "3 large, grated" },
    { icon: "🌾", name: "All-Purpose Flour", amount: "2 cups" },
  ],
  instructions: ["Preheat oven to 350°F (175°C)"],
};

/** Reads a recipe out of whatever state the agent sent, tolerating missing or mistyped fields. */
export function recipeFromState(state: unknown): Recipe {
  const recipe = isRecord(state) && isRecord(state["recipe"]) ? state["recipe"] : {};
  const text = (key: string, fallback: string): string => {
    const value = recipe[key];
    return typeof value === "string" ? value : fallback;
  };
  const ingredients = Array.isArray(recipe["ingredients"]) ? recipe["ingredients"] : [];
  return {
    title: text("title", ""),
    skill_level: text("skill_level", initialRecipe.skill_level),
    cooking_time: text("cooking_time", initialRecipe.cooking_time),
    special_preferences: stringArray(recipe["special_preferences"]),
    ingredients: ingredients.filter(isRecord).map((ingredient) => ({
      icon: typeof ingredient["icon"] === "string" ? ingredient["icon"] : "🍴",
      name: typeof ingredient["name"] === "string" ? ingredient["name"] : "",
      amount: typeof ingredient["amount"] === "string" ? ingredient["amount"] : "",
    })),
    instructions: stringArray(recipe["instructions"]),
  };
}
