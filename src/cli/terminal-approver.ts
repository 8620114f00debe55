import { createInterface } from 'node:readline';
import type { ApprovalAnswer, Approver } from '../runtime/types.js';
import { terminalLine } from './terminal-text.js';
import { discardTypeahead, type TypeaheadInput } from './typeahead.js';

/** Where a human answers: a terminal's input and output (or streams standing in for them). */
export interface ApprovalTerminal {
  stdin: TypeaheadInput;
  stdout: NodeJS.WritableStream;
}

/**
 * `approve tool({...})? reason [y/N/later]` on a terminal, one line per question: a line read
 * with the answer (a paste of `y\ny`) answers nothing else. runAgent and resumeAgent ask one
 * question at a time (serialApprover), though the calls of one model turn run in parallel. Once the input ends (EOF, Ctrl-D, Ctrl-C at the
 * prompt) every open and later question is answered `later` (the run pauses), never yes.
 * On a TTY, only a line typed after the question is shown answers it: what was typed before
 * (while the agent worked) is dropped with a note. Input that is not a TTY is a script written
 * ahead (a pipe): its lines answer the questions in order.
 */
export function createTerminalApprover(terminal: ApprovalTerminal): Approver {
  let ended = false;
  const CLOSED = '\n(no answer: the input closed; every open question waits for later)\n';
  const readLine = async (prompt: string): Promise<string | undefined> => {
    if (ended) return undefined;
    const typed =
      terminal.stdin.isTTY && !terminal.stdin.readableEnded
        ? await discardTypeahead(terminal.stdin)
        : '';
    if (typed) {
      // A half-typed line was echoed by the terminal: the note starts on a line of its own.
      const fresh = /[\r\n]$/.test(typed) ? '' : '\n';
      terminal.stdout.write(`${fresh}(ignored input typed before this question)\n`);
    }
    if (terminal.stdin.readableEnded) {
      // Closed before or while the typed-ahead input was dropped: as an EOF at the prompt.
      ended = true;
      terminal.stdout.write(`${prompt}${CLOSED}`);
      return undefined;
    }
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
          terminal.stdout.write(CLOSED);
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
