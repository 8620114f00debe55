export async function replayTrialRows(_m: unknown): Promise<Array<[string, string]>> {
  return [];
}
