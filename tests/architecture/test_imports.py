"""The doors of the architecture map (docs/development/architecture.md) hold: import-linter's contracts in
pyproject.toml pass on the tree, and each kind of contract fails on a copy of the tree given one bad import."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("config", "core", "arena", "bots", "lambdastar", "lpp", "markets", "tournaments", "tables", "studies")
LINT = [
    sys.executable,
    "-c",
    "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())",
    "--no-cache",
]


def lint(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(LINT, cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_the_tree_keeps_every_contract():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.fixture(scope="module")
def tree_copy(tmp_path_factory):
    """The packages, the contracts and our contract type, copied (sources only)."""
    dest = tmp_path_factory.mktemp("tree")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc", "migrations")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, dest / package, ignore=ignore)
    shutil.copytree(ROOT / "tests" / "architecture", dest / "tests" / "architecture", ignore=ignore)
    (dest / "tests" / "__init__.py").write_text("")
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")
    return dest


@pytest.mark.slow
@pytest.mark.parametrize(
    "module, source, contract",
    [
        ("lambdastar/_probe.py", "from arena import models\n", "lambdastar imports core only"),
        ("core/_probe.py", "import markets.models\n", "core is plumbing: it imports no app"),
        (
            "markets/_probe.py",
            "from bots.registry import get_engine\n",
            "only the engine gateway imports bots.registry",
        ),
        ("lambdastar/engine/_probe.py", "import django\n", "the pure packages import no Django"),
        ("arena/stats/_probe.py", "import django\n", "the pure packages import no Django"),
        ("tournaments/loebner/rules/_probe.py", "import django\n", "the pure packages import no Django"),
        ("tables/_probe.py", "from markets import models\n", "tables imports core and arena only"),
        ("markets/_probe.py", "from markets import tasks\n", "no import circle inside an app"),
    ],
)
def test_a_bad_import_breaks_its_contract(tree_copy, module, source, contract):
    probe = tree_copy / module
    extra = None
    if module == "markets/_probe.py" and "tasks" in source:
        # a task module that imports a service at module level, which imports the task back
        extra = tree_copy / "markets" / "tasks.py"
        original = extra.read_text()
        extra.write_text("from markets import _probe\n" + original)
    probe.write_text(source)
    try:
        result = lint(tree_copy)
    finally:
        probe.unlink()
        if extra is not None:
            extra.write_text(original)
    assert result.returncode != 0
    broken = result.stdout.split("Broken contracts")[-1]
    assert contract in broken, result.stdout
    section = broken.split(contract, 1)[1]
    assert "_probe" in section.split("\n\n\n")[0], result.stdout  # the probe is what broke it
