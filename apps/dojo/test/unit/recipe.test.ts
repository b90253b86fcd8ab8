import { describe, expect, test } from "vitest";
import { initialRecipe, recipeFromState } from "../../src/features/recipe.js";

describe("recipeFromState", () => {
  test("returns the recipe the state holds", () => {
    expect(recipeFromState({ recipe: initialRecipe })).toEqual(initialRecipe);
  });

  test("tolerates a state without a recipe or with mistyped fields", () => {
    const recipe = recipeFromState({ recipe: { title: 42, special_preferences: ["Spicy", 7], ingredients: [{ name: "Salt" }, "junk"], instructions: "stir" } });
    expect(recipe.title).toBe("");
    expect(recipe.skill_level).toBe(initialRecipe.skill_level);
    expect(recipe.special_preferences).toEqual(["Spicy"]);
    expect(recipe.ingredients).toEqual([{ icon: "🍴", name: "Salt", amount: "" }]);
    expect(recipe.instructions).toEqual([]);
    expect(recipeFromState(undefined).ingredients).toEqual([]);
  });
});
