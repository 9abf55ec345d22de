/** Collapses a burst of calls (a save that touches several files, a settings write) into one. */
export interface Debounced {
  (): void;
  /** Runs a pending call now (used before a manual refresh). */
  flush(): void;
  dispose(): void;
}

export function debounce(fn: () => void, ms: number): Debounced {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = (): void => {
    timer = undefined;
    fn();
  };
  const d = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
  d.flush = (): void => {
    if (timer) {
      clearTimeout(timer);
      run();
    }
  };
  d.dispose = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  return d;
}
