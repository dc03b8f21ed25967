"""How ``bin/test`` shares the suite between its processes (pytest-xdist, ``--dist loadfile``): the slow files first.

pytest-xdist hands out whole test files, the files with the most tests first.  The slowest files have few tests
(a benchmark, a real server or worker, a browser each), so they came last, and one process could still be running
them long after the other had finished.  Here the files known to be slow go first, so what is left at the end is
short, and the processes finish together; every benchmark area of ``tests/test_bench_quick.py`` (a real
``manage.py bench AREA --quick`` each, the slowest tests of all) is a unit of its own, so two can run at once.
Nothing else changes: every test runs once, and but for those areas each file's tests in one process, in order.
"""

from __future__ import annotations

from xdist.scheduler import LoadFileScheduling

#: What to start with, slowest first (a test file, or a folder of them).
SLOW_FIRST = (
    "tests/test_bench_quick.py",
    "tests/integration/",
    "tests/browser/",
    "tests/live/",
    "tests/tournaments/test_pairing_exactness.py",
    "tests/tournaments/test_dashboard_people.py",
    "tests/tournaments/test_dashboard_penalties.py",
)
#: The test of a benchmark area, one unit of work per area.
BENCHMARK = "tests/test_bench_quick.py::test_a_benchmark_runs_quick_to_its_end"


def rank(scope: str) -> int:
    """Where a unit of work goes: the place of its file in :data:`SLOW_FIRST`, the others after them."""
    return next((n for n, prefix in enumerate(SLOW_FIRST) if scope.startswith(prefix)), len(SLOW_FIRST))


class SlowFirstFileScheduling(LoadFileScheduling):
    def _split_scope(self, nodeid: str) -> str:
        return nodeid if nodeid.startswith(BENCHMARK) else super()._split_scope(nodeid)

    def _assign_work_unit(self, node) -> None:
        # As pytest-xdist does, but the next unit is the first of the slowest kind left rather than the first left.
        scope = min(self.workqueue, key=rank)
        work_unit = self.workqueue.pop(scope)
        self.assigned_work.setdefault(node, {})[scope] = work_unit
        collection = self.registered_collections[node]
        node.send_runtest_some([collection.index(nodeid) for nodeid, done in work_unit.items() if not done])
