"""What the browser tests check on a page: axe-core's serious and critical findings, and sideways overflow.

``axe_check(page)`` runs axe-core (shipped by the pinned ``axe-playwright-python``)
on the page as it is now and fails the test on any violation whose impact is
serious or critical, naming for each the rule, its impact, the elements and
how to fix it.  Moderate and minor findings are left to review.
``assert_fits(page)`` fails when the page is wider than the viewport, naming
the elements that stick out (tables that scroll inside their own box don't).
"""

from __future__ import annotations

import pytest

FAILING_IMPACTS = ("serious", "critical")

_axe = None


def axe_violations(page, *, context=None) -> list[dict]:
    """axe-core's violations on ``page`` (optionally within the CSS selector or axe context ``context``)."""
    global _axe
    if _axe is None:
        from axe_playwright_python.sync_playwright import Axe

        _axe = Axe()
    return _axe.run(page, context=context, options={"resultTypes": ["violations"]}).response["violations"]


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']} [{v['helpUrl']}]")
        for node in v["nodes"][:5]:
            summary = " ".join(node.get("failureSummary", "").split())
            lines.append(f"    at {' '.join(node['target'])}: {summary}")
        if len(v["nodes"]) > 5:
            lines.append(f"    ... and {len(v['nodes']) - 5} more")
    return "\n".join(lines)


def axe_check(page, *, context=None) -> None:
    """Fail on serious or critical accessibility violations of the page as shown now."""
    failing = [v for v in axe_violations(page, context=context) if v["impact"] in FAILING_IMPACTS]
    if failing:
        pytest.fail(f"axe-core found accessibility violations on {page.url}:\n{describe(failing)}", pytrace=False)


_STICKING_OUT = """() => {
  const width = document.documentElement.clientWidth, found = [];
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 0.5) continue;
    // Inside a box that scrolls sideways is fine, unless positioned out of it (absolute, fixed).
    let scroller = el.parentElement;
    while (scroller && !['auto', 'scroll'].includes(getComputedStyle(scroller).overflowX)) scroller = scroller.parentElement;
    const escapes = ['absolute', 'fixed'].includes(getComputedStyle(el).position);
    if (!scroller || escapes) found.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : ''} (right edge ${Math.round(box.right)} px)`);
  }
  return found.slice(0, 8);
}"""


def assert_fits(page) -> None:
    """The page doesn't scroll sideways: nothing is wider than the viewport."""
    scroll_width, inner_width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    if scroll_width > inner_width:
        culprits = "\n".join(f"    {c}" for c in page.evaluate(_STICKING_OUT))
        pytest.fail(
            f"{page.url} is {scroll_width} px wide in a {inner_width} px viewport; sticking out:\n{culprits}",
            pytrace=False,
        )


def wait_for_htmx(page) -> None:
    """After a full page load: wait until htmx has processed the page, so a key pressed at once goes through it.

    (On a busy machine the first keystrokes can otherwise beat htmx and post the plain form.)
    """
    page.wait_for_load_state("load")
    page.wait_for_function("() => window.htmx !== undefined && document.readyState === 'complete'")
