import { spawn } from 'node:child_process';

export interface CommandResult {
  code: number;
  output: string;
  ms: number;
}

/**
 * Run a command to completion with its output captured (stdout and stderr interleaved).
 * The environment is the user's at a fresh terminal: no CI, no API keys, no vitest state,
 * and npm never goes to the network (`npm_config_offline`) unless `online`; `env` adds to it
 * (a key and base URL for a recording against a local server).
 */
export function runCommand(
  command: string,
  args: string[],
  cwd: string,
  options: { env?: Record<string, string>; online?: boolean } = {},
): Promise<CommandResult> {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (
      /^(CI|GITHUB_.*|ANTHROPIC_.*|OPENAI_.*|HARNESS_.*|VITEST.*|NODE_ENV|NODE_OPTIONS|npm_.*)$/.test(
        name,
      )
    )
      continue;
    env[name] = value;
  }
  if (options.online) env.npm_config_prefer_offline = 'true';
  else env.npm_config_offline = 'true';
  env.npm_config_audit = 'false';
  env.npm_config_fund = 'false';
  env.npm_config_update_notifier = 'false';
  Object.assign(env, options.env);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code: code ?? 1, output, ms: Math.round(performance.now() - started) }),
    );
  });
}
