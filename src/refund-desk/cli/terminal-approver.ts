import { createInterface } from 'node:readline';
import { terminalLine } from '../../cli/terminal-text.js';
import type { ApprovalAnswer, Approver } from '../../runtime/types.js';
import { discardTypeahead, INTERRUPT_KEYS, type TypeaheadInput } from './typeahead.js';

/** Where a human answers: a terminal's input and output (or streams standing in for them). */
export interface ApprovalTerminal {
  stdin: TypeaheadInput;
  stdout: NodeJS.WritableStream;
}

/**
 * `approve tool({...})? reason [y/N/later]` on a terminal, one line per question: a line read
 * with the answer (a paste of `y\ny`) answers nothing else. runAgent and resumeAgent ask one
 * question at a time (serialApprover), though the calls of one model turn run in parallel.
 * Once the input ends (EOF, Ctrl-D, Ctrl-C, at the prompt or while typed-ahead input is dropped)
 * every open and later question is answered `later` (the run pauses), never yes.
 * A question withdrawn through its signal (the run was cancelled) stops at once, answers
 * `later`, and is not shown, or says `(question withdrawn: the run was cancelled)` if it was.
 * On a TTY, only a line typed after the question is shown answers it: what was typed before
 * (while the agent worked) is dropped with a note, and so is input that keeps arriving after
 * the question is shown (the rest of a long paste) until it stops. Input that is not a TTY is
 * a script written ahead (a pipe): its lines answer the questions in order.
 */
export function createTerminalApprover(terminal: ApprovalTerminal): Approver {
  let ended = false;
  const CLOSED = '\n(no answer: the input closed; every open question waits for later)\n';
  const WITHDRAWN = '\n(question withdrawn: the run was cancelled)\n';
  const readLine = async (
    prompt: string,
    signal: AbortSignal | undefined,
  ): Promise<string | undefined> => {
    if (ended || signal?.aborted) return undefined;
    const note = (typed: string) => {
      // A half-typed line was echoed by the terminal: the note starts on a line of its own.
      const fresh = /[\r\n]$/.test(typed) ? '' : '\n';
      terminal.stdout.write(`${fresh}(ignored input typed before this question)\n`);
    };
    // How much had been dropped when input that kept arriving made the drain show the question.
    let shownAt: number | undefined;
    const typed =
      terminal.stdin.isTTY && !terminal.stdin.readableEnded
        ? await discardTypeahead(terminal.stdin, {
            onLong: (dropped) => {
              if (dropped) note(dropped);
              terminal.stdout.write(prompt);
              shownAt = dropped.length;
            },
            signal,
          })
        : '';
    if (signal?.aborted) {
      // Withdrawn before it could be answered: only a question that was shown needs the note.
      if (shownAt !== undefined) terminal.stdout.write(WITHDRAWN);
      return undefined;
    }
    const interrupted = INTERRUPT_KEYS.test(typed);
    // The drain stops at a Ctrl-C or Ctrl-D: it is the last character, and not typed text.
    const text = interrupted ? typed.slice(0, -1) : typed;
    if (text && shownAt === undefined) note(text);
    if (terminal.stdin.readableEnded || interrupted) {
      // Closed, Ctrl-C or Ctrl-D before or while the typed-ahead input was dropped: as at the prompt.
      ended = true;
      terminal.stdout.write(`${shownAt === undefined ? prompt : ''}${CLOSED}`);
      return undefined;
    }
    // Raw mode did not echo what was dropped after the question: say so, and ask again.
    const late = shownAt !== undefined && typed.length > shownAt;
    if (late) terminal.stdout.write('\n(ignored input that kept arriving; answer below)\n');
    return new Promise((resolve) => {
      const lines = createInterface({ input: terminal.stdin, output: terminal.stdout });
      let answer: string | undefined;
      const withdraw = () => lines.close();
      lines.once('line', (line) => {
        answer = line;
        lines.close();
      });
      lines.once('SIGINT', () => lines.close());
      lines.once('close', () => {
        signal?.removeEventListener('abort', withdraw);
        // The question was withdrawn, the input did not close: later questions are asked.
        if (answer === undefined && signal?.aborted) terminal.stdout.write(WITHDRAWN);
        else if (answer === undefined) {
          ended = true;
          terminal.stdout.write(CLOSED);
        }
        resolve(answer);
      });
      signal?.addEventListener('abort', withdraw, { once: true });
      lines.setPrompt(prompt);
      // Already shown by the drain, with nothing after it: the cursor waits right after it.
      if (shownAt === undefined || late) lines.prompt();
    });
  };
  return async (call, reason, approval): Promise<ApprovalAnswer> => {
    const line = await readLine(
      `approve ${terminalLine(`${call.name}(${JSON.stringify(call.input)})? ${reason}`)} [y/N/later] `,
      approval?.signal,
    );
    if (line === undefined) return 'defer';
    const answer = line.trim();
    if (/^l(ater)?$/i.test(answer)) return 'defer';
    return /^y(es)?$/i.test(answer);
  };
}
