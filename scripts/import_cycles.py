"""Fail on any import cycle among the project's modules, or between its parts.

Every import counts, also one inside a function or under TYPE_CHECKING-free code paths: grimp reads
them all from the source. Tests, migrations and benchmarks are left out (they sit on top of
everything). A part is a package of the architecture (docs/architecture.md); the arena's top-level
modules other than the matchmaker are the match core.

    python scripts/import_cycles.py
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
ROOTS = ("accounts", "arena", "botclient", "config", "games", "idempotency", "ratings", "sandbox", "web")
# Longest prefix wins; a module under none of them belongs to its root package.
PARTS = (
    "arena.play",
    "arena.submissions",
    "arena.tournaments",
    "arena.matchmaking",
    "arena.management",
    # The entry points compose every part (URLs, ASGI/WSGI applications, the Celery app); the rest of
    # config (settings helpers, client addresses, request limits, error answers) sits below the parts.
    "config.urls",
    "config.asgi",
    "config.wsgi",
    "config.celery",
)


def _kept(module: str) -> bool:
    return ".migrations" not in module and not module.startswith(("tests", "bench"))


def part_of(module: str) -> str:
    for part in sorted(PARTS, key=len, reverse=True):
        if module == part or module.startswith(part + "."):
            return part
    root = module.split(".")[0]
    return "arena (core)" if root == "arena" else root


def strongly_connected(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Tarjan's components with more than one node (or a node importing itself), iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in edges.get(node, ()):
                    found.append(sorted(component))
    return found


def main() -> int:
    # The packages are found from the project root, however the script is started.
    sys.path.insert(0, str(ROOT))
    graph = grimp.build_graph(*ROOTS, cache_dir=None)
    modules = sorted(m for m in graph.modules if _kept(m))
    edges = {m: {i for i in graph.find_modules_directly_imported_by(m) if _kept(i) and i != m} for m in modules}
    parts: dict[str, set[str]] = {}
    for importer, imported in ((m, i) for m, targets in edges.items() for i in targets):
        a, b = part_of(importer), part_of(imported)
        parts.setdefault(a, set())
        if a != b:
            parts[a].add(b)
    failures = 0
    for component in strongly_connected(edges):
        failures += 1
        chain = graph.find_shortest_chain(importer=component[0], imported=component[1]) or ()
        back = graph.find_shortest_chain(importer=component[1], imported=component[0]) or ()
        print(f"import cycle among modules: {', '.join(component)}")
        print(f"    {' -> '.join(chain)}  and back  {' -> '.join(back)}")
    for component in strongly_connected(parts):
        failures += 1
        print(f"import cycle between parts: {' <-> '.join(component)}")
        for a in component:
            for b in component:
                if b in parts.get(a, ()):
                    examples = [
                        f"{m} -> {i}" for m, targets in edges.items() for i in targets
                        if part_of(m) == a and part_of(i) == b
                    ]
                    more = f" (+{len(examples) - 1} more)" if len(examples) > 1 else ""
                    print(f"    {a} -> {b}: {examples[0]}{more}")
    if failures:
        print(f"{failures} import cycle(s); see docs/architecture.md for the direction of dependencies")
        return 1
    print(f"no import cycle among {len(modules)} modules and {len(parts)} parts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
