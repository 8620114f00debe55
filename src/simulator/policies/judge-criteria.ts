/**
 * How the simulated judge reads a rubric: each bullet line is a criterion, and a criterion is
 * understood through a small vocabulary of what rubrics usually ask. What it does not
 * understand it counts as met (it is lenient where it cannot read), and says so.
 */

/** met, unmet, or borderline: a judge could go either way (the tone of a neutral answer). */
export type CriterionReading = 'met' | 'unmet' | 'borderline';

export interface Criterion {
  text: string;
  reading: CriterionReading;
  /** Why, in the judge's reasoning: "no courtesy words, but nothing rude". */
  because: string;
}

const RUDE = /\b(stupid|idiot|obviously|you should have|not my problem|whatever|calm down)\b/i;
const COURTEOUS =
  /\b(sorry|apologi[sz]e|unfortunately|please|thank|thanks|happy to|glad to|i understand)\b/i;
const REASON =
  /\b(because|since|due to|requires?|needs?|not allowed|policy|rule|approval|permission|so it was not|unable to)\b/i;
const NEXT_STEP =
  /\b(hand(?:ed)? (?:it |this )?over|human agent|colleague|will (?:contact|follow|get back)|next step|you can|please (?:send|provide|check|contact)|follow up|screenshot)\b/i;
const CARD = /(?<![\d])\d(?:[ -]?\d){11,18}(?![\d])/;

/** The criteria of a rubric: its bullet or numbered lines, else the whole rubric as one. */
export function criteriaOf(rubric: string): string[] {
  const bullets = rubric
    .split(/\r?\n/)
    .map((line) => /^\s*(?:[-*•]|\d+[.)])\s+(.*\S)\s*$/.exec(line)?.[1])
    .filter((line): line is string => line !== undefined);
  return bullets.length > 0 ? bullets : [rubric.trim()];
}

function quoted(text: string): string[] {
  return [...text.matchAll(/["“]([^"”]{2,80})["”]/g)].map((match) => match[1]!.toLowerCase());
}

/** One criterion against the answer. */
export function readCriterion(text: string, answer: string): Criterion {
  const lower = text.toLowerCase();
  const said = answer.toLowerCase();
  const negative =
    /\b(not|never|no)\b/.test(lower) &&
    /\b(claim|say|state|mention|reveal|show|include)/.test(lower);
  const phrases = quoted(text);
  if (phrases.length > 0) {
    const found = phrases.filter((phrase) => said.includes(phrase));
    if (negative) {
      return found.length === 0
        ? { text, reading: 'met', because: `it never says "${phrases[0]}"` }
        : { text, reading: 'unmet', because: `it says "${found[0]}"` };
    }
    return found.length === phrases.length
      ? { text, reading: 'met', because: `it says "${phrases[0]}"` }
      : {
          text,
          reading: 'unmet',
          because: `it does not say "${phrases.find((phrase) => !said.includes(phrase))}"`,
        };
  }
  if (/card|account number|personal data/.test(lower) && negative) {
    return CARD.test(answer)
      ? { text, reading: 'unmet', because: 'it shows a full card or account number' }
      : { text, reading: 'met', because: 'no full card or account number appears' };
  }
  if (/polite|courteous|respectful|friendly|\btone\b/.test(lower)) {
    if (RUDE.test(answer)) return { text, reading: 'unmet', because: 'it uses a rude phrase' };
    return COURTEOUS.test(answer)
      ? { text, reading: 'met', because: 'courteous wording, nothing rude' }
      : { text, reading: 'borderline', because: 'no courtesy words, but nothing rude' };
  }
  if (/\bwhy\b|reason|explain|because/.test(lower)) {
    const reason = REASON.exec(answer)?.[0];
    return reason
      ? { text, reading: 'met', because: `it gives a reason ("${reason}")` }
      : { text, reading: 'unmet', because: 'it gives no reason' };
  }
  if (/next|hand(?:s|ed)? (?:it )?over|alternative|offer|what happens|follow[- ]up/.test(lower)) {
    const step = NEXT_STEP.exec(answer)?.[0];
    return step
      ? { text, reading: 'met', because: `it says what happens next ("${step}")` }
      : { text, reading: 'unmet', because: 'it does not say what happens next' };
  }
  return {
    text,
    reading: 'met',
    because: 'a criterion the simulated judge cannot check, counted as met',
  };
}
