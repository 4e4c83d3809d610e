"""The languages of uploaded bots: how each is recognised, built and run.

One table (``LANGUAGES``) says, per language, the entry file's name, the Debian packages of its
toolchain, the build command (compiled languages: run once per version, inside the sandbox, with no
network, writing to ``/out``), the run command and the limits its runtime needs beyond the sandbox's
defaults. docs/languages.md publishes the same table; ``prepare_bot`` (sandbox.build) applies it on
the workers and in the local ``part-du-chef`` command alike, so both build a program the same way.

Paths of tools are fixed Debian paths, resolved on the host when a link points outside ``/usr``
(``/usr/bin/java`` is an alternatives link into ``/etc/alternatives``, which the sandbox does not see).
"""

from __future__ import annotations

import glob
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .errors import BundleRejected

MiB = 1024 * 1024

# Written next to a built program by sandbox.build, read back to run it (never taken from an upload).
BUILD_INFO = ".bot-build.json"
READY_BUILT = "main"  # a zip's ready-built program: a Linux x86-64 ELF executable
JAVA_CLASS = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")

C_FLAGS = ("-O2", "-std=gnu17", "-pipe")
CPP_FLAGS = ("-O2", "-std=gnu++17", "-pipe")
RUST_FLAGS = ("--edition=2021", "-C", "opt-level=2")
# The JVM's default reservations (a 1 GiB class space, 240 MiB of code cache, a heap of a quarter of
# the machine) do not fit in the sandbox's 512 MiB of address space; these do.
JVM_FLAGS = (
    "-Xmx64m",
    "-XX:+UseSerialGC",
    "-XX:ReservedCodeCacheSize=16m",
    "-XX:CompressedClassSpaceSize=32m",
    "-XX:MaxMetaspaceSize=64m",
    "-XX:TieredStopAtLevel=1",
)


@dataclass(frozen=True)
class Language:
    key: str
    name: str
    extension: str  # of the single file, and of main.<ext> in a zip ("" for a ready-built program)
    packages: tuple[str, ...]  # Debian packages of the worker's toolchain
    tools: tuple[str, ...]  # programs that must exist on the worker (links resolved on the host)
    compiled: bool = False
    # Address space at run time when the runtime needs more than the sandbox's default.
    run_memory_bytes: int | None = None
    # Added to the start-up time limit (the wait for "ready"): a runtime that loads slowly.
    extra_start_ms: int = 0
    # Read-only host paths the runtime needs besides /usr (glob patterns).
    ro_globs: tuple[str, ...] = field(default=())
    jit: str = ""

    def missing_tools(self) -> list[str]:
        return [tool for tool in self.tools if not os.access(tool_path(tool), os.X_OK)]

    def ro_binds(self) -> tuple[str, ...]:
        return tuple(sorted(path for pattern in self.ro_globs for path in glob.glob(pattern)))


LANGUAGES: dict[str, Language] = {
    lang.key: lang
    for lang in (
        Language(
            "python",
            "Python 3 (numpy)",
            ".py",
            ("python3", "python3-numpy"),
            ("/usr/bin/python3",),
            # numpy's BLAS and LAPACK are alternatives links into /etc/alternatives.
            ro_globs=("/etc/alternatives/libblas.so.3-*", "/etc/alternatives/liblapack.so.3-*"),
            jit="no JIT (CPython)",
        ),
        Language(
            "javascript",
            "JavaScript (Node.js)",
            ".js",
            ("nodejs",),
            ("/usr/bin/node",),
            jit="off (--jitless): V8's JIT reserves more address space than the 512 MiB limit",
        ),
        Language("c", "C", ".c", ("gcc",), ("/usr/bin/gcc",), compiled=True),
        Language("cpp", "C++", ".cpp", ("g++",), ("/usr/bin/g++",), compiled=True),
        Language("rust", "Rust", ".rs", ("rustc", "gcc"), ("/usr/bin/rustc", "/usr/bin/gcc"), compiled=True),
        Language(
            "go",
            "Go",
            ".go",
            ("golang-go",),
            ("/usr/bin/go",),
            compiled=True,
            # The Go runtime reserves its page allocator's summaries up front: Go 1.19 does not start
            # under 512 MiB of address space ("failed to reserve page summary memory"); 768 MiB is enough.
            run_memory_bytes=768 * MiB,
        ),
        Language(
            "java",
            "Java",
            ".java",
            ("default-jdk-headless",),
            ("/usr/bin/java", "/usr/bin/javac"),
            compiled=True,
            extra_start_ms=2000,
            ro_globs=("/etc/java-*-openjdk",),
            jit="on, client compiler only (-XX:TieredStopAtLevel=1): fast to warm up, small code cache",
        ),
        Language("binary", "ready-built program (Linux x86-64 ELF)", "", (), (), jit="your program"),
    )
}
BY_EXTENSION = {lang.extension: lang for lang in LANGUAGES.values() if lang.extension}
ENTRY_NAMES = {f"main{lang.extension}": lang for lang in LANGUAGES.values() if lang.extension and lang.key != "java"}
ENTRY_NAMES["Main.java"] = LANGUAGES["java"]
ENTRY_NAMES[READY_BUILT] = LANGUAGES["binary"]
ACCEPTED = (
    "one source file (.py, .js, .c, .cpp, .rs, .go, .java), or a .zip holding main.py, main.js, main.c, "
    "main.cpp, main.rs, main.go or Main.java with the rest of the program, or a .zip holding an executable main "
    "(a Linux x86-64 program)"
)


def tool_path(tool: str) -> str:
    """The tool's real path when a link leaves /usr (alternatives), else the path itself."""
    real = os.path.realpath(tool)
    return real if real.startswith("/usr/") else tool


def language_of_file(filename: str) -> Language:
    """The language of a single uploaded file, by its extension."""
    suffix = Path(filename).suffix.lower()
    lang = BY_EXTENSION.get(suffix)
    if lang is None:
        raise BundleRejected(f"{filename!r} is not a bot program: a bot is {ACCEPTED}")
    if lang.key == "java" and not JAVA_CLASS.match(Path(filename).stem):
        raise BundleRejected(f"{filename!r}: a Java file is named after its public class, e.g. Bot.java")
    return lang


def language_of_zip(names: Sequence[str]) -> Language:
    """The language of a zip, from the entry file at its top level (exactly one)."""
    top = {name for name in names if "/" not in name.rstrip("/") and not name.endswith("/")}
    found = sorted(name for name in top if name in ENTRY_NAMES)
    if not found:
        raise BundleRejected(f"no entry file (main.py, main.c, ...) at the top level: a bot is {ACCEPTED}")
    if len(found) > 1:
        raise BundleRejected(f"the zip holds {' and '.join(found)}: keep exactly one entry file")
    return ENTRY_NAMES[found[0]]


def check_toolchain(lang: Language) -> None:
    """Refuse a language whose toolchain this machine lacks, naming what is missing."""
    missing = lang.missing_tools()
    if missing:
        raise BundleRejected(
            f"{lang.name} bots cannot run on this server: {', '.join(missing)} missing "
            f"(Debian packages: {' '.join(lang.packages)})"
        )


def sources(root: Path, extension: str) -> list[str]:
    """The program's source files (relative paths, sorted), for the compilers that take a list."""
    return sorted(str(p.relative_to(root)) for p in root.rglob(f"*{extension}") if p.is_file())


def build_command(lang: Language, entry: str, files: list[str], bot: str, out: str) -> list[str]:
    """The build command, with the bot's (read-only) folder at ``bot`` and the output folder at ``out``."""
    if lang.key == "c":
        c_files = [f"{bot}/{name}" for name in files if name.endswith(".c")]
        return [tool_path("/usr/bin/gcc"), *C_FLAGS, "-o", f"{out}/main", *c_files, "-lm"]
    if lang.key == "cpp":
        cpp_files = [f"{bot}/{name}" for name in files if name.endswith((".cpp", ".cc"))]
        return [tool_path("/usr/bin/g++"), *CPP_FLAGS, "-o", f"{out}/main", *cpp_files]
    if lang.key == "rust":
        # rustc links with `cc`, an alternatives link the sandbox does not see: name gcc itself.
        linker = tool_path("/usr/bin/gcc")
        rustc = tool_path("/usr/bin/rustc")
        return [rustc, *RUST_FLAGS, "-C", f"linker={linker}", "-o", f"{out}/main", f"{bot}/{entry}"]
    if lang.key == "go":
        go_files = [f"{bot}/{name}" for name in files if name.endswith(".go") and "/" not in name]
        env = [
            "/usr/bin/env",
            "GO111MODULE=off",
            "CGO_ENABLED=0",
            "GOCACHE=/tmp/go-cache",
            "GOPATH=/tmp/go",
            "GOMAXPROCS=2",
        ]
        return [*env, tool_path("/usr/bin/go"), "build", "-o", f"{out}/main", *go_files]
    if lang.key == "java":
        java_files = [f"{bot}/{name}" for name in files if name.endswith(".java")]
        return [
            tool_path("/usr/bin/javac"),
            "-J-Xmx256m",
            "-J-XX:+UseSerialGC",
            "-J-XX:TieredStopAtLevel=1",
            "-encoding",
            "UTF-8",
            "-d",
            out,
            *java_files,
        ]
    raise ValueError(f"{lang.name} is not compiled")


def run_command(lang: Language, entry: str, bot: str) -> list[str]:
    """The command that runs a prepared bot whose folder is at ``bot``."""
    if lang.key == "python":
        # OpenBLAS starts a thread per core for numpy; one is plenty for a bot and keeps it in its limits.
        return ["/usr/bin/env", "OPENBLAS_NUM_THREADS=1", "/usr/bin/python3", "-B", "-s", "-E", f"{bot}/{entry}"]
    if lang.key == "javascript":
        # V8's JIT reserves more address space than the 512 MiB limit allows.
        # --no-expose-wasm: without it every bot's stderr starts with a warning that --jitless disables wasm.
        return ["/usr/bin/node", "--jitless", "--no-expose-wasm", "--max-old-space-size=256", f"{bot}/{entry}"]
    if lang.key == "java":
        return [tool_path("/usr/bin/java"), *JVM_FLAGS, "-cp", bot, Path(entry).stem]
    return [f"{bot}/main"]


@dataclass(frozen=True)
class BuildInfo:
    """What a prepared bot folder is: its language and entry file (written by sandbox.build)."""

    language: Language
    entry: str

    def write(self, folder: Path) -> None:
        (folder / BUILD_INFO).write_text(json.dumps({"language": self.language.key, "entry": self.entry}))

    @classmethod
    def read(cls, folder: Path) -> BuildInfo | None:
        path = folder / BUILD_INFO
        if not path.is_file():
            return None
        try:
            data = json.loads(path.read_text())
            lang = LANGUAGES[data["language"]]
            entry = str(data["entry"])
        except (ValueError, KeyError, TypeError):
            return None
        if "/" in entry or entry.startswith("."):
            return None
        return cls(lang, entry)


def is_x86_64_elf(head: bytes) -> bool:
    """An ELF file of class 64, little-endian, machine x86-64 (e_machine 62)."""
    return len(head) >= 20 and head[:4] == b"\x7fELF" and head[4] == 2 and head[5] == 1 and head[18:20] == b"\x3e\x00"


def launch(files: Path, bot: str) -> tuple[Language, list[str]]:
    """The language and run command of a prepared folder (or a lone ``.py``/``.js`` file) seen at ``bot``."""
    if files.is_dir():
        info = BuildInfo.read(files)
        if info is not None:
            return info.language, run_command(info.language, info.entry, bot)
        for name in ("main.py", "main.js"):
            if (files / name).is_file():
                lang = BY_EXTENSION[Path(name).suffix]
                return lang, run_command(lang, name, bot)
        raise BundleRejected("the bot has no main.py (and was not prepared by sandbox.build)")
    single = BY_EXTENSION.get(files.suffix.lower())
    if single is None or single.compiled:
        raise BundleRejected(f"cannot run {files.name!r} as it is: a single file runs if it is .py or .js")
    return single, run_command(single, files.name, bot)
