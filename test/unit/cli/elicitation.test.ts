import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArgs } from '../../../src/cli/args.js';
import { terminalElicitation, type Terminal } from '../../../src/cli/elicitation.js';

type Scripted = Terminal & { out: string; asked: string[]; write(s: string): void };

function scripted(answers: string[], interactive = true): Scripted {
  const t = {
    interactive,
    out: '',
    asked: [] as string[],
    question(prompt: string) {
      t.asked.push(prompt);
      return Promise.resolve(answers.shift());
    },
    write(s: string) {
      t.out += s;
    },
  };
  return t;
}

/** The notes go where the session sends them (its stderr); here, beside the answers. */
const ask = (t: Scripted) => terminalElicitation(t, (s) => t.write(s));

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your Name' },
    color: { type: 'string', enum: ['Red', 'Blue'] },
    age: { type: 'integer', minimum: 0 },
    agree: { type: 'boolean' },
  },
  required: ['name'],
};

test('a form is asked field by field; a bad answer is asked again; enum by number; confirmed before sending', async () => {
  const t = scripted(['Ada', '2', 'old', '36', '', 'y']);
  const r = await ask(t).elicit('srv', {
    mode: 'form',
    message: 'Who are you?',
    requestedSchema: schema,
  });
  assert.deepEqual(r, { action: 'accept', content: { name: 'Ada', color: 'Blue', age: 36 } });
  assert.match(t.out, /srv asks: Who are you\?/);
  assert.match(t.out, /1\) Red\n\s+2\) Blue/);
  assert.match(t.out, /“old” is not a number/);
  assert.equal(t.asked.length, 6);
});

test('not confirming declines; end of input cancels; no terminal declines with a message', async () => {
  assert.deepEqual(
    await ask(scripted(['Ada', '', '', '', 'n'])).elicit('srv', {
      mode: 'form',
      message: 'm',
      requestedSchema: schema,
    }),
    { action: 'decline' },
  );
  assert.deepEqual(await ask(scripted([])).elicit('srv', { mode: 'form', message: 'm', requestedSchema: schema }), {
    action: 'cancel',
  });
  const none = scripted([], false);
  assert.deepEqual(await ask(none).elicit('srv', { mode: 'form', message: 'Who?', requestedSchema: schema }), {
    action: 'decline',
  });
  assert.match(none.out, /srv asked for input \("Who\?"\); declined because stdin is not a terminal/);
});

test('URL elicitation prints the URL and waits for consent', async () => {
  const t = scripted(['yes']);
  const r = await ask(t).elicit('srv', {
    mode: 'url',
    message: 'Sign in',
    url: 'https://example.test/x',
    elicitationId: 'e1',
  });
  assert.deepEqual(r, { action: 'accept' });
  assert.match(t.out, /https:\/\/example\.test\/x/);
  assert.deepEqual(
    await ask(scripted([''])).elicit('srv', {
      mode: 'url',
      message: 'Sign in',
      url: 'https://example.test/x',
      elicitationId: 'e1',
    }),
    { action: 'decline' },
  );
});

test('complete: arguments, --context pairs, and exactly one reference', () => {
  const a = parseArgs([
    'complete',
    'srv',
    '--prompt',
    'p',
    'name',
    'A',
    '--context',
    'department=Sales',
    '--context',
    'x=a=b',
    '--verbose',
  ]);
  assert.deepEqual(
    [a.command, a.positionals, a.prompt, a.context, a.verbose],
    ['complete', ['srv', 'name', 'A'], 'p', { department: 'Sales', x: 'a=b' }, true],
  );
  assert.throws(() => parseArgs(['complete', 'srv', 'name']), /exactly one of --prompt/);
  assert.throws(
    () => parseArgs(['complete', 'srv', '--prompt', 'p', '--resource', 'u', 'name']),
    /exactly one of --prompt/,
  );
  assert.throws(
    () => parseArgs(['complete', 'srv', '--prompt', 'p', 'name', '--context', 'nokey']),
    /--context takes KEY=VALUE/,
  );
  assert.throws(() => parseArgs(['call', 'srv', 't', '--prompt', 'p']), /call does not take --prompt/);
});

test('server text reaches the terminal escaped: no OSC 8 link, no OSC 52 clipboard write, no raw URL trick', async () => {
  const osc8 = '\u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007';
  const osc52 = '\u001b]52;c;ZWNobyBoaQ==\u0007';
  const t = scripted(['n', 'x', 'n']);
  await ask(t).elicit('srv', {
    mode: 'url',
    message: `Sign in ${osc8}${osc52}`,
    url: 'https://accounts.google.com\\@evil.example/',
    elicitationId: 'e1',
  });
  await ask(t).elicit('srv', {
    mode: 'form',
    message: osc52,
    requestedSchema: { type: 'object', properties: { a: { type: 'string', title: `A${osc8}` } } },
  });
  const all = t.out + t.asked.join('');
  assert.ok(!all.includes('\u001b') && !all.includes('\u0007'), JSON.stringify(all));
  assert.match(all, /\\u001b\]52;c;/);
  // The parsed URL is shown (what a browser goes to), with its host.
  assert.match(t.out, /a page on accounts\.google\.com:/);
  assert.match(t.out, /https:\/\/accounts\.google\.com\/@evil\.example\//);
});
