import { isJsonObject } from './answer-fields.js';

/**
 * Every string a stream carried, joined per place in stream order: the text a value split across
 * events adds up to once a client joins the pieces. A place is the slot the caller names (a
 * content block, a choice) and the field's path inside it (`delta.reasoning`,
 * `delta.tool_calls[0].function.arguments`). List items are placed by their `index` field when
 * they have one (tool-call deltas), else all together (`logprobs.content[].token`), as clients
 * join them. Every field counts, named or not, at any depth: a field a client does not know
 * still reaches whoever reads the stream.
 */
export class StreamedStrings {
  readonly #texts = new Map<string, string>();

  /** Append each string in `value`, skipping the top-level keys in `skip`. */
  add(slot: string, value: unknown, skip: ReadonlySet<string> = NO_KEYS): void {
    // A stack, not recursion: a hostile stream may nest deeper than the call stack goes.
    const stack: Array<[path: string, value: unknown, top: boolean]> = [['', value, true]];
    while (stack.length > 0) {
      const [path, item, top] = stack.pop()!;
      if (typeof item === 'string') {
        const place = path === '' ? slot : `${slot} ${path}`;
        this.#texts.set(place, (this.#texts.get(place) ?? '') + item);
      } else if (Array.isArray(item)) {
        for (let position = item.length - 1; position >= 0; position--) {
          const element = item[position];
          const index = isJsonObject(element) ? element.index : undefined;
          const key = Number.isInteger(index) ? `[${index}]` : '[]';
          stack.push([`${path}${key}`, element, false]);
        }
      } else if (isJsonObject(item)) {
        const entries = Object.entries(item).filter(([key]) => !(top && skip.has(key)));
        for (let at = entries.length - 1; at >= 0; at--) {
          const [key, child] = entries[at]!;
          stack.push([path === '' ? key : `${path}.${key}`, child, false]);
        }
      }
    }
  }

  /** Each place's joined text, labelled `<slot> <path>`, in the order places first appeared. */
  texts(): Map<string, string> {
    return new Map(this.#texts);
  }
}

const NO_KEYS: ReadonlySet<string> = new Set();
