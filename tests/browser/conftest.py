"""A real browser on the real pages: Debian's chromium driven by Playwright for Python.

The app is served over real HTTP by the suite's `web` fixture (tests/conftest.py). One browser
serves the whole session; each test gets a fresh context, and any error a page logs fails the
test. Screenshots go to the git-ignored `.screenshots/` for people to look at; the tests assert
on the DOM, never on pixels.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from bench.local import CHROMIUM, CHROMIUM_FLAGS
from tests.conftest import ROOT

SHOTS = ROOT / ".screenshots"


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.fail("chromium is not installed: run `make test`, which installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def context(browser, request):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    context.set_default_timeout(10_000)
    errors: list[str] = []
    context.on("weberror", lambda e: errors.append(f"{e.page and e.page.url}: {e.error}"))
    context.on("console", lambda m: _logged(m, errors))
    yield context
    for number, page in enumerate(context.pages):
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=SHOTS / f"{request.node.name}-{number}.png", full_page=True)
    context.close()
    expected = getattr(context, "expected_errors", ())
    assert [e for e in errors if not any(x in e for x in expected)] == [], errors


def _logged(message, errors: list[str]) -> None:
    # A refused request (a rejected move, a replay that cannot be rebuilt) is shown on the page;
    # chromium logs every 4xx answer too, which is no error of the page.
    if message.type == "error" and "status of 4" not in message.text:
        errors.append(message.text)


def ready(page, at=None):
    """Wait until the viewer has drawn (the step `at`, when given)."""
    until(page, "window.tablelog && window.tablelog.ready")
    if at is not None:
        until(page, f"document.getElementById('table').dataset.at === '{at}'")
    return page


def until(page, expression: str, timeout: float = 10_000) -> None:
    """Wait until `expression` holds in `page`, asking every 50 ms. Playwright's own
    `wait_for_function` compiles its expression in the page with `new Function`, which the
    pages' Content-Security-Policy forbids as it forbids any eval; `page.evaluate` is the
    browser's own, which no page's policy governs."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"not so within {timeout:g} ms: {expression}")
        page.wait_for_timeout(50)
