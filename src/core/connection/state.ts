/** Connection state of one server, as a discriminated union with exhaustive helpers. */
import type { ServerDefinition } from '../config/types.js';
import { redactKnownValues, redactString, secretValuesOf } from '../redact.js';
import type { ConnectionState } from '../host-data.js';

export type { HostErrorInfo } from '../errors.js';
export type { ConnectionState, ServerInfo, StateKind } from '../host-data.js';

export namespace ConnectionStates {
  export function label(s: ConnectionState): string {
    switch (s.kind) {
      case 'pending':
        if (s.reason) return `reconnecting: ${s.reason}`;
        return s.attempt > 1 ? `reconnecting (${s.attempt}/${s.maxAttempts})` : 'connecting';
      case 'connected':
        return 'connected';
      case 'failed':
        return 'failed';
      case 'needs-auth':
        return 'needs authentication';
      case 'disabled':
        return s.reason === 'on-first-use' ? 'starts on first use' : 'disabled';
      default:
        return assertNever(s);
    }
  }
}

export function assertNever(x: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(x)}`);
}

/** The state with every message it carries redacted (URLs, tokens, and the entry's own env/header values). */
export function redactState(state: ConnectionState, def: ServerDefinition): ConnectionState {
  const clean = (text: string): string => redactString(redactKnownValues(text, secretValuesOf(def.config)));
  switch (state.kind) {
    case 'failed':
      return {
        ...state,
        error: {
          ...state.error,
          message: clean(state.error.message),
          ...(state.error.hint !== undefined ? { hint: clean(state.error.hint) } : {}),
        },
      };
    case 'needs-auth':
      return { ...state, message: clean(state.message) };
    case 'disabled':
      return state.message === undefined ? state : { ...state, message: clean(state.message) };
    default:
      return state;
  }
}

/** The disabled state of a server admission holds back (or whose config says disabled). */
export function heldState(def: ServerDefinition): ConnectionState {
  const message =
    def.admission && !def.admission.run ? def.admission.message : 'Disabled in its config ("disabled": true).';
  return { kind: 'disabled', reason: 'config', message };
}
