"""Browser tests: Playwright for Python drives the machine's Chromium against a live Django server.

* **Chromium** is Debian's package (``/usr/bin/chromium``, or the path in ``PODIUM_CHROMIUM``):
  browser downloads are not reachable, so ``playwright install`` is never run.  Without it the
  ``browser`` tests skip and say why; with ``CI=true`` its absence fails the run, as for the
  integration tests (``.ci/run`` installs the package).
* **One Chromium for the package** (``chromium``); each test opens fresh contexts (own cookies)
  with ``new_page``, or uses ``page`` (anonymous) and ``organiser_page`` (signed in as the
  ``organiser`` persona, without going through the login form).
* **The server** is pytest-django's ``live_server``: a thread of this process serving the test
  database, so the tests are transactional and what they create is committed and visible to it.
* **Django's async-safety check.** While Playwright's sync API is started it keeps its event loop
  marked as running in this thread, although the loop is suspended whenever test code runs (it
  lives in a greenlet that only runs inside Playwright calls).  Django would then refuse every
  ORM call of the tests and of pytest-django's database teardown.  The ORM can't block that loop,
  so for as long as this package's browser is open, and only then, ``DJANGO_ALLOW_ASYNC_UNSAFE``
  is set; the rest of the suite keeps the check.
* **Failures** leave a full-page screenshot of each page of the test in its ``tmp_path``.
* **No JavaScript error and no Content-Security-Policy violation** on any page a test opens: each is
  collected and fails the test (a script, a style or an eval the policy blocks is a broken page).
* **Checks** live in :mod:`tests.browser.support`: ``axe_check(page)`` and ``assert_fits(page)``.

To add a page's test (the judge console, say): mark the module ``pytestmark = pytest.mark.browser``,
take ``organiser_page`` and ``running_event`` (round 1 paired), ``organiser_page.goto(url)``, act
with Playwright locators, then ``axe_check(organiser_page)``.
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

IN_CI = os.environ.get("CI", "").lower() == "true"
CHROMIUM = Path(os.environ.get("PODIUM_CHROMIUM", "/usr/bin/chromium"))
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}

# Playwright's ``expect`` waits 5 s by default, a context's actions 10 s: on two cores shared with the rest of the
# suite an htmx swap may take longer than 5 s, so the assertions wait as long as the actions (a bound, not a measure).
expect.set_options(timeout=10_000)
DESKTOP = {"width": 1280, "height": 900}


def chromium_missing() -> str | None:
    if not CHROMIUM.exists():
        return f"Chromium not found at {CHROMIUM} (install Debian's chromium package or set PODIUM_CHROMIUM)"
    try:
        import axe_playwright_python  # noqa: F401
        import playwright  # noqa: F401
    except ImportError as exc:
        return f"{exc.name} is not installed"
    return None


def pytest_collection_modifyitems(config, items):
    browser_items = [item for item in items if item.get_closest_marker("browser")]
    if not browser_items:
        return
    missing = chromium_missing()
    if missing is None:
        return
    if IN_CI:
        raise pytest.UsageError(f"CI=true but the browser tests cannot run: {missing}.")
    skip = pytest.mark.skip(reason=f"browser test needs Chromium and Playwright: {missing}")
    for item in browser_items:
        item.add_marker(skip)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"report_{report.when}", report)  # read by new_page to screenshot a failing test's pages
    return report


@pytest.fixture(scope="package")
def chromium():
    from playwright.sync_api import sync_playwright

    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # see the module docstring
    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield browser
        browser.close()
    finally:
        playwright.stop()
        if before is None:
            del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


def sign_in(context, user, base_url: str) -> None:
    """Give the browser context a session of ``user``, as if they had signed in."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": base_url}])


#: Reports every Content-Security-Policy violation of a page on its console (the browser blocks what violates it).
CSP_LISTENER = """document.addEventListener('securitypolicyviolation', (e) => console.error(
  `CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`));"""


def _csp_violation(page, message, errors: list[str]) -> None:
    text = message.text
    if message.type == "error" and ("CSP violation" in text or "Content Security Policy" in text):
        errors.append(f"{page.url}: {text}")


@pytest.fixture
def new_page(chromium, live_server, request, tmp_path):
    """``new_page(viewport=PHONE, user=alice)``: a page in a fresh context on the live server (relative URLs work)."""
    pages, errors = [], []

    def make(*, viewport: dict | None = None, user=None):
        context = chromium.new_context(base_url=live_server.url, viewport=viewport or DESKTOP)
        context.set_default_timeout(10_000)
        if user is not None:
            sign_in(context, user, live_server.url)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
        # Anything the Content-Security-Policy blocks (a script, a style, an image, eval) breaks the page.
        page.add_init_script(CSP_LISTENER)
        page.on("console", lambda message: _csp_violation(page, message, errors))
        pages.append(page)
        return page

    make.errors = errors  # what the pages reported so far (a test of the listener takes its own out)
    yield make
    report = getattr(request.node, "report_call", None)
    failed = report is not None and report.failed
    for number, page in enumerate(pages, start=1):
        if failed:
            shot = tmp_path / f"page-{number}.png"
            page.screenshot(path=shot, full_page=True)
            print(f"screenshot of {page.url}: {shot}")
        page.context.close()
    if errors and not failed:
        pytest.fail("JavaScript errors or CSP violations on the page:\n" + "\n".join(errors), pytrace=False)


@pytest.fixture
def page(new_page):
    """An anonymous visitor's page at desktop size."""
    return new_page()


@pytest.fixture
def organiser_page(new_page, organiser):
    """A desktop page signed in as the ``organiser`` persona."""
    return new_page(user=organiser)


@pytest.fixture
def running_event(organiser):
    """A Deck Masters event of the organiser with six checked-in players and round 1 paired."""
    from tests.factories import PlayerFactory, RegistrationFactory
    from tournaments import services

    event = services.event_create(
        organiser=organiser, name="Duel Night", format="deck-masters", planned_rounds=3,
        date=datetime.date(2026, 12, 4), venue="Battle City Games",
    )  # fmt: skip
    for name in ("Yugi", "Joey", "Kaiba", "Mai", "Bakura", "Marik"):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=name))
    services.round_start(event=event, by=organiser, seed=7)
    return event
