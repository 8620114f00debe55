/** The exact command that re-records one trial. */
export function rerecordCommand(
  task: string,
  variant: string,
  trial: number,
  simulated: boolean,
): string {
  return `npm run record -- --task ${task} --variant ${variant} --trial ${trial}${simulated ? ' --simulated' : ''}`;
}

const TRIAL_FLAG = / --trial (\d+(?:,\d+)*)/;

/**
 * Commands that differ only in their trial number become one (`--trial 1,2,3`): when a
 * prompt change makes every trial stale, the user gets a command per task and variant.
 */
export function groupRerecordCommands(commands: readonly string[]): string[] {
  const groups = new Map<string, number[]>();
  const order: string[] = [];
  for (const command of new Set(commands)) {
    const match = TRIAL_FLAG.exec(command);
    const key = match ? command.replace(TRIAL_FLAG, ' --trial #') : command;
    if (!groups.has(key)) {
      groups.set(key, []);
      order.push(key);
    }
    if (match) groups.get(key)!.push(...match[1]!.split(',').map(Number));
  }
  return order.map((key) => {
    const trials = [...new Set(groups.get(key))].sort((a, b) => a - b);
    return trials.length > 0 ? key.replace('#', trials.join(',')) : key;
  });
}
