import { terminalLine } from '../../cli/terminal-text.js';
import type { TraceEvent, TraceSink } from '../../runtime/trace.js';

/**
 * Mirrors the trace file and prints what a person watching the run wants to see. `first`
 * runs before the first printed line (the run's header: a run that fails before any step
 * prints one line, not a header and an error). Retries show only with `verbose`.
 */
export function printingTrace(file: TraceSink, first: () => void, verbose: boolean): TraceSink {
  const line = (event: TraceEvent): string | undefined => {
    switch (event.type) {
      case 'tool_call': {
        const error = event.is_error ? ' [is_error]' : '';
        const replayed = event.replayed ? ' [answered from the journal]' : '';
        return `step ${event.step} ${event.tool}(${JSON.stringify(event.input)}) -> ${event.decision}${error}${replayed} ${event.ms}ms`;
      }
      case 'model_retry':
        if (!verbose) return undefined;
        return `step ${event.step} model ${event.model}: ${event.error}; retry ${event.attempt} in ${event.wait_ms}ms`;
      case 'model_fallback':
        return `step ${event.step} model ${event.from} ${event.reason}: falling back to ${event.to}`;
      case 'approval_pending': {
        const key = event.key === undefined ? '' : `write ${event.key}; `;
        const changed = event.changed === undefined ? '' : `; ${event.changed}`;
        return `step ${event.step} ${event.tool}(${JSON.stringify(event.input)}) waits for approval: ${event.reason} (${key}hash ${event.hash}${changed})`;
      }
      case 'approval_recorded':
        return `approval of ${event.hash} (${event.tool}) recorded: ${event.answer}`;
      case 'run_lock_taken_over':
        return `run ${event.run_id}: took over its lock from process ${event.pid} (started ${event.started_at}), which is no longer running`;
      case 'write_resolved':
        return `write ${event.key} resolved by a human: ${event.resolution}`;
      case 'run_resume':
        if (event.state === 'finished') {
          return `run ${event.run_id} already finished at step ${event.step}; its recorded result (the model is not called again):`;
        }
        return event.state === 'awaiting_approval'
          ? `resuming run ${event.run_id} at step ${event.step}, which waits for approval`
          : event.step === 0
            ? `resuming run ${event.run_id} from its start (no step had completed)`
            : `resuming run ${event.run_id} after step ${event.step}`;
      default:
        return undefined;
    }
  };
  return {
    write(event) {
      file.write(event);
      const text = line(event);
      if (text === undefined) return;
      first();
      // Built from the event before the file sink redacted its copy: server and model text.
      console.log(terminalLine(text));
    },
  };
}
