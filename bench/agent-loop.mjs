// The agent alone: the refund-desk agent of peer-agent.mjs (this runtime, the real SDK, the
// recorded responses answered in process) for trials 1..N in a plain loop, one at a time, in
// a fresh node. `npm run bench:peers` measures it N vs 1 like each runner: a runner's cost per
// trial minus this is its harness overhead.
//
// usage: node agent-loop.mjs <trials>
import { checkAnswer, runRefundTrial } from './peer-agent.mjs';

const trials = Number(process.argv[2]);
if (!Number.isInteger(trials) || trials < 1) {
  process.stderr.write('usage: node agent-loop.mjs <trials (a whole number, at least 1)>\n');
  process.exit(2);
}
const failed = [];
for (let trial = 1; trial <= trials; trial += 1) {
  try {
    const { answer } = await runRefundTrial(trial);
    if (!checkAnswer(answer))
      failed.push(`trial ${trial}: the answer fails the T2 check: ${answer}`);
  } catch (error) {
    failed.push(`trial ${trial}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
if (failed.length > 0) {
  process.stderr.write(
    `${failed.length} of ${trials} trials failed:\n${failed.slice(0, 5).join('\n')}\n`,
  );
  process.exitCode = 1;
}
