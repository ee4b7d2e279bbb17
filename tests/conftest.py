"""Shared fixtures: an isolated local server in-process (a copy of a seeded template), users of
every role with tokens, clients speaking as them."""

from __future__ import annotations

import gc
import inspect
import os
import pickle
import re
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from textual.app import App

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.cache import ResponseCache
from gitbook_tui.server.app import create_app
from gitbook_tui.server.core.clock import Clock
from gitbook_tui.tui.common import idle_collector
from gitbook_tui.tui.textual_compat import (
    forget_ended_apps_render_caches,
    quicken_pilot_waits,
    share_parsed_css,
)
from support.frozen_clock import steady_screen
from support.screen_contrast import every_theme_failures, own_theme_failures
from support.snapshot_text import describe_mismatch
from support.worlds import (
    START,
    Clients,
    Template,
    World,
    copy_template,
    make_demo_template,
    make_template,
    populate_world,
)

# Every app a test process starts parses the same CSS with the same few themes' variables:
# once per process is enough (Textual would parse it again for each app and theme switch).
share_parsed_css()
# Pilot waits for an idle app after every key and pause by sleeping 20 ms at least: most of
# an app test's time was that sleep (at 5 ms, still a third of the Sites tests' time). It looks
# every 1 ms instead (idle: under 0.1 ms on the CPU). Such an "idle" says nothing of timers
# still to fire (Textual applies a resize 8 ms later): tests wait for what they look at
# (``support.waits``: ``until``, ``settle``, ``resize``).
quicken_pilot_waits(0.001, 0.0001)

# Fixtures of the shared worlds, available to every test without an import.
pytest_plugins = ["support.review_world", "support.tree_world"]


TESTS = Path(__file__).parent

_RUNS_AN_APP: dict[Path, bool] = {}
_STARTS_AN_APP = ("run_test(", "PtyApp", "snap_compare")
_SUPPORT_IMPORT = re.compile(
    r"^\s*(?:(?:from|import)\s+support\.(\w+)|from\s+support\s+import\s+\(?([\w ,]+))",
    re.MULTILINE,
)


def _runs_an_app(path: Path) -> bool:
    """The module starts the Textual app (Pilot, a pty, or a snapshot's app), itself or
    through a module of tests/support it imports (e.g. ``admin_world.admin_shown``)."""
    if path not in _RUNS_AN_APP:
        _RUNS_AN_APP[path] = False  # (a cycle of imports ends here)
        source = path.read_text(encoding="utf-8")
        names = [  # (``from support import a, b as c``: a and b)
            name.split()[0]
            for dotted, listed in _SUPPORT_IMPORT.findall(source)
            for name in (dotted or listed).split(",")
            if name.strip()
        ]
        helpers = (TESTS / "support" / f"{name}.py" for name in names)
        _RUNS_AN_APP[path] = any(s in source for s in _STARTS_AN_APP) or any(
            helper.is_file() and _runs_an_app(helper) for helper in helpers
        )
    return _RUNS_AN_APP[path]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Markers set by where a test lives and what it uses, so a part of the suite can be run
    on its own: ``snapshot`` (compares an SVG), ``app`` (runs the Textual app), ``server``
    (tests/server), ``browser`` (Chromium on ``gitbook-tui web``, also ``app``), ``unit``
    (the rest). The inner loop is
    ``python -m pytest -m "not app and not snapshot and not slow" -n 2``."""
    for item in items:
        path = Path(str(item.path))
        kinds = []
        if "snap_compare" in getattr(item, "fixturenames", ()):
            kinds.append("snapshot")
        elif _runs_an_app(path):
            kinds.append("app")
        if path.is_relative_to(TESTS / "server"):
            kinds.append("server")
        if "browser" in getattr(item, "fixturenames", ()):  # Chromium on `gitbook-tui web`
            kinds += ["browser", "app"]
        for kind in kinds or ["unit"]:
            item.add_marker(kind)


SLOW_SECONDS = 5.0
_SLOW_WITHOUT_REASON: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Remember a test that ran over ``SLOW_SECONDS`` with no docstring saying why."""
    slow = report.when == "call" and report.passed and report.duration > SLOW_SECONDS
    if slow and dict(report.user_properties).get("why_slow", "") == "":
        _SLOW_WITHOUT_REASON.append(f"{report.nodeid} ({report.duration:.1f} s)")


_APPS_RUN = [0]
_pilot_run = App.run_test


def _counted_run_test(self: App[Any], *args: Any, **kwargs: Any) -> Any:
    _APPS_RUN[0] += 1
    return _pilot_run(self, *args, **kwargs)


App.run_test = _counted_run_test  # type: ignore[method-assign]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    """A test that runs the app must be marked ``app`` (else the inner loop runs it): one
    that starts it through a helper the marking did not see fails, saying so."""
    before = _APPS_RUN[0]
    yield
    ran_an_app = _APPS_RUN[0] > before
    if ran_an_app:  # what the ended apps drew goes with them (see the function)
        forget_ended_apps_render_caches()
    marked = item.get_closest_marker("app") or item.get_closest_marker("snapshot")
    if ran_an_app and not marked:
        pytest.fail(
            f"{item.nodeid} runs the Textual app (Pilot) but is not marked `app`, so the inner "
            "loop would run it: mark it (`pytestmark = pytest.mark.app`)"
        )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    outcome = yield
    report = outcome.get_result()
    function = getattr(item, "function", None)
    why = (getattr(function, "__doc__", None) or "").strip()
    if not why and "snap_compare" in item.fixturenames:  # (said once, for every snapshot)
        why = "the contrast check measures the screen in every built-in theme"
    report.user_properties.append(("why_slow", why))
    if report.when == "call" and report.failed and "snap_compare" in item.fixturenames:
        difference = _snapshot_difference(item)
        if difference:
            report.sections.append(("what the snapshot drew differently", difference))


def _snapshot_difference(item: pytest.Item) -> str:
    """The rows a failed snapshot test drew differently, read from the data the snapshot
    plugin keeps for its HTML report (which CI does not keep)."""
    from pytest_textual_snapshot import node_to_report_path

    path = node_to_report_path(item)
    if not path.exists():
        return ""
    data = pickle.loads(path.read_bytes())
    expected, actual = data[1], data[2]
    if not expected or expected == "None":
        return "no snapshot on disk to compare with"
    return describe_mismatch(expected, actual)


CONTRAST_SECONDS: list[float] = []


def _measured_in_every_theme(node: pytest.Item) -> bool:
    """Whether a snapshot's screen is measured in every theme: yes, unless it is the 80x24
    case of a test parametrized with a 120x40 one too (the same screen: its widgets and
    states, so its colours, are those of the wider one, which shows at least as much).
    Measured in its own theme only, then: every theme takes ~2–3 s a screen. Decided from
    the test's parameters, not from what a run selected, so a snapshot draws the same
    alone as in the suite (a theme switch lays a page out anew)."""
    if "80x24" not in node.nodeid.rpartition("[")[2]:
        return True
    for mark in node.iter_markers("parametrize"):
        values = mark.args[1] if len(mark.args) > 1 else mark.kwargs.get("argvalues", ())
        if any(getattr(value, "id", None) == "120x40" for value in values):
            return False
    return True


@pytest.fixture
def snap_compare(
    snap_compare: Callable[..., bool],
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> Any:
    """The snapshot plugin's ``snap_compare`` on a steady screen (no cursor blinks, no
    keyring: ``support.frozen_clock.steady_screen``), plus the contrast check: once the test's
    ``run_before`` has built the screen, every character drawn on it is measured in every
    built-in theme (``support.screen_contrast``; an 80x24 twin of a 120x40 snapshot in its
    own theme: ``_measured_in_every_theme``), the test's theme is restored, and only then
    is the screenshot taken. A cell below its floor fails the test, naming theme, row,
    column, text and ratio."""
    steady_screen(monkeypatch)
    every_theme = _measured_in_every_theme(request.node)

    def compare(
        app: Any,
        press: Iterable[str] = (),
        terminal_size: tuple[int, int] = (80, 24),
        run_before: Callable[[Any], Any] | None = None,
    ) -> bool:
        failures: list[Any] = []

        async def measured(pilot: Any) -> None:
            if run_before is not None:
                result = run_before(pilot)
                if inspect.isawaitable(result):
                    await result
            await pilot.pause()
            await pilot.press(*press)
            started = time.perf_counter()
            if every_theme:
                failures.extend(await every_theme_failures(pilot))
            else:
                failures.extend(own_theme_failures(pilot))
            CONTRAST_SECONDS.append(time.perf_counter() - started)

        matched = snap_compare(app, terminal_size=terminal_size, run_before=measured)
        if failures and os.environ.get("CONTRAST_DUMP"):
            with open(os.environ["CONTRAST_DUMP"], "a", encoding="utf-8") as dump:
                dump.writelines(f"{request.node.nodeid}\t{f}\n" for f in failures)
        if failures:
            shown = "\n".join(str(f) for f in failures[:40])
            more = f"\n… and {len(failures) - 40} more" if len(failures) > 40 else ""
            raise AssertionError(
                f"{len(failures)} runs of text below their contrast floor on "
                f"{request.node.nodeid}:\n{shown}{more}"
            )
        return matched

    return compare


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """A test over 5 s must say in its docstring why it needs the time."""
    if CONTRAST_SECONDS:
        terminalreporter.line(
            f"contrast check: {len(CONTRAST_SECONDS)} screens, "
            f"{sum(CONTRAST_SECONDS):.1f} s in all (this process)"
        )
    if _SLOW_WITHOUT_REASON:
        terminalreporter.section("tests over 5 s without a docstring saying why")
        for line in _SLOW_WITHOUT_REASON:
            terminalreporter.line(line)


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the real user's config or cache."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("GITBOOK_TOKEN", raising=False)
    monkeypatch.delenv("GITBOOK_API_URL", raising=False)
    # no key a test presses (ctrl+o, e) may start the developer's own editor
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)


@pytest.fixture(autouse=True)
def _no_idle_collections(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's idle collector (a full ``gc.collect`` once input is quiet) stays off unless a
    test is marked ``idle_collection``: in a test process the heap holds every module and
    fixture of the suite, and each collection took ~1.5 s there (286 s of the 1,080 s of CPU
    that tests/tui/review took), where the app alone takes ~0.2 s. What the app does is the
    same either way; the collector's own tests, and the monkey, keep it on (and thaw what
    the session froze when their app exits: later full collections walk it again)."""
    if request.node.get_closest_marker("idle_collection") is None:
        # not installed: it neither collects nor thaws what the session froze (below)
        monkeypatch.setattr(idle_collector.IdleCollector, "install", lambda self: None)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What is loaded by now (modules, the collected tests, schemas) lives to the end: it is
    frozen out of the garbage collector's walks. Else every full collection CPython starts
    during the run walks it again (~1.5 s each in a test process, ~120 s a process over
    tests/tui/sites + tests/server/test_sites).

    The young generation holds 20,000 objects before it is walked (CPython: 700), and full
    collections start ten times less often (the third threshold 10 → 100). A test's app is
    a few hundred thousand objects that live as long as the test: at 700, they were walked
    again and again until promoted, and the apps that ended were freed by full collections
    that also walked the test's live app (the whole run: ~40 s of collections a process →
    ~20 s, the suite 283 s → 247 s; tests/tui/comments alone: peak memory 240 → 330 MB)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 10, 100)


@pytest.hookimpl(trylast=True)  # once the test's fixtures are torn down: not frozen with it
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After the last of a run of ``idle_collection`` tests, what their app's collector
    thawed on exit is frozen again (see ``pytest_collection_finish``): else every later full
    collection of the process walked the whole session's heap again."""
    thawed = item.get_closest_marker("idle_collection") is not None
    if thawed and (nextitem is None or nextitem.get_closest_marker("idle_collection") is None):
        gc.collect()
        gc.freeze()


@pytest.fixture
def clock() -> Clock:
    return Clock(fixed=START)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "workspace.sqlite"


def operator_allowances(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    """``create_app`` options of a test marked ``local_fetches``: the operator lets API
    imports read the tests' folders (fixtures, tmp_path) and fetch from loopback peers."""
    if request.node.get_closest_marker("local_fetches") is None:
        return {}
    return {"allow_import_roots": [TESTS, tmp_path], "allow_fetch_hosts": ["127.0.0.1"]}


@pytest.fixture
def app(
    db_path: Path,
    clock: Clock,
    world_template: Template,
    request: pytest.FixtureRequest,
    tmp_path: Path,
) -> Iterator[FastAPI]:
    """The in-process server over a copy of the world's database (see ``world``); its
    database closed after the test (a test process would otherwise hold thousands of files
    open by its end)."""
    storage = copy_template(world_template, db_path)
    yield create_app(storage, clock=clock, **operator_allowances(request, tmp_path))
    storage.close()


@pytest.fixture(scope="session")
def world_template(tmp_path_factory: pytest.TempPathFactory) -> Template:
    """The world's database, seeded once per test process; each test gets a copy."""
    return make_template(tmp_path_factory.mktemp("world-template"), populate_world)


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> Template:
    """The demo workspace's database, seeded once per test process (see ``demo_app``)."""
    return make_demo_template(tmp_path_factory.mktemp("demo-template"))


@pytest.fixture
def world(app: FastAPI, clock: Clock, world_template: Template) -> Iterator[World]:
    ids = world_template.ids
    w = World(
        app=app,
        storage=app.state.server.storage,
        clock=clock,
        org=ids["org"],
        other_org=ids["other_org"],
        users=dict(ids["users"]),
    )
    yield w
    w.close()


@pytest.fixture
def make_space(world: World) -> Callable[..., dict]:
    """Create a space through the API (as alice unless told) and return its JSON."""

    def _make(title: str = "Guide", *, as_user: str = "alice", **fields: object) -> dict:
        r = world.client(as_user).post(f"/orgs/{world.org}/spaces", json={"title": title, **fields})
        assert r.status_code in (200, 201), r.text
        return r.json()

    return _make


@pytest.fixture
async def connect(world: Any) -> AsyncIterator[Clients]:
    """``connect(name, **options)``: a client speaking to the in-process server as that user."""
    opened: list[AsyncGitBook] = []

    def _connect(name: str = "alice", **options: Any) -> AsyncGitBook:
        client = AsyncGitBook(
            f"tok-{name}",
            base_url="http://testserver/v1",
            transport=httpx.ASGITransport(app=world.app),
            **options,
        )
        opened.append(client)
        return client

    yield _connect
    for client in opened:
        await client.close()


@pytest.fixture
def gb(connect: Clients) -> AsyncGitBook:
    """A client speaking as alice (organization admin)."""
    return connect("alice")


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[ResponseCache]:
    """A response cache in a temporary directory (the client tests' cache; it replaces
    pytest's own ``cache`` fixture, which no test here uses)."""
    c = ResponseCache(tmp_path / "cache" / "responses.sqlite")
    yield c
    c.close()
