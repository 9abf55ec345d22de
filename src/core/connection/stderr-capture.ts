/**
 * Bounded capture of a server's stderr: the most recent bytes are kept for error messages, and lines
 * are forwarded to the server's log at a capped rate, so a server flooding stderr costs neither
 * memory nor a frozen log view.
 */
import type { Clock, Disposable, Logger } from '../ports.js';
import { systemClock } from '../ports.js';
import { redactString } from '../redact.js';

export interface StderrCaptureOptions {
  /** Bytes of recent output kept (approximately, in UTF-16 code units). Default 64 KiB. */
  maxBytes?: number;
  /** Lines forwarded to the log per second; the rest are counted and reported. Default 200. */
  maxLinesPerSecond?: number;
  /** Longest line forwarded to the log; longer ones are cut. Default 4 KiB. */
  maxLineLength?: number;
  clock?: Clock;
}

/** A line that states an error rather than a frame of its stack: `Error: …`, `TypeError …`, `error: …`. */
const ERROR_LINE = /^\s*(\w*Error\b|Error:)|\berror:/i;

/** One line as error messages carry it: bounded, secrets out. */
function cutLine(l: string): string {
  return redactString(l.length > 500 ? `${l.slice(0, 500)}…` : l);
}

export class StderrCapture {
  private tail = '';
  private partial = '';
  private windowStart = 0;
  private linesInWindow = 0;
  private suppressed = 0;
  private totalBytes = 0;
  /** Fires when the current window closes while lines are held back, so a burst that ends inside its
   * window is still reported. The Clock's timers do not keep the process alive. */
  private reportTimer: Disposable | undefined;
  private readonly maxBytes: number;
  private readonly maxLinesPerSecond: number;
  private readonly maxLineLength: number;
  private readonly clock: Clock;

  constructor(
    private readonly log: Logger,
    opts: StderrCaptureOptions = {},
  ) {
    this.maxBytes = opts.maxBytes ?? 64 * 1024;
    this.maxLinesPerSecond = opts.maxLinesPerSecond ?? 200;
    this.maxLineLength = opts.maxLineLength ?? 4096;
    this.clock = opts.clock ?? systemClock;
  }

  /** Bytes seen in total (for diagnostics). */
  get bytesSeen(): number {
    return this.totalBytes;
  }

  /** The retained recent output (at most `maxBytes` characters). */
  get text(): string {
    return (this.tail + this.partial).slice(-this.maxBytes);
  }

  /** The last `n` non-empty lines, for error messages. */
  lastLines(n: number): string[] {
    return this.lines().slice(-n).map(cutLine);
  }

  /**
   * The last `n` non-empty lines, after the first line that reads as an error when it is earlier:
   * a crash prints its cause first and a stack after it (Node's `Error: Cannot find module …`
   * comes six lines before the end), and the tail alone would show only the stack.
   */
  summaryLines(n: number): string[] {
    const lines = this.lines();
    const tail = lines.slice(-n);
    const first = lines.findIndex((l) => ERROR_LINE.test(l));
    if (first < 0 || first >= lines.length - n) return tail.map(cutLine);
    const gap = first < lines.length - n - 1 ? ['…'] : [];
    return [cutLine(lines[first]!), ...gap, ...tail.map(cutLine)];
  }

  private lines(): string[] {
    return this.text.split(/\r?\n/).filter((l) => l.trim() !== '');
  }

  push(chunk: string): void {
    this.totalBytes += chunk.length;
    this.tail += chunk;
    // Trim in amortised steps: only when twice the budget is reached.
    if (this.tail.length > this.maxBytes * 2) this.tail = this.tail.slice(-this.maxBytes);
    this.forward(chunk);
  }

  /** Forwards what is left of an unterminated last line and the held-back count (on exit). */
  flush(): void {
    if (this.partial) this.emit(this.partial);
    this.partial = '';
    this.reportSuppressed();
  }

  private forward(chunk: string): void {
    let start = 0;
    let nl = chunk.indexOf('\n');
    if (nl === -1) {
      this.partial += chunk;
      if (this.partial.length > this.maxLineLength) {
        this.emit(this.partial);
        this.partial = '';
      }
      return;
    }
    while (nl !== -1) {
      if (!this.allow()) {
        // Over the rate: count the remaining lines without building strings for them.
        let count = 1;
        for (let i = chunk.indexOf('\n', nl + 1); i !== -1; i = chunk.indexOf('\n', i + 1)) count++;
        this.suppress(count);
        this.partial = '';
        const rest = chunk.slice(chunk.lastIndexOf('\n') + 1);
        this.partial = rest.length > this.maxLineLength ? '' : rest;
        return;
      }
      const line = this.partial + chunk.slice(start, nl);
      this.partial = '';
      this.emitLine(line);
      start = nl + 1;
      nl = chunk.indexOf('\n', start);
    }
    this.partial = chunk.slice(start);
    if (this.partial.length > this.maxLineLength) {
      this.emit(this.partial);
      this.partial = '';
    }
  }

  private allow(): boolean {
    const now = this.clock.now();
    if (now - this.windowStart >= 1000) {
      this.reportSuppressed();
      this.windowStart = now;
      this.linesInWindow = 0;
    }
    if (this.linesInWindow >= this.maxLinesPerSecond) return false;
    this.linesInWindow++;
    return true;
  }

  /** Counts held-back lines; the first of a window arms the report for when that window closes. */
  private suppress(count: number): void {
    this.suppressed += count;
    if (this.reportTimer) return;
    const closesIn = Math.max(0, this.windowStart + 1000 - this.clock.now());
    this.reportTimer = this.clock.setTimeout(() => {
      this.reportTimer = undefined;
      this.reportSuppressed();
    }, closesIn);
  }

  private reportSuppressed(): void {
    this.reportTimer?.dispose();
    this.reportTimer = undefined;
    if (this.suppressed > 0) {
      this.log.warn(
        `[stderr] ${this.suppressed} lines not shown (more than ${this.maxLinesPerSecond} lines per second)`,
      );
      this.suppressed = 0;
    }
  }

  private emitLine(line: string): void {
    const l = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (l.trim() === '') return;
    this.emit(l);
  }

  private emit(text: string): void {
    // stderr is ordinary chatter for most servers, so it is logged as info, never as an error.
    // Servers do print tokens (debug dumps of env or headers): redact before the log sees them.
    const cut = text.length > this.maxLineLength ? `${text.slice(0, this.maxLineLength)}…` : text;
    this.log.info(`[stderr] ${redactString(cut)}`);
  }
}
