"""The layers hold: pure cores import no Django and nothing of the site, models import no services or
interfaces, and no two modules import each other (directly or round a loop) except a service and its
own Celery tasks. Function-level imports count too: they are loops all the same."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = ("clubsite", "players", "events", "ratings", "outbox", "wordjudge", "money")
PURE_CORES = ("events.core", "ratings.engine", "wordjudge.core", "money.core")


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
    interface = {"services", "views", "api", "forms", "admin", "tasks", "urls", "play"}
    offences = [
        f"{name} imports {target}"
        for name in MODULES
        if "models" in name.split(".")
        for target in GRAPH[name]
        if interface & set(target.split(".")) and not target.startswith("events.models")
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


def _service_and_its_tasks(group: set[str]) -> bool:
    """A service queues its app's task and the task calls back into the service: the one loop allowed."""
    apps = {name.split(".")[0] for name in group}
    tasks = {name for name in group if name.endswith(".tasks")}
    return len(apps) == 1 and len(tasks) == 1 and all(n in tasks or ".services" in n for n in group)


def test_no_import_loops_but_a_service_and_its_own_tasks():
    loops = [sorted(g) for g in _strongly_connected(GRAPH) if len(g) > 1 and not _service_and_its_tasks(g)]
    assert loops == []


def test_the_check_finds_a_loop_when_there_is_one():
    graph = {"a.x": {"a.y"}, "a.y": {"b.z"}, "b.z": {"a.x"}, "c": set()}
    assert [sorted(g) for g in _strongly_connected(graph) if len(g) > 1] == [["a.x", "a.y", "b.z"]]
