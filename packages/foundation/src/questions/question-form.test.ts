import { describe, expect, it } from "vitest";
import { answersOfQuestionForm, questionFormFields, questionFormMessage } from "./question-form.js";

const questions = [
  { question: "Pick one", choices: ["tea", "coffee", "tea"], isMultiSelect: false },
  { question: "Pick some", choices: ["a", "b"], isMultiSelect: true },
  { question: "Say something", choices: [], isMultiSelect: false },
];

describe("question forms", () => {
  it("makes one field per question: single choice, several choices, free text", () => {
    expect(questionFormFields(questions)).toEqual({
      answer_1: { type: "string", title: "Pick one", enum: ["tea", "coffee"] },
      answer_2: { type: "array", title: "Pick some", items: { type: "string", enum: ["a", "b"] } },
      answer_3: { type: "string", title: "Say something" },
    });
    expect(questionFormMessage(questions.slice(0, 1))).toBe("The Antigravity agent asks: Pick one");
    expect(questionFormMessage(questions)).toBe("The Antigravity agent asks 3 questions.");
  });

  it("maps answers back to choice indices, with unknown text as free text and nothing as unanswered", () => {
    expect(answersOfQuestionForm({ answer_1: "coffee", answer_2: ["b", "zzz"], answer_3: "hi" }, questions)).toEqual([{ selected: [1] }, { selected: [1], freeform: "zzz" }, { selected: [], freeform: "hi" }]);
    expect(answersOfQuestionForm(undefined, questions)).toEqual(["unanswered", "unanswered", "unanswered"]);
    expect(answersOfQuestionForm({ answer_1: "", answer_2: [] }, questions.slice(0, 2))).toEqual(["unanswered", "unanswered"]);
  });
});
