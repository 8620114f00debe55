import { allCpuMs, median, ms, perTrial, type RunPair, times } from './figures.js';
import type { PeerName } from './peer-workload.js';

/** One runner's runs of the same work: `trials` trials and 1 trial, in each round. */
export interface RunnerRuns {
  /** e.g. `harness-evals` or `evalite 0.19.0`. */
  name: string;
  /** Which peer it is; none for harness-evals. */
  peer?: PeerName;
  /** How the N-trial run was started, for the table. */
  command: string;
  pairs: readonly RunPair[];
}

/** One line of the peers' table: medians over the rounds. */
export interface PeerRow {
  runner: string;
  wall: string;
  cpu: string;
  overheadWall: string;
  overheadCpu: string;
  start: string;
  command: string;
}

/** The issue 25 target: our harness overhead at most this share of the peer's. */
const OVERHEAD_TARGET: Readonly<Record<PeerName, number>> = { 'vitest-evals': 1, evalite: 0.5 };

interface Figures {
  runner: RunnerRuns;
  wall: number[];
  cpu: number[];
  overheadWall: number[];
  overheadCpu: number[];
}

/**
 * The peers' table and its target lines. Per runner: the cost of one more trial (wall, and CPU
 * counting the fork workers it waited for), the harness overhead (that cost minus the agent
 * alone's in the same round) and its 1-trial run. `runners[0]` is harness-evals.
 */
export function peerRows(options: {
  trials: number;
  agentAlone: RunnerRuns;
  runners: readonly RunnerRuns[];
}): { rows: PeerRow[]; targets: string[] } {
  const extra = options.trials - 1;
  const agentWall = perTrial(options.agentAlone.pairs, extra, 'wallMs');
  const agentCpu = perTrial(options.agentAlone.pairs, extra, allCpuMs);
  const figures: Figures[] = options.runners.map((runner) => {
    const wall = perTrial(runner.pairs, extra, 'wallMs');
    const cpu = perTrial(runner.pairs, extra, allCpuMs);
    return {
      runner,
      wall,
      cpu,
      overheadWall: wall.map((value, round) => value - agentWall[round]!),
      overheadCpu: cpu.map((value, round) => value - agentCpu[round]!),
    };
  });
  const start = (pairs: readonly RunPair[]) => ms(median(pairs.map((pair) => pair.one.wallMs)));
  const rows: PeerRow[] = [
    {
      runner: options.agentAlone.name,
      wall: ms(median(agentWall)),
      cpu: ms(median(agentCpu)),
      overheadWall: '',
      overheadCpu: '',
      start: start(options.agentAlone.pairs),
      command: options.agentAlone.command,
    },
    ...figures.map(({ runner, wall, cpu, overheadWall, overheadCpu }) => ({
      runner: runner.name,
      wall: ms(median(wall)),
      cpu: ms(median(cpu)),
      overheadWall: ms(median(overheadWall)),
      overheadCpu: ms(median(overheadCpu)),
      start: start(runner.pairs),
      command: runner.command,
    })),
  ];
  return { rows, targets: targetLines(figures) };
}

/** harness-evals' overhead over each peer's, beside issue 25's target: figures, not a verdict. */
function targetLines([ours, ...peers]: readonly Figures[]): string[] {
  if (!ours) return [];
  return peers.flatMap(({ runner, overheadWall, overheadCpu }) => {
    if (!runner.peer) return [];
    const share = OVERHEAD_TARGET[runner.peer];
    const ratio = (of: number[], to: number[]) => times(median(of) / median(to));
    return [
      `harness overhead, ${ours.runner.name} / ${runner.name}: CPU ${ratio(ours.overheadCpu, overheadCpu)}, wall ${ratio(ours.overheadWall, overheadWall)} ` +
        `(target ≤ ${times(share)}: at most ${share === 1 ? "the peer's" : "half the peer's"})`,
    ];
  });
}
