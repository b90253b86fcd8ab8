import { renderTemplate } from "../scenario/template.js";
import type { ScenarioAction } from "../scenario/scenario-schema.js";
import type { QuestionResponse } from "../wire/input-messages.js";
import type { StepUpdate } from "../wire/output-messages.js";
import type { ScriptedTurn, TrajectoryRun } from "./scripted-turn.js";

const defaultChoices = ["Option A", "Option B", "Option C"];

/**
 * A `question-ask` action: the `ask_question` tool's waiting step, answered by the client; the
 * answer becomes `{{answer}}` for the texts that follow.
 */
export async function askQuestions(turn: ScriptedTurn, run: TrajectoryRun, action: Extract<ScenarioAction, { type: "question-ask" }>): Promise<void> {
  const context = turn.context;
  if (!turn.builtinEnabledFor(run, "ask_question")) {
    turn.modelMistake(run, 'Tool "ask_question" is not available');
    return;
  }
  const parsedChoices = action.choicesFromText === true ? choicesFromText(turn.request) : undefined;
  const questions = action.questions.map((question, index) => {
    const choices = index === 0 && parsedChoices !== undefined ? parsedChoices : question.choices.length > 0 ? question.choices : defaultChoices;
    const multipleChoice: Record<string, unknown> = { question: renderTemplate(question.question, turn.variables), choices };
    if (question.isMultiSelect === true) multipleChoice["isMultiSelect"] = true;
    return { multipleChoice, choices };
  });
  if (context.profile.has("agentBehavior") && context.config.agentBehavior !== "AGENT_BEHAVIOR_INTERACTIVE") {
    // From 0.1.11 only an INTERACTIVE agent asks; an autonomous one (UNSPECIFIED included: "the user
    // will not respond to questions") decides itself, here for the first choice of each question.
    turn.variables["answer"] = questions.map((question) => question.choices[0] ?? "(unanswered)").join("; ");
    return;
  }
  const stepIndex = context.recorder.allocate(run.trajectoryId);
  const base = { ...turn.baseStep(run, stepIndex), source: "SOURCE_MODEL" as const, target: "TARGET_USER" as const };
  const waiting: StepUpdate = {
    ...base,
    state: "STATE_WAITING_FOR_USER",
    questionsRequest: { questions: questions.map((question) => ({ multipleChoice: question.multipleChoice })) },
  };
  context.recorder.publish(waiting);
  const response = await turn.waitWithRebroadcast<QuestionResponse>(`question:${run.trajectoryId}:${stepIndex}`, waiting);
  turn.variables["answer"] = describeAnswers(response, questions);
  context.recorder.publish({ ...base, state: "STATE_DONE" });
}

function choicesFromText(text: string): string[] | undefined {
  const tail = /(?:between|from|:)\s*(.+)$/i.exec(text)?.[1];
  if (tail === undefined) return undefined;
  const choices = tail
    .split(/,|\bor\b|\band\b|\//i)
    .map((choice) => choice.trim().replace(/[.?!]+$/, ""))
    .filter((choice) => choice !== "");
  return choices.length >= 2 && choices.length <= 8 ? choices : undefined;
}

function describeAnswers(response: QuestionResponse, questions: { choices: string[] }[]): string {
  if (response.cancelled === true) return "(cancelled)";
  const answers = response.response?.answers ?? [];
  if (answers.length === 0) return "(unanswered)";
  return answers
    .map((answer, index) => {
      if (answer.unanswered === true || answer.multipleChoiceAnswer === undefined) return "(unanswered)";
      const choices = questions[index]?.choices ?? [];
      const selected = (answer.multipleChoiceAnswer.selectedChoiceIndices ?? []).map((choice) => choices[choice] ?? `#${choice}`);
      const freeform = answer.multipleChoiceAnswer.freeformResponse;
      return [...selected, ...(freeform === undefined || freeform === "" ? [] : [freeform])].join(", ") || "(unanswered)";
    })
    .join("; ");
}
