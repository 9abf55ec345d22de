/** The one logger fake: keeps what the user would see in the log, and lets a test wait for a line. */
import type { Logger } from '../../src/core/ports.js';

export class MemoryLogger implements Logger {
  /** `level message`, the first 5,000 lines (a flood test logs far more). */
  readonly lines: string[] = [];
  /** Every line ever logged, including those not kept. */
  count = 0;
  private waiters: { re: RegExp; resolve: (line: string) => void }[] = [];

  /** The messages of one level, without the level prefix. */
  messages(level: 'trace' | 'debug' | 'info' | 'warn' | 'error'): string[] {
    return this.lines.filter((l) => l.startsWith(`${level} `)).map((l) => l.slice(level.length + 1));
  }

  /** Resolves with the first line (already logged or still to come) that matches; rejects after `timeoutMs`. */
  nextLine(re: RegExp, timeoutMs = 30_000): Promise<string> {
    const seen = this.lines.find((l) => re.test(l));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(
          new Error(
            `no log line matching ${re} within ${timeoutMs} ms; last lines:\n${this.lines.slice(-10).join('\n')}`,
          ),
        );
      }, timeoutMs);
      const waiter = {
        re,
        resolve: (line: string) => {
          clearTimeout(timer);
          resolve(line);
        },
      };
      this.waiters.push(waiter);
    });
  }

  private add(level: string, m: string): void {
    this.count++;
    const line = `${level} ${m}`;
    if (this.lines.length < 5000) this.lines.push(line);
    for (const w of this.waiters.filter((x) => x.re.test(line))) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve(line);
    }
  }
  trace(m: string): void {
    this.add('trace', m);
  }
  debug(m: string): void {
    this.add('debug', m);
  }
  info(m: string): void {
    this.add('info', m);
  }
  warn(m: string): void {
    this.add('warn', m);
  }
  error(m: string): void {
    this.add('error', m);
  }
}
