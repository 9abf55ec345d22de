import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { StderrCapture } from '../../../src/core/connection/stderr-capture.js';
import type { Clock, Logger } from '../../../src/core/ports.js';

interface FakeClock extends Clock {
  t: number;
  /** Moves time forward, firing every timer that falls due, in order. */
  advance(ms: number): void;
  pending(): number;
}

function fakeClock(): FakeClock {
  let timers: { at: number; fn: () => void }[] = [];
  const clock: FakeClock = {
    t: 0,
    now: () => clock.t,
    setTimeout(fn, ms) {
      const timer = { at: clock.t + ms, fn };
      timers.push(timer);
      return { dispose: () => void (timers = timers.filter((x) => x !== timer)) };
    },
    advance(ms) {
      const end = clock.t + ms;
      for (;;) {
        const due = timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers = timers.filter((x) => x !== due);
        clock.t = due.at;
        due.fn();
      }
      clock.t = end;
    },
    pending: () => timers.length,
  };
  return clock;
}

function fakes(): { log: Logger; lines: string[]; clock: FakeClock } {
  const lines: string[] = [];
  const log: Logger = {
    trace() {},
    debug() {},
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
  };
  return { log, lines, clock: fakeClock() };
}

describe('StderrCapture', () => {
  test('forwards complete lines, joining chunks split mid-line', () => {
    const { log, lines, clock } = fakes();
    const c = new StderrCapture(log, { clock });
    c.push('hel');
    c.push('lo\nwor');
    c.push('ld\n\n');
    assert.deepEqual(lines, ['[stderr] hello', '[stderr] world']);
    assert.deepEqual(c.lastLines(5), ['hello', 'world']);
  });

  test('keeps only the most recent bytes', () => {
    const { log, clock } = fakes();
    const c = new StderrCapture(log, { clock, maxBytes: 1000 });
    for (let i = 0; i < 10_000; i++) c.push(`line ${i}\n`);
    assert.ok(c.text.length <= 1000);
    assert.deepEqual(c.lastLines(1), ['line 9999']);
  });

  test('rate-limits the log and reports how many lines were held back', () => {
    const { log, lines, clock } = fakes();
    const c = new StderrCapture(log, { clock, maxLinesPerSecond: 10 });
    c.push('x\n'.repeat(1000));
    assert.equal(lines.length, 10);
    clock.t = 1500;
    c.push('after\n');
    assert.ok(
      lines.some((l) => /990 lines not shown/.test(l)),
      lines.join('|'),
    );
    assert.equal(lines.at(-1), '[stderr] after');
  });

  test('a burst that ends inside its window is reported when the window closes, with nothing after it', () => {
    const { log, lines, clock } = fakes();
    const c = new StderrCapture(log, { clock, maxLinesPerSecond: 10 });
    clock.t = 5_000;
    c.push('x\n'.repeat(300));
    clock.advance(200);
    c.push('y\n'.repeat(200));
    assert.equal(lines.length, 10, 'only the first ten lines of the window are shown');
    clock.advance(799);
    assert.ok(!lines.some((l) => /not shown/.test(l)), 'not reported before the window closes');
    clock.advance(1);
    assert.deepEqual(lines.slice(10), ['[stderr] 490 lines not shown (more than 10 lines per second)']);
    assert.equal(clock.pending(), 0, 'no timer is left once the count is reported');
    clock.advance(10_000);
    assert.equal(lines.length, 11, 'the count is reported once');
  });

  test('the window report and the next window do not count the same lines twice', () => {
    const { log, lines, clock } = fakes();
    const c = new StderrCapture(log, { clock, maxLinesPerSecond: 2 });
    c.push('a\nb\nc\nd\n');
    clock.advance(1_000);
    c.push('e\nf\ng\n');
    c.flush();
    assert.deepEqual(
      lines.filter((l) => /not shown/.test(l)),
      [
        '[stderr] 2 lines not shown (more than 2 lines per second)',
        '[stderr] 1 lines not shown (more than 2 lines per second)',
      ],
    );
    assert.equal(clock.pending(), 0);
  });

  test('an endless line without newline is cut, not accumulated', () => {
    const { log, lines, clock } = fakes();
    const c = new StderrCapture(log, { clock, maxLineLength: 100 });
    for (let i = 0; i < 50; i++) c.push('y'.repeat(60));
    assert.ok(lines.length > 0);
    assert.ok(lines.every((l) => l.length <= 100 + '[stderr] '.length + 1));
  });
});

describe('summaryLines', () => {
  const silent: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
  const nodeCrash = [
    'node:internal/modules/cjs/loader:1228',
    '  throw err;',
    '  ^',
    '',
    "Error: Cannot find module '/srv/missing.js'",
    '    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)',
    '    at Module._load (node:internal/modules/cjs/loader:1051:27)',
    '    at node:internal/main/run_main_module:28:49 {',
    "  code: 'MODULE_NOT_FOUND',",
    '  requireStack: []',
    '}',
    '',
    'Node.js v20.20.2',
    '',
  ].join('\n');

  test('keeps the first error line above the tail, with a gap marker', () => {
    const c = new StderrCapture(silent);
    c.push(nodeCrash);
    assert.deepEqual(c.summaryLines(5), [
      "Error: Cannot find module '/srv/missing.js'",
      '…',
      '    at node:internal/main/run_main_module:28:49 {',
      "  code: 'MODULE_NOT_FOUND',",
      '  requireStack: []',
      '}',
      'Node.js v20.20.2',
    ]);
  });

  test('the tail alone when the error line is in it or there is none', () => {
    const c = new StderrCapture(silent);
    c.push('starting\nTypeError: x is not a function\n    at main (a.js:1:1)\n');
    assert.deepEqual(c.summaryLines(5), ['starting', 'TypeError: x is not a function', '    at main (a.js:1:1)']);
    const d = new StderrCapture(silent);
    d.push('one\ntwo\nthree\n');
    assert.deepEqual(d.summaryLines(2), ['two', 'three']);
  });

  test('bounded: the error line is cut like the others', () => {
    const c = new StderrCapture(silent);
    c.push(`Error: ${'x'.repeat(2000)}\n${'frame\n'.repeat(10)}`);
    const lines = c.summaryLines(3);
    assert.equal(lines.length, 5);
    assert.ok(lines[0]!.length <= 501, String(lines[0]!.length));
  });
});
