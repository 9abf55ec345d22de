/**
 * MCP Host's own stand-in for the sandbox runtime's `apply-seccomp` helper (a 755 KB static binary,
 * 346 KB of the 1 MB linux-x64 package): a POSIX shell script that runs the command in a nested
 * bubblewrap, which loads a classic-BPF program built here (`--seccomp FD`).
 *
 * What the runtime's helper does, and this does too (the runtime calls it as `apply-seccomp <sh> -c
 * <command>` inside its own bubblewrap, after the socat relays have started, because they need
 * Unix sockets):
 * - the filter: `socket(AF_UNIX, …)` and io_uring_setup/enter/register (IORING_OP_SOCKET would get
 *   round the socket rule) fail with EPERM, everything else is allowed; a syscall of another
 *   architecture (the wrong audit arch; on x86_64 the x32 ABI's numbers) kills the process. The
 *   bytes are those libseccomp exports for the runtime's rule (`unixBlockFilter` documents each).
 * - new user, PID and mount namespaces around the filtered command, so it cannot see or signal the
 *   unfiltered processes of the sandbox (its init, the shell, the socat relays). bubblewrap applies
 *   the filter to its own init in the nested PID namespace as well, so nothing unfiltered is
 *   reachable from inside it.
 * - /proc is not mounted again: the runtime's helper tries and, under the runtime's bubblewrap (whose
 *   /proc has locked read-only mounts on /proc/bus and /proc/irq), the kernel refuses a new proc
 *   mount in a nested user namespace, which the helper ignores; bubblewrap's `--proc` would fail
 *   the whole start, so the nested sandbox keeps the outer one's /proc, as the helper does.
 * - If the nested namespaces cannot be made, the command does not run (bubblewrap exits non-zero).
 * Where it differs: every capability is dropped (`--cap-drop ALL`); the runtime's helper leaves a
 * uid-0 caller's command a full set inside its nested user namespace. And it has no violation
 * observer (the runtime's `SRT_OBSERVE_SOCK`, which MCP Host never enables on Linux).
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export type SeccompArch = 'x64' | 'arm64';

/** The variable naming bubblewrap for the script: the wrapper's PATH is the system's only. */
export const BWRAP_ENV = 'MCP_HOST_BWRAP';

export const HELPER_NAME = 'apply-seccomp';
export const FILTER_NAME = 'unix-block.bpf';

// Classic BPF (linux/filter.h, linux/seccomp.h): the opcodes and return values the filter uses.
const LD_W_ABS = 0x20; // A = the 32-bit word of struct seccomp_data at k
const JEQ_K = 0x15; // pc += A == k ? jt : jf
const JGE_K = 0x35; // pc += A >= k ? jt : jf
const AND_K = 0x54; // A &= k
const RET_K = 0x06; // return k
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const SECCOMP_RET_KILL_THREAD = 0;
const EPERM = 1;
const AF_UNIX = 1;
// struct seccomp_data: nr, arch, instruction_pointer, args[6] (64-bit each, little-endian here).
const NR = 0;
const ARCH = 4;
const ARG0_LO = 16;
const ARG0_HI = 20;

const ARCHES: Record<SeccompArch, { audit: number; socket: number; x32: boolean }> = {
  // AUDIT_ARCH_X86_64; x86_64's socket is 41; x32 syscalls carry bit 30 (__X32_SYSCALL_BIT).
  x64: { audit: 0xc000003e, socket: 41, x32: true },
  // AUDIT_ARCH_AARCH64; the generic table's socket is 198.
  arm64: { audit: 0xc00000b7, socket: 198, x32: false },
};
/** io_uring_setup, io_uring_enter, io_uring_register: the same numbers on both. */
const IO_URING = [425, 426, 427];

function insn(code: number, jt: number, jf: number, k: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeUInt16LE(code, 0);
  b.writeUInt8(jt, 2);
  b.writeUInt8(jf, 3);
  b.writeUInt32LE(k >>> 0, 4);
  return b;
}

/**
 * The filter for `arch`, as bubblewrap's `--seccomp FD` reads it (struct sock_filter[], 8 bytes an
 * instruction). Instruction for instruction what libseccomp 2.5 exports for the runtime's rule
 * (`seccomp_init(SCMP_ACT_ALLOW)`, socket with A0 == AF_UNIX and the three io_uring calls to
 * `SCMP_ACT_ERRNO(EPERM)`), the program the runtime's helper carries.
 */
export function unixBlockFilter(arch: SeccompArch): Buffer {
  const a = ARCHES[arch];
  // Built forwards with symbolic targets; a jump's offset counts from the instruction after it.
  type To = number | 'allow' | 'deny' | 'kill' | 'next';
  const code: { op: number; k: number; jt?: To; jf?: To }[] = [
    { op: LD_W_ABS, k: ARCH },
    { op: JEQ_K, k: a.audit, jt: 'next', jf: 'kill' },
    { op: LD_W_ABS, k: NR },
    // x32 numbers (bit 30 set) are another ABI: kill, except -1 (a syscall a tracer skipped).
    ...(a.x32
      ? [
          { op: JGE_K, k: 0x40000000, jt: 'next' as To, jf: 1 },
          { op: JEQ_K, k: 0xffffffff, jt: 'next' as To, jf: 'kill' as To },
        ]
      : []),
    ...IO_URING.map((nr) => ({ op: JEQ_K, k: nr, jt: 'deny' as To, jf: 'next' as To })),
    { op: JEQ_K, k: a.socket, jt: 'next', jf: 'allow' },
    // The domain is an int: the upper half of the 64-bit argument (masked to nothing, as libseccomp
    // does for a 32-bit comparison) must be 0, the lower one AF_UNIX.
    { op: LD_W_ABS, k: ARG0_HI },
    { op: AND_K, k: 0 },
    { op: JEQ_K, k: 0, jt: 'next', jf: 'allow' },
    { op: LD_W_ABS, k: ARG0_LO },
    { op: JEQ_K, k: AF_UNIX, jt: 'deny', jf: 'allow' },
  ];
  const at = { allow: code.length, deny: code.length + 1, kill: code.length + 2 };
  const offset = (from: number, to: To | undefined): number =>
    to === undefined || to === 'next' ? 0 : typeof to === 'number' ? to : at[to] - from - 1;
  const insns = code.map((c, i) => insn(c.op, offset(i, c.jt), offset(i, c.jf), c.k));
  insns.push(insn(RET_K, 0, 0, SECCOMP_RET_ALLOW));
  insns.push(insn(RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM));
  insns.push(insn(RET_K, 0, 0, SECCOMP_RET_KILL_THREAD));
  return Buffer.concat(insns);
}

/**
 * The helper: bubblewrap in place of the shell (`exec`, so signals and the exit status are the
 * nested sandbox's), with the filter on fd 3. `--dev-bind / /` keeps the outer sandbox's whole view
 * (its read-only binds, hidden paths and /dev), locked from inside by the nested user namespace.
 */
export const HELPER_SCRIPT = `#!/bin/sh
# MCP Host's apply-seccomp (src/core/sandbox/seccomp.ts): runs "$@" in new user, PID and mount
# namespaces under the seccomp filter beside this file (socket(AF_UNIX) and io_uring: EPERM).
exec "\${${BWRAP_ENV}:-bwrap}" --unshare-user --unshare-pid --die-with-parent --dev-bind / / \\
  --cap-drop ALL --unsetenv ${BWRAP_ENV} --seccomp 3 -- "$@" 3<"\${0%/*}/${FILTER_NAME}"
`;

/** Writes the helper and `arch`'s filter into `dir` (created); returns the helper's path. */
export function writeSeccompHelper(dir: string, arch: SeccompArch): string {
  mkdirSync(dir, { recursive: true });
  const helper = join(dir, HELPER_NAME);
  writeFileSync(join(dir, FILTER_NAME), unixBlockFilter(arch), { mode: 0o644 });
  writeFileSync(helper, HELPER_SCRIPT, { mode: 0o755 });
  // writeFileSync's mode applies only to a new file, and through the umask.
  chmodSync(helper, 0o755);
  return helper;
}

/** This CPU's filter architecture, or undefined where the runtime's helper has none either (ia32: socketcall). */
export function seccompArch(arch: string = process.arch): SeccompArch | undefined {
  return arch === 'x64' || arch === 'arm64' ? arch : undefined;
}

let written: string | undefined;

/**
 * The helper for this CPU: in a build, the one the build wrote beside the bundle (dist/vendor/
 * seccomp/<arch>; undefined when the package is another CPU's); run from the sources (the tests),
 * one written once a process into a private temporary folder, removed when the process exits.
 */
export function seccompHelperPath(ownFile: string = __filename, ownDir: string = __dirname): string | undefined {
  const arch = seccompArch();
  if (!arch) return undefined;
  if (!ownFile.endsWith('.ts')) {
    const shipped = join(ownDir, 'vendor', 'seccomp', arch, HELPER_NAME);
    return existsSync(shipped) ? shipped : undefined;
  }
  if (written !== undefined) return written;
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-seccomp-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return (written = writeSeccompHelper(dir, arch));
}

/**
 * What the sandbox runtime needs for the helper on `platform`: its `seccomp` setting; the wrapper's
 * variable naming bubblewrap (the nested one is the one MCP Host found, not the wrapper's PATH's);
 * and the helper's folder, kept read-only in every sandbox, since each later wrap runs the helper
 * before its filter is on. Empty where there is no helper (not Linux, another CPU's package).
 */
export function seccompLayer(
  platform: NodeJS.Platform,
  bwrap: string | undefined,
): { config: { seccomp?: { applyPath: string } }; env: Record<string, string>; denyWrite: string[] } {
  const helper = platform === 'linux' ? seccompHelperPath() : undefined;
  if (!helper) return { config: {}, env: {}, denyWrite: [] };
  return {
    config: { seccomp: { applyPath: helper } },
    env: bwrap ? { [BWRAP_ENV]: bwrap } : {},
    denyWrite: [dirname(helper)],
  };
}
