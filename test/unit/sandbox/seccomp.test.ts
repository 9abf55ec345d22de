/**
 * The classic-BPF program of MCP Host's seccomp helper (core/sandbox/seccomp.ts) is, byte for byte,
 * the one the sandbox runtime's own helper carries: found in the runtime's static binary (its
 * first instruction loads the audit arch, its second compares it with the CPU's), so a runtime
 * release that changes its filter fails here. And the helper script is valid POSIX sh.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FILTER_NAME,
  HELPER_SCRIPT,
  unixBlockFilter,
  writeSeccompHelper,
  type SeccompArch,
} from '../../../src/core/sandbox/seccomp.js';

const RUNTIME_VENDOR = join(__dirname, '..', '..', '..', 'node_modules/@anthropic-ai/sandbox-runtime/vendor/seccomp');
const AUDIT: Record<SeccompArch, number> = { x64: 0xc000003e, arm64: 0xc00000b7 };

/** The program embedded in the runtime's binary: from its first instruction to the third return. */
function embeddedFilter(binary: Buffer, arch: SeccompArch): Buffer {
  const head = Buffer.alloc(16);
  head.writeUInt32LE(0x20, 0); // ld [4]: the audit arch
  head.writeUInt32LE(4, 4);
  head.writeUInt16LE(0x15, 8); // jeq #AUDIT_ARCH_…
  head.writeUInt32LE(AUDIT[arch], 12);
  let at = -1;
  for (let i = binary.indexOf(head.subarray(0, 8)); i !== -1; i = binary.indexOf(head.subarray(0, 8), i + 1)) {
    if (binary.readUInt16LE(i + 8) === 0x15 && binary.readUInt32LE(i + 12) === AUDIT[arch]) {
      at = i;
      break;
    }
  }
  assert.ok(at >= 0, `no seccomp program for ${arch} in the runtime's helper`);
  let end = at;
  for (let rets = 0; rets < 3; end += 8) if (binary.readUInt16LE(end) === 0x06) rets++;
  return binary.subarray(at, end);
}

for (const arch of ['x64', 'arm64'] as const) {
  test(`the ${arch} filter is the runtime helper's program`, (t) => {
    const binary = join(RUNTIME_VENDOR, arch, 'apply-seccomp');
    if (!existsSync(binary)) return t.skip(`the runtime ships no ${binary}`);
    const ours = unixBlockFilter(arch);
    assert.equal(ours.length % 8, 0);
    assert.deepEqual([...ours], [...embeddedFilter(readFileSync(binary), arch)]);
  });
}

test('the programs check their own architecture and refuse AF_UNIX and io_uring with EPERM', () => {
  const words = (arch: SeccompArch) => {
    const b = unixBlockFilter(arch);
    return Array.from({ length: b.length / 8 }, (_, i) => b.readUInt32LE(i * 8 + 4));
  };
  for (const arch of ['x64', 'arm64'] as const) {
    const k = words(arch);
    assert.equal(k[1], AUDIT[arch], `${arch}: the audit arch compared`);
    for (const nr of [425, 426, 427]) assert.ok(k.includes(nr), `${arch}: io_uring syscall ${nr}`);
    assert.ok(k.includes(arch === 'x64' ? 41 : 198), `${arch}: socket`);
    assert.deepEqual(k.slice(-3), [0x7fff0000, 0x00050001, 0], `${arch}: allow, errno EPERM, kill`);
  }
  // x86_64 only: the x32 ABI's numbers (bit 30) are killed.
  assert.ok(words('x64').includes(0x40000000));
  assert.ok(!words('arm64').includes(0x40000000));
});

test('the helper is valid sh, executable, with its filter beside it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-seccomp-unit-'));
  try {
    const helper = writeSeccompHelper(join(dir, 'x64'), 'x64');
    assert.equal(readFileSync(helper, 'utf8'), HELPER_SCRIPT);
    assert.equal(statSync(helper).mode & 0o777, 0o755);
    assert.deepEqual(readFileSync(join(dir, 'x64', FILTER_NAME)), unixBlockFilter('x64'));
    execFileSync('sh', ['-n', helper]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
