// npm run simulator in this repository: the package's simulator (harness-evals simulator), which
// also answers as the refund desk's model, so that npm run agent runs offline against it
// (docs/runtime.md). The package's own simulator knows no example agent.
import { runSimulatorCli } from '../../cli/simulator.js';
import { defaultPolicies } from '../../simulator/respond.js';
import { refundDeskPolicy } from '../simulator-policy.js';

const code = await runSimulatorCli(process.argv.slice(2), {
  policies: [...defaultPolicies, refundDeskPolicy],
});
if (code !== undefined) process.exitCode = code;
