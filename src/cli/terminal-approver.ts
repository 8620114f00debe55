import { createInterface } from 'node:readline';
import type { ApprovalAnswer, Approver } from '../runtime/types.js';
import { terminalLine } from './terminal-text.js';

/** Where a human answers: a terminal's input and output (or streams standing in for them). */
export interface ApprovalTerminal {
  stdin: NodeJS.ReadableStream & { readableEnded?: boolean };
  stdout: NodeJS.WritableStream;
}

/**
 * `approve tool({...})? reason [y/N/later]` on a terminal, one line per question: a line read
 * with the answer (a paste of `y\ny`) answers nothing else. runAgent and resumeAgent ask one
 * question at a time (serialApprover), though the calls of one model turn run in parallel. Once the input ends (EOF, Ctrl-D, Ctrl-C at the
 * prompt) every open and later question is answered `later` (the run pauses), never yes.
 */
export function createTerminalApprover(terminal: ApprovalTerminal): Approver {
  let ended = false;
  const readLine = (prompt: string): Promise<string | undefined> => {
    if (ended || terminal.stdin.readableEnded) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const lines = createInterface({ input: terminal.stdin, output: terminal.stdout });
      let answer: string | undefined;
      lines.once('line', (line) => {
        answer = line;
        lines.close();
      });
      lines.once('SIGINT', () => lines.close());
      lines.once('close', () => {
        if (answer === undefined) {
          ended = true;
          terminal.stdout.write(
            '\n(no answer: the input closed; every open question waits for later)\n',
          );
        }
        resolve(answer);
      });
      lines.setPrompt(prompt);
      lines.prompt();
    });
  };
  return async (call, reason): Promise<ApprovalAnswer> => {
    const line = await readLine(
      `approve ${terminalLine(`${call.name}(${JSON.stringify(call.input)})? ${reason}`)} [y/N/later] `,
    );
    if (line === undefined) return 'defer';
    const answer = line.trim();
    if (/^l(ater)?$/i.test(answer)) return 'defer';
    return /^y(es)?$/i.test(answer);
  };
}
