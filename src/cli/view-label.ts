import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAbsolute, relative, resolve } from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.js';
import { describeZodIssues } from '../core/parse.js';
import { readRegularFile, readRegularFileSync } from '../core/regular-file.js';
import { itemOf, LabelRequestSchema, withLabel } from '../eval/report/label-request.js';
import { type LabelState, labelState } from '../eval/report/label-state.js';
import { parseReport } from '../eval/report/report-schema.js';
import { type HumanLabels, HumanLabelsSchema } from '../eval/spec/human-labels.js';

/** The path the labelling view reads its state from and posts labels to. */
export const LABELS_PATH = '/api/labels';

/** A label is a few hundred bytes; a body past this is refused unread. */
const MAX_BODY_BYTES = 16 * 1024;

type LabelsFile = Omit<HumanLabels, 'file'>;

class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The labelling API of `view --label`: GET gives every labellable judged check of the run
 * (reports/latest.json beside the HTML) with its label and the calibration; POST saves one
 * label into the check's human-labels file and answers with the recomputed state. Writes are
 * one at a time and atomic; a refused request writes nothing.
 */
export function createLabelApi(options: { projectDir: string; reportFile: string }) {
  const fileOf = (shown: string) => {
    const path = resolve(options.projectDir, shown);
    const inside = relative(options.projectDir, path);
    if (inside.startsWith('..') || isAbsolute(inside)) {
      throw new Refused(500, `human-labels file ${shown} is outside the project: label it by hand`);
    }
    return path;
  };
  const readLabels = (shown: string): LabelsFile | undefined => {
    const path = fileOf(shown);
    if (!existsSync(path)) return undefined;
    const parsed = HumanLabelsSchema.safeParse(
      parseJson(readRegularFileSync(path).toString('utf8'), shown),
    );
    if (!parsed.success) {
      throw new Refused(
        500,
        `human-labels file ${shown}: ${describeZodIssues(parsed.error.issues)}; fix it by hand`,
      );
    }
    return parsed.data;
  };
  const state = async (): Promise<LabelState> => {
    const text = (await readRegularFile(options.reportFile)).toString('utf8');
    const report = parseReport(parseJson(text, options.reportFile), options.reportFile);
    return labelState(report, (file) => readLabels(file)?.labels ?? []);
  };
  const save = async (body: unknown): Promise<LabelState> => {
    const parsed = LabelRequestSchema.safeParse(body);
    if (!parsed.success) throw new Refused(400, `label: ${describeZodIssues(parsed.error.issues)}`);
    const item = itemOf(await state(), parsed.data);
    if ('status' in item) throw new Refused(item.status, item.error);
    const next = withLabel(readLabels(item.file), parsed.data);
    await writeFileAtomic(fileOf(item.file), `${JSON.stringify(next, null, 2)}\n`);
    return state();
  };
  let queue: Promise<unknown> = Promise.resolve();
  return {
    state,
    /** Answer a request for LABELS_PATH; `host` is its Host header, already checked. */
    handle(request: IncomingMessage, response: ServerResponse, host: string): void {
      const answer =
        request.method === 'GET'
          ? state()
          : request.method === 'POST'
            ? readPost(request, host).then((body) => {
                // One save at a time: two quick labels of one file must not undo each other.
                const saved = queue.then(() => save(body));
                queue = saved.catch(() => undefined);
                return saved;
              })
            : Promise.reject(
                new Refused(405, `${request.method}: ${LABELS_PATH} takes GET or POST`),
              );
      answer.then(
        (value) => reply(response, 200, value),
        (error: Error) =>
          reply(response, error instanceof Refused ? error.status : 500, { error: error.message }),
      );
    },
  };
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Refused(
      what === 'body' ? 400 : 500,
      `${what} is not JSON (${(error as Error).message})`,
    );
  }
}

function reply(response: ServerResponse, status: number, value: unknown): void {
  response
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    })
    .end(JSON.stringify(value));
}

/** A POST's JSON body, once its origin, content type and size are the page's own. */
function readPost(request: IncomingMessage, host: string): Promise<unknown> {
  // The page's own origin only: another site's page may post to 127.0.0.1 too (its Host is ours).
  const origin = request.headers.origin;
  if (origin !== `http://${host}` && origin !== `https://${host}`) {
    return Promise.reject(
      new Refused(
        403,
        `origin ${origin ?? 'none'}: labels are taken only from the page at http://${host}/`,
      ),
    );
  }
  const type = request.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;\s*charset=utf-8\s*)?$/i.test(type)) {
    return Promise.reject(
      new Refused(415, `content type ${type || 'none'}: send application/json`),
    );
  }
  if (Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
    return Promise.reject(new Refused(413, `a label body is at most ${MAX_BODY_BYTES} bytes`));
  }
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        fail(new Refused(413, `a label body is at most ${MAX_BODY_BYTES} bytes`));
        chunks.length = 0;
      } else chunks.push(chunk);
    });
    request.on('end', () => {
      if (size > MAX_BODY_BYTES) return;
      try {
        done(parseJson(Buffer.concat(chunks).toString('utf8'), 'body'));
      } catch (error) {
        fail(error);
      }
    });
    request.on('error', fail);
  });
}
