import { z } from 'zod';

/**
 * What a judge call looks like on the wire, shared by the side that asks (eval/grade) and the
 * side that may answer offline (the simulator's judge policy, model scripts): the verdict
 * tool the judge is forced to call, and the tagged sections of the material it grades.
 */

/** The one tool a judge is given, and forced to call (`tool_choice`). */
export const VERDICT_TOOL_NAME = 'submit_verdict';

/**
 * A judge's verdict: the label, a score in 0..1 and the reasoning. Strict: a verdict with an
 * extra field, a score of 1.2 or an empty reasoning is malformed, a judge error, never a pass.
 */
export const VerdictSchema = z
  .object({
    label: z.enum(['pass', 'fail']).describe('pass when the answer meets the rubric, else fail'),
    score: z.number().min(0).max(1).describe('how fully the answer meets the rubric, 0 to 1'),
    reasoning: z.string().trim().min(1).describe('one to three sentences citing the answer'),
  })
  .strict();
export type Verdict = z.infer<typeof VerdictSchema>;

/** The verdict tool's JSON schema, generated once from VerdictSchema (the single source). */
export const VERDICT_INPUT_SCHEMA: Record<string, unknown> = (() => {
  const { $schema: _schema, ...schema } = z.toJSONSchema(VerdictSchema, { io: 'input' });
  return schema;
})();

export const VERDICT_TOOL_DESCRIPTION =
  'Submit your verdict on the answer: call this exactly once, after reading the rubric and the material.';

/** The sections of a judge's material, in the order they appear. */
export const JUDGE_SECTIONS = [
  'rubric',
  'task',
  'reference',
  'tool-calls',
  'transcript',
  'answer',
] as const;
export type JudgeSection = (typeof JUDGE_SECTIONS)[number];

/**
 * The sections of a judge prompt, read back by their tags `<name-CODE>...</name-CODE>`, where
 * CODE is the prompt's own code (no text inside a section can close it without knowing the
 * code). Undefined when the text is not a judge prompt: no code, or no rubric and answer.
 */
export function readJudgeSections(
  text: string,
): { code: string; sections: Partial<Record<JudgeSection, string>> } | undefined {
  const code = /<rubric-([0-9a-f]{16})>/.exec(text)?.[1];
  if (code === undefined) return undefined;
  const sections: Partial<Record<JudgeSection, string>> = {};
  for (const name of JUDGE_SECTIONS) {
    const open = `<${name}-${code}>\n`;
    const start = text.indexOf(open);
    if (start < 0) continue;
    const end = text.indexOf(`\n</${name}-${code}>`, start + open.length);
    if (end < 0) continue;
    sections[name] = text.slice(start + open.length, end);
  }
  return sections.rubric !== undefined && sections.answer !== undefined
    ? { code, sections }
    : undefined;
}
