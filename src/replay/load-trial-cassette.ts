import { FixtureError } from '../core/errors.js';
import type { Cassette } from './cassette.js';
import { displayPath, readCassette } from './cassette-file.js';
import { describeLabel, fixtureProblem, type ProblemContext } from './fixture-problem.js';

/**
 * Read the cassette of one trial. Missing or corrupt files, and a cassette that
 * belongs to another task, variant or trial (the classic "every trial replays
 * one recording" bug), throw a FixtureError that names the trial and the fix.
 */
export async function loadTrialCassette(context: ProblemContext): Promise<Cassette> {
  let cassette: Cassette;
  try {
    cassette = await readCassette(context.file);
  } catch (error) {
    if (!(error instanceof FixtureError)) throw error;
    if (error.code === 'fixture_missing') {
      throw fixtureProblem(
        'fixture_missing',
        context,
        'no cassette was recorded for this trial',
        error,
      );
    }
    const detail = error.message.replace(`${displayPath(context.file)}: `, '');
    const code =
      error.code === 'fixture_secret' || error.code === 'fixture_edited'
        ? error.code
        : 'fixture_corrupt';
    throw fixtureProblem(code, context, detail, error);
  }
  const { meta } = cassette;
  const { label } = context;
  const mismatch =
    meta.task !== label.task ||
    meta.variant !== label.variant ||
    meta.trial !== label.trial ||
    meta.case !== label.case ||
    (meta.suite !== undefined && label.suite !== undefined && meta.suite !== label.suite);
  if (mismatch) {
    throw fixtureProblem('fixture_corrupt', context, `its meta says ${describeLabel(meta)}`);
  }
  return cassette;
}
