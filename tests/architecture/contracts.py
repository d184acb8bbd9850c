"""A contract type of our own for import-linter: no import circle inside an app, except one closed by an
import inside a function of a ``tasks`` module.

A service enqueues its app's tasks and a task calls its app's services: the circle is real, and it is
harmless only when the task's side imports inside the task's body (as the Django styleguide has it), so
that loading either module never needs the other half-loaded. import-linter's graph does not say
whether an import is at module level, so this contract reads each module's source with ``ast``.

    [[tool.importlinter.contracts]]
    name = "..."
    type = "local_cycles"
    apps = ["arena", "markets"]
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from importlinter.application import output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck


def module_file(name: str) -> Path | None:
    parts = name.split(".")
    for entry in sys.path:
        base = Path(entry or ".").joinpath(*parts)
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate
    return None


def _imports(tree: ast.AST, module: str, is_package: bool):
    """(imported name candidates, inside a function?, line) for every import statement of ``tree``."""
    package = module if is_package else module.rpartition(".")[0]

    def visit(node, local):
        for child in ast.iter_child_nodes(node):
            inner = local or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                for alias in child.names:
                    yield [alias.name], inner, child.lineno
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - (child.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                for alias in child.names:
                    yield [f"{base}.{alias.name}", base], inner, child.lineno
            yield from visit(child, inner)

    yield from visit(tree, False)


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
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


class LocalCyclesContract(Contract):
    type_name = "local_cycles"
    apps = fields.ListField(subfield=fields.StringField())
    closing = fields.StringField(required=False, default="tasks")

    def check(self, graph, verbose: bool) -> ContractCheck:
        broken = []
        for app in self.apps:
            modules = {app} | set(graph.find_descendants(app))
            edges: dict[str, set[str]] = {m: set() for m in modules}
            where: dict[tuple[str, str], str] = {}
            for module in modules:
                path = module_file(module)
                if path is None:
                    continue
                tree = ast.parse(path.read_text(), str(path))
                for candidates, local, line in _imports(tree, module, path.name == "__init__.py"):
                    if local and module.rpartition(".")[2] == self.closing:
                        continue  # a task's own import inside its body may close a circle
                    target = next((c for c in candidates if c in modules), None)
                    if target and target != module:
                        edges[module].add(target)
                        where.setdefault((module, target), f"l.{line}{' in a function' if local else ''}")
            for cycle in _cycles(edges):
                members = set(cycle)
                broken.append([f"{a} -> {b} ({where[a, b]})" for a in cycle for b in sorted(edges[a] & members)])
        return ContractCheck(kept=not broken, metadata={"cycles": broken})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for imports in check.metadata["cycles"]:
            output.print_error("import circle, through:")
            for line in imports:
                output.print_error(f"-   {line}")
            output.new_line()
