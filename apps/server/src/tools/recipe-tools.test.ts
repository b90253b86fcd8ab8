import { describe, expect, it } from "vitest";
import { describeRecipe, recipeFromState } from "./recipe-tools.js";

describe("recipe state", () => {
  it("reads a recipe out of loosely typed state, filling what is missing or mistyped", () => {
    const recipe = recipeFromState({ recipe: { title: "Soup", cooking_time: 45, ingredients: [{ name: "Leek" }, "salt"], instructions: ["Chop", 3] } });
    expect(recipe).toEqual({
      title: "Soup",
      skill_level: "Intermediate",
      cooking_time: "45 min",
      special_preferences: [],
      ingredients: [{ icon: "🍴", name: "Leek", amount: "" }],
      instructions: ["Chop"],
    });
    expect(recipeFromState(null).ingredients).toEqual([]);
  });

  it("describes a recipe in plain text for the model", () => {
    const text = describeRecipe(recipeFromState({ recipe: { title: "Soup", special_preferences: ["Vegan"], ingredients: [{ icon: "🥔", name: "Potatoes", amount: "12" }], instructions: ["Boil"] } }));
    expect(text).toBe('Recipe "Soup" (Intermediate, 45 min; preferences: Vegan).\nIngredients: Potatoes (12).\nSteps: 1. Boil');
  });
});
