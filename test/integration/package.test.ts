import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const repo = join(__dirname, '..', '..');

/**
 * Names of the entries in a zip file, read from its central directory (a .vsix is a zip). Small
 * enough to write here, so the test needs neither `unzip` nor a zip library.
 */
function zipEntries(buf: Buffer): string[] {
  const EOCD = 0x06054b50;
  const CDH = 0x02014b50;
  // The end-of-central-directory record is in the last 22 + 65535 (max comment) bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  assert.ok(eocd >= 0, 'not a zip file: no end-of-central-directory record');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let n = 0; n < count; n++) {
    assert.equal(buf.readUInt32LE(p), CDH, `bad central directory header at ${p}`);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    names.push(buf.toString('utf8', p + 46, p + 46 + nameLen));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}

test(
  'npm run package makes mcp-host-<version>.vsix with only the shipped files, under 1.4 MB',
  { timeout: 180_000 },
  () => {
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      main: string;
    };
    const startedAt = Date.now();
    execFileSync('npm', ['run', 'package'], { cwd: repo, stdio: 'pipe', env: { ...process.env, CI: 'true' } });

    const vsix = join(repo, `${pkg.name}-${pkg.version}.vsix`);
    const st = statSync(vsix);
    // Rounded down to the second by some file systems; the file must come from this run.
    assert.ok(st.mtimeMs >= startedAt - 2000, `${vsix} was not written by this run`);
    // 1,391,381 bytes with one copy of each package (docs/packaging.md), 0.63 MB of it the sandbox's
    // seccomp helpers (x64 and arm64 static binaries, dist/vendor) and 0.16 MB the sandbox runtime.
    assert.ok(st.size < 1.4 * 1024 * 1024, `the .vsix is ${st.size} bytes; it must stay under 1.4 MB`);

    const entries = zipEntries(readFileSync(vsix));
    const files = entries.filter((e) => e.startsWith('extension/')).map((e) => e.slice('extension/'.length));
    assert.ok(entries.includes('extension.vsixmanifest'), 'manifest missing');
    assert.ok(files.includes('package.json'));
    assert.ok(files.includes(pkg.main.replace(/^\.\//, '')), `${pkg.main} missing from the .vsix`);
    assert.ok(
      files.some((f) => f.startsWith('media/')),
      'media/ missing',
    );

    for (const forbidden of ['src/', 'test/', 'node_modules/', 'scripts/', '.cache/', 'demo/']) {
      const hit = files.filter((f) => f.startsWith(forbidden) || f.includes(`/${forbidden}`));
      assert.deepEqual(hit, [], `the .vsix must not contain ${forbidden}`);
    }
    // The development documents (CONTRIBUTING.md, ARCHITECTURE.md, docs/, bench/README.md) stay out:
    // the .vsix carries only the user manual.
    for (const devDoc of ['contributing.md', 'architecture.md', 'docs/', 'bench/']) {
      const hit = files.filter((f) => f.toLowerCase().startsWith(devDoc));
      assert.deepEqual(hit, [], `the .vsix must not contain ${devDoc}`);
    }
    // .vscodeignore is an allow-list: the extension bundle, media/, package.json and the three
    // documents. (The CLI and source maps stay out: the CLI ships through npm, maps double the size.)
    const allowed =
      /^(dist\/[^/]+\.js(\.map)?|dist\/vendor\/(seccomp\/(x64|arm64)\/apply-seccomp|java-proxy-agent\/srt-proxy-agent\.jar)|media\/.+|package\.json|readme\.md|changelog\.md|LICENSE\.txt)$/i;
    assert.deepEqual(
      files.filter((f) => !allowed.test(f)),
      [],
      'unexpected files in the .vsix',
    );
  },
);
