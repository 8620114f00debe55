import path from 'node:path';
import { z } from 'zod';
import { PROVIDERS } from '../model-api/provider.js';
import { SseEventSchema } from '../model-api/sse.js';

export type { SseEvent } from '../model-api/sse.js';

/** Request headers a cassette keeps; everything else (auth, user-agent, x-stainless-*) is dropped. */
export const RECORDED_REQUEST_HEADERS = [
  'anthropic-version',
  'anthropic-beta',
  'content-type',
] as const;
/** The request headers that change server behaviour, so replay compares them. */
export const COMPARED_REQUEST_HEADERS = ['anthropic-version', 'anthropic-beta'] as const;
/** Response headers a cassette keeps; request ids, cookies and org ids are dropped. */
export const RECORDED_RESPONSE_HEADERS = ['content-type', 'retry-after', 'retry-after-ms'] as const;

const isoDate = z.iso.datetime({ offset: true });

/** Where a cassette's answers came from: the live API, or the simulator (never mistaken for live). */
export const FixtureSourceSchema = z.enum(['live', 'simulator']);
export type FixtureSource = z.infer<typeof FixtureSourceSchema>;

/** `meta.curated`: who edited a cassette by hand and why (one line each). */
export const CuratedSchema = z
  .object({
    by: z.string().trim().min(1).max(200),
    reason: z.string().trim().min(1).max(1000),
  })
  .strict();
export type Curated = z.infer<typeof CuratedSchema>;

export const CassetteMetaSchema = z
  .object({
    suite: z.string().min(1).optional(),
    task: z.string().min(1),
    variant: z.string().min(1),
    /** The dataset case, for a task over cases. */
    case: z.string().min(1).optional(),
    trial: z.number().int().min(1),
    recordedAt: isoDate,
    /** The run clock's "now" while recording; replay feeds it back so dates in prompts match. */
    now: isoDate,
    model: z.string().min(1),
    /** The wire format the agent spoke (absent in cassettes recorded before it was kept). */
    provider: z.enum(PROVIDERS as ['anthropic', 'openai']).optional(),
    /** The client the agent used, as its requests named it (`user-agent`): e.g. `openai`, `@ai-sdk/openai`. */
    sdk: z.string().min(1).optional(),
    /** That client's version (this runtime's `@anthropic-ai/sdk` in cassettes from before `sdk` was kept). */
    sdkVersion: z.string().min(1),
    source: FixtureSourceSchema,
    /** Host of the upstream base URL the cassette was recorded against. */
    host: z.string(),
    /**
     * A deliberate edit by hand, for review: who made it and why. Part of the hashed content. A
     * pull request that changes a cassette without re-recording it fails the gate unless it
     * writes a new `curated` entry; the comment then lists it first (docs/ci.md).
     */
    curated: CuratedSchema.optional(),
  })
  .strict();
export type CassetteMeta = z.infer<typeof CassetteMetaSchema>;

export const TapedRequestSchema = z
  .object({
    method: z.string().min(1),
    /** Path (and query) relative to the base URL, e.g. `/v1/messages`. */
    path: z.string().startsWith('/'),
    headers: z.partialRecord(z.enum(RECORDED_REQUEST_HEADERS), z.string()),
    /** Canonical JSON (keys sorted); `null` when the request had no body. */
    body: z.unknown(),
  })
  .strict();
export type TapedRequest = z.infer<typeof TapedRequestSchema>;

const status = z.number().int().min(100).max(599);
const responseHeaders = z.partialRecord(z.enum(RECORDED_RESPONSE_HEADERS), z.string());

export const JsonResponseSchema = z
  .object({ status, headers: responseHeaders, body: z.unknown() })
  .strict();
export const SseResponseSchema = z
  .object({ status, headers: responseHeaders, events: z.array(SseEventSchema) })
  .strict();
export const TapedResponseSchema = z.union([JsonResponseSchema, SseResponseSchema]);
export type TapedResponse = z.infer<typeof TapedResponseSchema>;

/**
 * A recorded call's wall time. A replay moves its virtual clock by it, so it is bounded: no model
 * call takes a day, and a hand-edited 1e16 would move the clock past the last Date.
 */
const latencyMs = z.number().nonnegative().max(86_400_000);

export const ExchangeSchema = z
  .object({
    request: TapedRequestSchema,
    response: TapedResponseSchema,
    latencyMs,
    /** Retryable answers (429/529/5xx) the SDK retried past while recording; never replayed. */
    retries: z.array(z.object({ status, latencyMs }).strict()).optional(),
  })
  .strict();
export type Exchange = z.infer<typeof ExchangeSchema>;

export const CassetteSchema = z
  .object({
    version: z.literal(1),
    meta: CassetteMetaSchema,
    exchanges: z.array(ExchangeSchema),
  })
  .strict();
export type Cassette = z.infer<typeof CassetteSchema>;

export function isSseResponse(
  response: TapedResponse,
): response is z.infer<typeof SseResponseSchema> {
  return 'events' in response;
}

/**
 * `<root>/<task>/<variant>/trial-<n>.json`, and `<root>/<task>/<variant>/<case>/trial-<n>.json`
 * for a case of a dataset task: the trial is in the path, so trials never share a cassette.
 */
export function cassettePath(
  root: string,
  task: string,
  variant: string,
  trial: number,
  testCase?: string,
): string {
  return path.join(
    root,
    task,
    variant,
    ...(testCase === undefined ? [] : [testCase]),
    `trial-${trial}.json`,
  );
}
