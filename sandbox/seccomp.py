"""A hand-written classic BPF seccomp filter for sandboxed bots (x86_64 only).

The filter is handed to bubblewrap with ``--seccomp FD``; bubblewrap installs it
right before it executes the bot, after its own mounts are done.  It denies,
with EPERM, every system call a game bot has no business making: kernel and
namespace administration, tracing other processes, keyrings, eBPF, io_uring and
sockets of any family but AF_UNIX.  Any other architecture (an i386 or x32 call
made from a 64-bit process) kills the process, so numbers cannot be smuggled
through a second system call table.
"""

from __future__ import annotations

import errno
import platform
import struct

# <linux/audit.h>: AUDIT_ARCH_X86_64 = EM_X86_64 | __AUDIT_ARCH_64BIT | __AUDIT_ARCH_LE
AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000

# <linux/seccomp.h>
SECCOMP_RET_KILL_PROCESS = 0x80000000
SECCOMP_RET_ERRNO = 0x00050000
SECCOMP_RET_ALLOW = 0x7FFF0000

# <linux/filter.h> opcodes
BPF_LD_W_ABS = 0x20
BPF_JEQ_K = 0x15
BPF_JGE_K = 0x35
BPF_JSET_K = 0x45
BPF_RET_K = 0x06

# struct seccomp_data offsets: int nr; u32 arch; u64 ip; u64 args[6] (little endian: low word first)
OFFSET_NR = 0
OFFSET_ARCH = 4


def _arg_low(index: int) -> int:
    return 16 + 8 * index


# x86_64 numbers from <asm/unistd_64.h>; tests/sandbox checks them against the header when it exists.
DENIED_SYSCALLS: dict[str, int] = {
    "ptrace": 101,
    "syslog": 103,
    "personality": 135,
    "uselib": 134,
    "vhangup": 153,
    "pivot_root": 155,
    "adjtimex": 159,
    "chroot": 161,
    "acct": 163,
    "settimeofday": 164,
    "mount": 165,
    "umount2": 166,
    "swapon": 167,
    "swapoff": 168,
    "reboot": 169,
    "iopl": 172,
    "ioperm": 173,
    "init_module": 175,
    "delete_module": 176,
    "quotactl": 179,
    "nfsservctl": 180,
    "lookup_dcookie": 212,
    "clock_settime": 227,
    "mbind": 237,
    "set_mempolicy": 238,
    "kexec_load": 246,
    "add_key": 248,
    "request_key": 249,
    "keyctl": 250,
    "unshare": 272,
    "move_pages": 279,
    "perf_event_open": 298,
    "fanotify_init": 300,
    "name_to_handle_at": 303,
    "open_by_handle_at": 304,
    "clock_adjtime": 305,
    "setns": 308,
    "process_vm_readv": 310,
    "process_vm_writev": 311,
    "kcmp": 312,
    "finit_module": 313,
    "kexec_file_load": 320,
    "bpf": 321,
    "userfaultfd": 323,
    "io_uring_setup": 425,
    "io_uring_enter": 426,
    "io_uring_register": 427,
    "open_tree": 428,
    "move_mount": 429,
    "fsopen": 430,
    "fsconfig": 431,
    "fsmount": 432,
    "fspick": 433,
    "pidfd_getfd": 438,
    "mount_setattr": 442,
    "quotactl_fd": 443,
}

# Calls allowed only with some arguments.
SYS_IOCTL = 16
SYS_SOCKET = 41
SYS_SOCKETPAIR = 53
SYS_CLONE = 56
SYS_CLONE3 = 435

AF_UNIX = 1
TIOCSTI = 0x5412  # pushes bytes into the controlling terminal's input
TIOCLINUX = 0x541C
CLONE_NEW_NAMESPACES = (
    0x00020000  # CLONE_NEWNS
    | 0x02000000  # CLONE_NEWCGROUP
    | 0x04000000  # CLONE_NEWUTS
    | 0x08000000  # CLONE_NEWIPC
    | 0x10000000  # CLONE_NEWUSER
    | 0x20000000  # CLONE_NEWPID
    | 0x40000000  # CLONE_NEWNET
)


class _Program:
    """A tiny assembler: forward jumps to named labels, resolved at the end."""

    def __init__(self) -> None:
        self._code: list[tuple[int, object, object, int]] = []
        self._labels: dict[str, int] = {}

    def load(self, offset: int) -> None:
        self._code.append((BPF_LD_W_ABS, 0, 0, offset))

    def jump(self, op: int, k: int, if_true: str | int = 0, if_false: str | int = 0) -> None:
        self._code.append((op, if_true, if_false, k))

    def ret(self, value: int) -> None:
        self._code.append((BPF_RET_K, 0, 0, value))

    def label(self, name: str) -> None:
        self._labels[name] = len(self._code)

    def assemble(self) -> bytes:
        out = bytearray()
        for position, (code, jt, jf, k) in enumerate(self._code):
            out += struct.pack("<HBBI", code, self._offset(position, jt), self._offset(position, jf), k)
        return bytes(out)

    def _offset(self, position: int, target: object) -> int:
        if isinstance(target, int):
            return target
        distance = self._labels[str(target)] - position - 1
        if not 0 <= distance <= 255:
            raise ValueError(f"seccomp jump to {target} out of range ({distance})")
        return distance


def build_filter() -> bytes:
    """Return the filter as an array of ``struct sock_filter`` ready for ``bwrap --seccomp``."""
    deny = SECCOMP_RET_ERRNO | errno.EPERM
    p = _Program()
    p.load(OFFSET_ARCH)
    p.jump(BPF_JEQ_K, AUDIT_ARCH_X86_64, 0, "kill")
    p.load(OFFSET_NR)
    p.jump(BPF_JGE_K, X32_SYSCALL_BIT, "kill", 0)
    for number in sorted(set(DENIED_SYSCALLS.values())):
        p.jump(BPF_JEQ_K, number, "deny", 0)
    p.jump(BPF_JEQ_K, SYS_SOCKET, "socket", 0)
    p.jump(BPF_JEQ_K, SYS_SOCKETPAIR, "socket", 0)
    p.jump(BPF_JEQ_K, SYS_CLONE, "clone", 0)
    # ENOSYS makes the C library fall back to clone(), whose flags we can inspect.
    p.jump(BPF_JEQ_K, SYS_CLONE3, "enosys", 0)
    p.jump(BPF_JEQ_K, SYS_IOCTL, "ioctl", 0)
    p.ret(SECCOMP_RET_ALLOW)

    p.label("socket")
    p.load(_arg_low(0))
    p.jump(BPF_JEQ_K, AF_UNIX, "allow", "deny")

    p.label("clone")
    p.load(_arg_low(0))
    p.jump(BPF_JSET_K, CLONE_NEW_NAMESPACES, "deny", "allow")

    p.label("ioctl")
    p.load(_arg_low(1))
    p.jump(BPF_JEQ_K, TIOCSTI, "deny", 0)
    p.jump(BPF_JEQ_K, TIOCLINUX, "deny", "allow")

    p.label("allow")
    p.ret(SECCOMP_RET_ALLOW)
    p.label("deny")
    p.ret(deny)
    p.label("enosys")
    p.ret(SECCOMP_RET_ERRNO | errno.ENOSYS)
    p.label("kill")
    p.ret(SECCOMP_RET_KILL_PROCESS)
    return p.assemble()


def supported() -> bool:
    """The filter is written for x86_64 system call numbers only."""
    return platform.machine() in ("x86_64", "AMD64")
