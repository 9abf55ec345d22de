/** A `MessagePipe` over one end of a worker_threads MessageChannel: the app's side and the host's side in one process. */
import type { MessagePort } from 'node:worker_threads';
import type { MessagePipe } from '../../../src/core/apps/transport.js';

export function pipeOf(port: MessagePort): MessagePipe {
  return {
    post: (m) => port.postMessage(m),
    onMessage: (listener) => {
      port.on('message', listener);
      return { dispose: () => port.off('message', listener) };
    },
  };
}
