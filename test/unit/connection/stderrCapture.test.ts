import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { StderrCapture } from '../../../src/core/connection/stderrCapture.js';
import type { Clock, Logger } from '../../../src/core/ports.js';

function fakes(): { log: Logger; lines: string[]; clock: Clock & { t: number } } {
  const lines: string[] = [];
  const log: Logger = { trace() {}, debug() {}, info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) };
  const clock = { t: 0, now: () => clock.t, setTimeout: () => ({ dispose() {} }) };
  return { log, lines, clock };
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
    assert.ok(lines.some((l) => /990 lines not shown/.test(l)), lines.join('|'));
    assert.equal(lines.at(-1), '[stderr] after');
  });

  test('an endless line without newline is cut, not accumulated', () => {
    const { log, lines, clock } = fakes();
    const c = new StderrCapture(log, { clock, maxLineLength: 100 });
    for (let i = 0; i < 50; i++) c.push('y'.repeat(60));
    assert.ok(lines.length > 0);
    assert.ok(lines.every((l) => l.length <= 100 + '[stderr] '.length + 1));
  });
});
