/** Shared by the host tests: wait on the host's change events, never on time, always with a deadline. */
export { untilServer as until } from '../../support/wait.js';
