import path from 'node:path';
import { z } from 'zod';
import { CassetteMetaSchema, ExchangeSchema } from '../../replay/cassette.js';
import {
  type CassetteKind,
  cassetteText,
  readCassetteFile,
  writeCassetteFile,
} from '../../replay/cassette-file.js';

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

/** A judge cassette as the one cassette reader and writer know it (replay/cassette-file.ts). */
const JUDGE_CASSETTE: CassetteKind<JudgeCassette> = {
  schema: JudgeCassetteSchema,
  fields: ['version', 'kind', 'meta', 'judgments'],
  head: 2,
  exchanges: (cassette) => cassette.judgments.flatMap((judgment) => judgment.samples),
  rerecords: 'the judge',
};

/** A judge cassette's file text: stable key order, its content hash computed over what it holds. */
export function serializeJudgeCassette(cassette: JudgeCassette): string {
  return cassetteText(cassette, JUDGE_CASSETTE);
}

/**
 * Read a judge cassette, sealed and scanned as a trial's is (readCassetteFile): missing,
 * corrupt, a credential inside, content that no longer matches its `contentHash`, each a
 * FixtureError naming the file.
 */
export function readJudgeCassette(file: string): { cassette: JudgeCassette; hash: string } {
  const { content, hash } = readCassetteFile(file, JUDGE_CASSETTE);
  return { cassette: content, hash };
}

/**
 * Write a judge cassette atomically (writeCassetteFile); returns its content hash. A credential
 * (the judge's key among `secrets`) throws SecretLeakError and nothing is written.
 */
export function writeJudgeCassette(
  file: string,
  cassette: JudgeCassette,
  secrets: readonly string[],
): Promise<string> {
  return writeCassetteFile(file, cassette, JUDGE_CASSETTE, { secrets });
}
