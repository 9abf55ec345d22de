import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectForm, type FormUi } from '../../../src/core/calls/collect.js';
import type { FieldAnswer } from '../../../src/core/calls/field-input.js';
import { parseJsonDocument } from '../../../src/core/calls/json-document.js';
import { planForm } from '../../../src/core/calls/schema-plan.js';

/** A scripted user: answers fields from a queue and edits JSON documents with a function. */
function scriptedUi(answers: (FieldAnswer | undefined)[], edit?: (text: string, problem?: string) => unknown) {
  const asked: { name: string; step: number; total: number; initial: unknown }[] = [];
  const edits: { text: string; problem?: string }[] = [];
  const ui: FormUi = {
    async ask(field, ctx) {
      asked.push({ name: field.name, step: ctx.step, total: ctx.total, initial: ctx.initial });
      if (answers.length === 0) throw new Error(`unexpected question for ${field.name}`);
      return answers.shift();
    },
    async editJson(text, ctx) {
      edits.push({ text, problem: ctx.problem });
      if (!edit) return undefined;
      const value = edit(text, ctx.problem);
      if (value === undefined) return undefined;
      const problem = ctx.validate(value);
      if (problem) throw new Error(`scripted edit still invalid: ${problem}`);
      return { value };
    },
  };
  return { ui, asked, edits };
}

const schema = {
  type: 'object',
  properties: { message: { type: 'string' }, times: { type: 'integer', default: 2 }, loud: { type: 'boolean' } },
  required: ['message'],
};

test('asks each field in order with step counts and defaults; skipped optionals are left out', async () => {
  const { ui, asked } = scriptedUi([{ value: 'hi' }, { value: 3 }, { skip: true }]);
  const args = await collectForm(planForm(schema), ui, { title: 't' });
  assert.deepEqual(args, { message: 'hi', times: 3 });
  assert.deepEqual(asked, [
    { name: 'message', step: 1, total: 3, initial: undefined },
    { name: 'times', step: 2, total: 3, initial: 2 },
    { name: 'loud', step: 3, total: 3, initial: undefined },
  ]);
});

test('earlier arguments are offered instead of defaults', async () => {
  const { ui, asked } = scriptedUi([{ value: 'x' }, { value: 5 }, { value: true }]);
  await collectForm(planForm(schema), ui, { title: 't', initial: { message: 'old', times: 7 } });
  assert.deepEqual(
    asked.map((a) => a.initial),
    ['old', 7, undefined],
  );
});

test('Escape at any step cancels the whole form and nothing more is asked', async () => {
  const { ui, asked, edits } = scriptedUi([{ value: 'hi' }, undefined]);
  assert.equal(await collectForm(planForm(schema), ui, { title: 't' }), undefined);
  assert.equal(asked.length, 2);
  assert.equal(edits.length, 0);
});

test('a skip answer for a required field is treated as cancel, never sent', async () => {
  const { ui } = scriptedUi([{ skip: true }]);
  assert.equal(await collectForm(planForm(schema), ui, { title: 't' }), undefined);
});

test('when whole-object validation fails the user fixes it in a JSON document showing the problem', async () => {
  const validate = (a: Record<string, unknown>) =>
    a.loud === true && a.times === undefined ? 'times is required when loud' : undefined;
  const { ui, edits } = scriptedUi([{ value: 'hi' }, { skip: true }, { value: true }], (text) => {
    const parsed = parseJsonDocument(text);
    assert.ok('value' in parsed);
    return { ...(parsed.value as object), times: 1 };
  });
  const args = await collectForm(planForm(schema), ui, { title: 't', validate });
  assert.deepEqual(args, { message: 'hi', loud: true, times: 1 });
  assert.equal(edits.length, 1);
  assert.equal(edits[0].problem, 'times is required when loud');
  assert.deepEqual(parseJsonDocument(edits[0].text), { value: { message: 'hi', loud: true } });
});

test('free-form schemas go straight to one JSON document; the result must be an object', async () => {
  const plan = planForm({ type: 'object', additionalProperties: { type: 'number' } });
  const { ui, asked, edits } = scriptedUi([], () => ({ a: 1 }));
  assert.deepEqual(await collectForm(plan, ui, { title: 't' }), { a: 1 });
  assert.equal(asked.length, 0);
  assert.equal(edits.length, 1);
  const { ui: ui2 } = scriptedUi([], () => [1]);
  await assert.rejects(collectForm(plan, ui2, { title: 't' }), /must be a JSON object/);
  const { ui: ui3 } = scriptedUi([]);
  assert.equal(await collectForm(plan, ui3, { title: 't' }), undefined, 'cancelled editing');
});

test('a tool without arguments collects an empty object without asking anything', async () => {
  const { ui, asked } = scriptedUi([]);
  assert.deepEqual(await collectForm(planForm({ type: 'object', properties: {} }), ui, { title: 't' }), {});
  assert.equal(asked.length, 0);
});
