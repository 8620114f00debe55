import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../core/atomic-write.js';
import { canonicalize } from '../../core/canonical-json.js';
import { FixtureError, SecretLeakError } from '../../core/errors.js';
import { describeZodIssues } from '../../core/parse.js';
import { CassetteMetaSchema, ExchangeSchema } from '../../replay/cassette.js';
import { displayPath, editedMessage, readCassetteJson } from '../../replay/cassette-file.js';
import { contentHashOf } from '../../replay/cassette-hash.js';
import { findCassetteSecret } from '../../replay/secret-scan.js';

const hash = z.string().regex(/^[0-9a-f]{64}$/);

/** The calls of one judge model for one judged check of a trial: one exchange per sample. */
export const JudgmentTapeSchema = z
  .object({
    check: z.string().min(1),
    /** The judge model's id (`claude-sonnet-5`, `openai:gpt-5-mini`). */
    model: z.string().min(1),
    key: hash,
    rubricHash: hash,
    promptHash: hash,
    samples: z.array(ExchangeSchema).min(1),
  })
  .strict();
export type JudgmentTape = z.infer<typeof JudgmentTapeSchema>;

/**
 * `trial-<n>.judge.json`, beside the trial's own cassette: the judge calls of every judged check
 * of that trial. A sibling file, so that re-recording the judge (a new rubric, another judge
 * model) leaves the agent's cassette byte for byte as it was, and its content hash with it.
 */
export const JudgeCassetteSchema = z
  .object({
    version: z.literal(1),
    kind: z.literal('judge'),
    /** A trial cassette's meta, less what only the agent's call has (its model, SDK, clock). */
    meta: CassetteMetaSchema.pick({
      suite: true,
      task: true,
      variant: true,
      trial: true,
      case: true,
      recordedAt: true,
      source: true,
      host: true,
      curated: true,
    }),
    judgments: z.array(JudgmentTapeSchema),
  })
  .strict();
export type JudgeCassette = z.infer<typeof JudgeCassetteSchema>;

/** `<root>/<task>/<variant>/[<case>/]trial-<n>.judge.json`. */
export function judgeCassettePath(
  root: string,
  task: string,
  variant: string,
  trial: number,
  testCase?: string,
) {
  const folder = testCase === undefined ? [] : [testCase];
  return path.join(root, task, variant, ...folder, `trial-${trial}.judge.json`);
}

/** The content hash of a judge cassette: over its canonical JSON, as a trial cassette's is. */
function judgeHash(cassette: JudgeCassette): string {
  const { version, kind, meta, judgments } = cassette;
  return contentHashOf({ version, kind, meta, judgments });
}

/** A judge cassette's file text: stable key order, its content hash computed over what it holds. */
export function serializeJudgeCassette(cassette: JudgeCassette): string {
  return `${JSON.stringify(
    {
      version: cassette.version,
      kind: cassette.kind,
      contentHash: judgeHash(cassette),
      meta: canonicalize(cassette.meta),
      judgments: canonicalize(cassette.judgments),
    },
    null,
    2,
  )}\n`;
}

const exchangesOf = (cassette: JudgeCassette) => ({
  exchanges: cassette.judgments.flatMap((judgment) => judgment.samples),
});

/**
 * Read a judge cassette: missing is `fixture_missing`; unreadable, not JSON, too deep or not
 * the schema is `fixture_corrupt`; a credential inside is `fixture_secret`; content that no
 * longer matches its `contentHash` (or none) is `fixture_edited`. Each names the file.
 */
export function readJudgeCassette(file: string): { cassette: JudgeCassette; hash: string } {
  const shown = displayPath(file);
  const { text, data } = readCassetteJson(file);
  const object = data !== null && typeof data === 'object' && !Array.isArray(data);
  const { contentHash, ...content } = (object ? data : {}) as Record<string, unknown>;
  const parsed = JudgeCassetteSchema.safeParse(object ? content : data);
  if (!parsed.success) {
    throw new FixtureError(
      'fixture_corrupt',
      `${shown}: ${describeZodIssues(parsed.error.issues)}`,
    );
  }
  const finding = findCassetteSecret(exchangesOf(parsed.data), text);
  if (finding) {
    throw new FixtureError(
      'fixture_secret',
      `${shown}: ${finding.where} contains ${finding.rule}, so it is not replayed. Delete the file (revoke the key if it is real) and re-record the judge`,
    );
  }
  // Sealed as a trial's cassette is: an edited verdict is refused, a re-indent is not.
  const hash = judgeHash(parsed.data);
  if (contentHash !== hash) {
    throw new FixtureError('fixture_edited', editedMessage(shown, contentHash, hash));
  }
  return { cassette: parsed.data, hash };
}

/**
 * Write a judge cassette atomically, stable key order; returns its content hash. Its bytes are
 * scanned first: a credential (the judge's key among `secrets`) throws SecretLeakError and
 * nothing is written.
 */
export async function writeJudgeCassette(
  file: string,
  cassette: JudgeCassette,
  secrets: readonly string[],
): Promise<string> {
  const checked = JudgeCassetteSchema.parse(cassette);
  const text = serializeJudgeCassette(checked);
  const finding = findCassetteSecret(exchangesOf(checked), text, { secrets });
  if (finding) {
    throw new SecretLeakError(
      `refusing to write ${displayPath(file)}: ${finding.where} contains ${finding.rule}; nothing was written`,
    );
  }
  await writeFileAtomic(file, text);
  return judgeHash(checked);
}
