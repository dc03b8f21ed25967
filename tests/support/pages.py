"""Pages for the tests: where a dashboard page is and what a page says.

- :func:`url`: the path of a dashboard page by its URL name.
- :func:`text`: a page's visible text, tags stripped and spaces squeezed.
"""

from __future__ import annotations

import html
import re

from django.urls import reverse


def url(name: str, *args) -> str:
    return reverse(f"dashboard:{name}", args=args)


def text(response) -> str:
    """The page's visible text, tags stripped and spaces squeezed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())
