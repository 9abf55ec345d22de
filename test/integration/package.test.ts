import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { brotliDecompressSync, inflateRawSync } from 'node:zlib';
import { shippedBuild } from '../support/shipped-build.js';

const repo = join(__dirname, '..', '..');
/** docs/ pages for developers of MCP Host, kept out of the .vsix (the rest of docs/ is the user manual). */
const DEV_DOCS = ['e2e.md', 'conformance.md', 'packaging.md'];

/**
 * The entries of a zip file, read from its central directory (a .vsix is a zip). Small enough to
 * write here, so the test needs neither `unzip` nor a zip library.
 */
function zipDirectory(buf: Buffer): { name: string; method: number; size: number; local: number }[] {
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
  const entries = [];
  for (let n = 0; n < count; n++) {
    assert.equal(buf.readUInt32LE(p), CDH, `bad central directory header at ${p}`);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    entries.push({
      name: buf.toString('utf8', p + 46, p + 46 + nameLen),
      method: buf.readUInt16LE(p + 10),
      size: buf.readUInt32LE(p + 20),
      local: buf.readUInt32LE(p + 42),
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

const zipEntries = (buf: Buffer): string[] => zipDirectory(buf).map((e) => e.name);

/** The text of `extension.vsixmanifest` (stored or deflated, the two methods vsce writes). */
function unzipManifest(buf: Buffer): string {
  return unzipText(buf, 'extension.vsixmanifest');
}

/** The bytes of one entry (stored or deflated). */
function unzipEntry(buf: Buffer, name: string): Buffer {
  const entry = zipDirectory(buf).find((e) => e.name === name);
  assert.ok(entry, `${name} missing`);
  const start = entry.local + 30 + buf.readUInt16LE(entry.local + 26) + buf.readUInt16LE(entry.local + 28);
  const data = buf.subarray(start, start + entry.size);
  return entry.method === 8 ? inflateRawSync(data) : data;
}

const unzipText = (buf: Buffer, name: string): string => unzipEntry(buf, name).toString('utf8');

test(
  'npm run package makes mcp-host-<version>.vsix with only the shipped files, under 600 KB',
  { timeout: 180_000 },
  async () => {
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      main: string;
    };
    // The production build step copies the run's build (the one build.test.ts and bundle-copies.test.ts
    // check) into dist/ instead of building it again (esbuild.config.mjs MCP_HOST_TEST_BUILT_DIST).
    const { dist } = await shippedBuild();
    const startedAt = Date.now();
    const out = execFileSync('npm', ['run', 'package'], {
      cwd: repo,
      stdio: 'pipe',
      encoding: 'utf8',
      env: { ...process.env, CI: 'true', MCP_HOST_TEST_BUILT_DIST: dist },
    });
    assert.match(out, /copied this test run's production build/);

    const vsix = join(repo, `${pkg.name}-${pkg.version}.vsix`);
    const st = statSync(vsix);
    // Rounded down to the second by some file systems; the file must come from this run.
    assert.ok(st.mtimeMs >= startedAt - 2000, `${vsix} was not written by this run`);
    // 588,152 bytes (docs/packaging.md, "What makes it small"): MCP Host's own seccomp helper (a script
    // and a BPF filter, 0.5 KB a CPU, core/sandbox/seccomp.ts) in place of the runtime's static binaries
    // (0.63 MB for both CPUs), the bundles brotli-compressed (scripts/lib/compact-package.mjs), so the
    // universal package is the size of a per-platform one. It carries the manual's pages in docs/
    // (52 KB compressed), so the front page's links work offline.
    assert.ok(st.size < 600 * 1024, `the .vsix is ${st.size} bytes; it must stay under 600 KB`);

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
    // The development documents (CONTRIBUTING.md, ARCHITECTURE.md, docs/e2e.md, docs/conformance.md,
    // docs/packaging.md, bench/README.md) stay out: the .vsix carries the front page and the user manual.
    for (const devDoc of ['contributing.md', 'architecture.md', ...DEV_DOCS.map((d) => `docs/${d}`), 'bench/']) {
      const hit = files.filter((f) => f.toLowerCase().startsWith(devDoc));
      assert.deepEqual(hit, [], `the .vsix must not contain ${devDoc}`);
    }
    // The details page is the front page, and the manual pages it links to are beside it.
    const readme = unzipText(readFileSync(vsix), 'extension/readme.md');
    assert.equal(readme, readFileSync(join(repo, 'README.md'), 'utf8'), 'the .vsix carries README.md as it is');
    assert.ok(Buffer.byteLength(readme) <= 15 * 1024, 'the front page, not the 98 KB manual');
    const manual = readdirSync(join(repo, 'docs')).filter((f) => f.endsWith('.md') && !DEV_DOCS.includes(f));
    assert.deepEqual(
      files.filter((f) => f.startsWith('docs/')).sort(),
      manual.map((f) => `docs/${f}`).sort(),
      'every manual page in docs/ (a new one goes into .vscodeignore), no development document',
    );
    // .vscodeignore is an allow-list: the extension bundle, media/, package.json and the three
    // documents. (The CLI and source maps stay out: the CLI ships through npm, maps double the size.)
    const allowed =
      /^(dist\/[^/]+\.js(\.map|\.br)?|dist\/vendor\/(seccomp\/(x64|arm64)\/(apply-seccomp|unix-block\.bpf)|java-proxy-agent\/srt-proxy-agent\.jar)|media\/.+|docs\/[\w-]+\.md|package\.json|readme\.md|changelog\.md|LICENSE\.txt)$/i;
    assert.deepEqual(
      files.filter((f) => !allowed.test(f)),
      [],
      'unexpected files in the .vsix',
    );
  },
);

// Runs after the first test, on its package. The bundles ship brotli-compressed behind stubs
// (scripts/lib/compact-package.mjs): each unpacks to exactly the bundle built, and the package's
// bundles, loaded as VS Code loads an extension's main, are the extension.
test('each bundle in the .vsix is the built one, brotli-compressed behind a stub that runs it', async () => {
  const { BUNDLE_STUB, sharedStub } = (await import(join(repo, 'scripts/lib/compact-package.mjs'))) as {
    BUNDLE_STUB: string;
    sharedStub: (name: string) => string;
  };
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { name: string; version: string };
  const vsix = readFileSync(join(repo, `${pkg.name}-${pkg.version}.vsix`));
  const entries = zipEntries(vsix);
  // bundles.js is the loader of the shared stream, not a bundle built.
  const bundles = entries.filter((e) => /^extension\/dist\/[^/]+\.js$/.test(e) && !e.endsWith('/bundles.js'));
  assert.ok(entries.includes('extension/dist/bundles.js') && entries.includes('extension/dist/bundles.js.br'));
  const out = mkdtempSync(join(tmpdir(), 'mcp-host-vsix-bundles-'));
  try {
    const packed: string[] = [];
    const shared: string[] = [];
    for (const name of ['bundles.js', 'bundles.js.br'])
      writeFileSync(join(out, name), unzipEntry(vsix, `extension/dist/${name}`));
    const stream = brotliDecompressSync(unzipEntry(vsix, 'extension/dist/bundles.js.br'));
    for (const e of bundles) {
      const built = readFileSync(join(repo, 'dist', basename(e)));
      const stub = unzipEntry(vsix, e);
      writeFileSync(join(out, basename(e)), stub);
      if (stub.toString('utf8') === sharedStub(basename(e))) {
        // Its bytes are in the shared stream, once.
        assert.ok(stream.indexOf(built) >= 0, `${e}: the bundle built, in bundles.js.br`);
        shared.push(basename(e));
        continue;
      }
      if (!entries.includes(`${e}.br`)) {
        assert.deepEqual(stub, built, `${e}: as built`);
        continue;
      }
      packed.push(basename(e));
      const br = unzipEntry(vsix, `${e}.br`);
      writeFileSync(join(out, `${basename(e)}.br`), br);
      assert.equal(stub.toString('utf8'), BUNDLE_STUB, `${e}: the stub`);
      assert.ok(brotliDecompressSync(br).equals(built), `${e}.br: the bundle built`);
    }
    assert.deepEqual(packed, ['extension.js'], 'activation unpacks its bundle alone');
    for (const big of ['sdk.js', 'sandbox-runtime.js', 'lazy-shared.js', 'gateway.js'])
      assert.ok(shared.includes(big), `${big} is in the shared stream`);
    // `vscode` as a stand-in (every top-level name the API declares), enough to load the modules.
    const dts = readFileSync(require.resolve('@types/vscode/index.d.ts'), 'utf8');
    const names = [
      ...new Set([...dts.matchAll(/^\texport (?:namespace|enum|class|const|let|function) (\w+)/gm)].map((m) => m[1])),
    ];
    const vscode = `const mk=()=>new Proxy(function(){},{get:(t,k)=>k===Symbol.toPrimitive?()=>0:mk(),apply:()=>mk(),construct:()=>mk()});const api=Object.fromEntries(${JSON.stringify(names)}.map((n)=>[n,mk()]));const M=require('module');const o=M.prototype.require;M.prototype.require=function(id){return id==='vscode'?api:o.apply(this,arguments)};`;
    const loaded = execFileSync(
      process.execPath,
      [
        '-e',
        `${vscode}console.log(JSON.stringify(['extension','gateway','ide','sandbox-runtime'].map((b)=>Object.keys(require('./'+b+'.js')))))`,
      ],
      { cwd: out, encoding: 'utf8' },
    );
    const [ext, gateway, ide, sandbox] = JSON.parse(loaded) as string[][];
    assert.deepEqual(ext.sort(), ['activate', 'deactivate']);
    assert.ok(gateway.includes('startGatewayIntegration'), gateway.join());
    assert.ok(ide.includes('startIdeIntegration'), ide.join());
    assert.ok(sandbox.includes('SandboxManager'), sandbox.join());
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

// Runs after the first test, on the dist/ it built (the tests of a file run one after another).
test('the per-target packages carry only the sandbox helper of their platform', { timeout: 180_000 }, () => {
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { name: string; version: string };
  const targets = { 'linux-x64': 'x64', 'linux-arm64': 'arm64', 'darwin-arm64': undefined, 'win32-x64': undefined };
  execFileSync(
    process.execPath,
    ['scripts/package-targets.mjs', `--target=${Object.keys(targets).join(',')}`, '--no-build'],
    {
      cwd: repo,
      stdio: 'pipe',
    },
  );
  // Sorted: vsce collects the files with an asynchronous glob, so two packages list them in the order
  // the file system answered, which a loaded machine changes.
  const universal = zipEntries(readFileSync(join(repo, `${pkg.name}-${pkg.version}.vsix`)))
    .filter((e) => !e.includes('/vendor/') && e !== 'extension.vsixmanifest')
    .sort();
  for (const [target, arch] of Object.entries(targets)) {
    const vsix = readFileSync(join(repo, `${pkg.name}-${pkg.version}-${target}.vsix`));
    const entries = zipEntries(vsix);
    const vendor = entries.filter((e) => e.includes('/vendor/')).sort();
    const expected = [
      ...(target.startsWith('win32-') ? [] : ['extension/dist/vendor/java-proxy-agent/srt-proxy-agent.jar']),
      // MCP Host's seccomp helper (core/sandbox/seccomp.ts): a script and the CPU's BPF filter.
      ...(arch
        ? [
            `extension/dist/vendor/seccomp/${arch}/apply-seccomp`,
            `extension/dist/vendor/seccomp/${arch}/unix-block.bpf`,
          ]
        : []),
    ];
    assert.deepEqual(vendor, expected, `${target}: the sandbox helpers it carries`);
    // Everything else is the universal package's.
    assert.deepEqual(
      entries.filter((e) => !e.includes('/vendor/') && e !== 'extension.vsixmanifest').sort(),
      universal,
      `${target}: files besides the helpers`,
    );
    const manifest = /TargetPlatform="([^"]+)"/.exec(unzipManifest(vsix));
    assert.equal(manifest?.[1], target, `${target}: the manifest's TargetPlatform`);
    // linux-x64: 587,434 bytes (1,034,104 before issue 38: the runtime's seccomp binary was 346 KB of
    // it), with MCP Host's seccomp helper, the bundles brotli-compressed and sandbox-runtime.js without
    // the runtime's config schemas and zod 3. Issue 38's goal: < 600 KB.
    assert.ok(vsix.length < 600 * 1024, `${target}: ${vsix.length} bytes; it must stay under 600 KB`);
  }
});

// Runs after the test above, on the packages it wrote. VS Code and code-server install a package of
// another platform without a word (its sandbox then runs without the seccomp helper): the install
// paths check first.
test('package-targets --check passes the package of this machine and names it when given another', async () => {
  const { hostTarget, targetVsix } = (await import(join(repo, 'scripts/package-targets.mjs'))) as {
    hostTarget: () => string;
    targetVsix: (target: string) => string;
  };
  const host = hostTarget();
  const check = (file: string) =>
    spawnSync(process.execPath, ['scripts/package-targets.mjs', '--check', file], { cwd: repo, encoding: 'utf8' });
  if (['linux-x64', 'linux-arm64', 'darwin-arm64', 'win32-x64'].includes(host)) {
    const own = check(targetVsix(host));
    assert.equal(own.status, 0, own.stderr);
  }
  const other = host === 'darwin-arm64' ? 'linux-x64' : 'darwin-arm64';
  const wrong = check(targetVsix(other));
  assert.equal(wrong.status, 1, `${targetVsix(other)} passed the check on ${host}`);
  assert.match(
    wrong.stderr,
    new RegExp(`built for ${other}, and this machine is ${host}: install ${targetVsix(host)}`),
  );
});
