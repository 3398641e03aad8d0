"""The layers hold: pure cores import no Django and nothing of the site, models import no services or
interfaces, no two modules import each other (directly or round a loop), apps import only the apps above them, no app
imports the benchmarks, and no module is over 550 lines. Function-level imports count too."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = ("clubsite", "players", "rulebooks", "events", "ratings", "clubs", "outbox", "wordjudge", "money", "bench")
PURE_CORES = (
    "events.play.core",
    "ratings.engine",
    "wordjudge.core",
    "money.core",
    "events.pricing",
    "players.names",
    "players.matching",
    "players.memberfile",
    "clubs.core",
    "events.answers",
)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _project_modules() -> dict[str, Path]:
    modules = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            modules[_module_name(path)] = path
    return modules


MODULES = _project_modules()


def _imports(name: str, path: Path) -> set[str]:
    """The project modules `name` imports, anywhere in the file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            # `from pkg import sub` imports the module pkg.sub; `from mod import name` imports mod.
            targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in MODULES else source for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _third_party_imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_pure_cores_import_no_django_and_nothing_of_the_site_but_other_cores():
    offences = []
    for name, path in MODULES.items():
        if not name.startswith(PURE_CORES):
            continue
        if "django" in _third_party_imports(path):
            offences.append(f"{name} imports django")
        offences += [f"{name} imports {t}" for t in GRAPH[name] if not t.startswith(PURE_CORES)]
    assert offences == []


def test_models_import_no_services_or_interfaces():
    interface = {"services", "views", "api", "forms", "admin", "tasks", "urls"}
    offences = [
        f"{name} imports {target}"
        for name in MODULES
        if "models" in name.split(".")
        for target in GRAPH[name]
        if interface & set(target.split("."))
    ]
    assert offences == []


def _strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's algorithm, iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    groups.append(group)
    return groups


def test_no_import_loops():
    """A task a service queues is defined beside the service (as pretix does), so no service and task import each
    other."""
    loops = [sorted(g) for g in _strongly_connected(GRAPH) if len(g) > 1]
    assert loops == []


def test_the_check_finds_a_loop_when_there_is_one():
    graph = {"a.x": {"a.y"}, "a.y": {"b.z"}, "b.z": {"a.x"}, "c": set()}
    assert [sorted(g) for g in _strongly_connected(graph) if len(g) > 1] == [["a.x", "a.y", "b.z"]]


# The apps from the top down: each imports only those above it (ARCHITECTURE.md draws them). `site` is the
# project package around them (settings, urls, wsgi, celery, the home page), which wires every app together.
# rulebooks sits under players (a rule book is the association's or a club's) and above events (an event follows a
# version and an entry records the version agreed to), so that clubs and events alike may name a rule book.
# clubs comes after ratings: club games may be rated, and club tournaments are events.
ORDER = ("kit", "outbox", "money", "players", "rulebooks", "events", "play", "ratings", "clubs", "wordjudge")

# The imports that run against the order, each with its reason. Nothing else may.
ALLOWED_UPWARD = {
    # (importing app, imported module prefix): why
    ("*", "clubsite.celery"): "the site's Celery app: queuing, the broker check, the outbox's sending",
    (
        "events",
        "events.play.core",
    ): "an event's play rules (pairing system, spread caps, prizes) are checked by play's pure rules",
    (
        "events",
        "ratings.models",
    ): "an event names its rating list, and categories with a rating band read the players' ratings",
    (
        "play",
        "ratings",
    ): "play seats players by rating and shows live ratings: it reads ratings, ratings reads its games",
}


def _allowed(here: str, target: str) -> bool:
    return any(
        app in ("*", here) and (target == prefix or target.startswith(prefix + ".")) for app, prefix in ALLOWED_UPWARD
    )


def _component(name: str) -> str:
    if name.startswith("clubsite.kit"):
        return "kit"
    if name.startswith("clubsite"):
        return "site"
    if name.startswith("events.play"):
        return "play"
    return name.split(".")[0]


def _upward_imports(graph: dict[str, set[str]]) -> list[str]:
    offences = []
    for name, targets in graph.items():
        here = _component(name)
        for target in targets:
            there = _component(target)
            if here == there or here == "site" and there != "bench":
                continue
            if _allowed(here, target):
                continue
            if there == "bench" or there == "site" or here == "bench":
                if here == "bench" and there != "bench":
                    continue  # benchmarks drive the whole site
                offences.append(f"{name} imports {target}")
                continue
            if ORDER.index(there) > ORDER.index(here):
                offences.append(f"{name} imports {target}")
    return sorted(offences)


def test_apps_import_only_the_apps_above_them():
    assert _upward_imports(GRAPH) == []


def test_the_order_check_finds_an_import_that_runs_back_up():
    graph = {"money.services": {"events.models"}, "events.models": {"money.models"}, "players.x": {"bench.run"}}
    assert _upward_imports(graph) == ["money.services imports events.models", "players.x imports bench.run"]


def test_no_module_is_over_550_lines():
    long = {name: n for name, path in MODULES.items() if (n := len(path.read_text().splitlines())) > 550}
    assert long == {}
