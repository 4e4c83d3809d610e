"""The seccomp filter's system call numbers and program shape."""

from __future__ import annotations

import re
import struct
from pathlib import Path

from sandbox import seccomp

HEADER = Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h")


def test_every_denied_number_matches_the_kernel_header():
    assert HEADER.exists(), "install linux-libc-dev to check the numbers"
    numbers = dict(re.findall(r"#define __NR_(\w+) (\d+)", HEADER.read_text()))
    table = dict(seccomp.DENIED_SYSCALLS)
    table.update(
        ioctl=seccomp.SYS_IOCTL,
        socket=seccomp.SYS_SOCKET,
        socketpair=seccomp.SYS_SOCKETPAIR,
        clone=seccomp.SYS_CLONE,
        clone3=seccomp.SYS_CLONE3,
    )
    assert {name: int(numbers[name]) for name in table} == table


def test_the_program_checks_the_architecture_first_and_ends_in_returns():
    program = seccomp.build_filter()
    assert len(program) % 8 == 0
    code = [struct.unpack("<HBBI", program[i : i + 8]) for i in range(0, len(program), 8)]
    assert code[0] == (seccomp.BPF_LD_W_ABS, 0, 0, seccomp.OFFSET_ARCH)
    assert code[1][0] == seccomp.BPF_JEQ_K and code[1][3] == seccomp.AUDIT_ARCH_X86_64
    assert code[-1] == (seccomp.BPF_RET_K, 0, 0, seccomp.SECCOMP_RET_KILL_PROCESS)
    for position, (op, jt, jf, _k) in enumerate(code):
        if op in (seccomp.BPF_JEQ_K, seccomp.BPF_JGE_K, seccomp.BPF_JSET_K):
            assert position + 1 + max(jt, jf) < len(code)  # every jump lands inside
