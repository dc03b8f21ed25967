"""The translations' catalogues: ``locale/<ll>/LC_MESSAGES/*.po`` (committed) compiled to the ``.mo`` files Django
reads (not committed), by polib, so no system gettext is needed to run Podium.

``python -m core.catalogues`` (run by ``bin/setup``, and by the test suite before it starts) compiles a catalogue
only when its ``.mo`` is missing or older than its ``.po``: nothing changed, nothing done.  A ``.mo`` is written
beside the ``.po`` under another name and then renamed, so a reader (or another process compiling at the same time)
never sees half a file.  This module imports no Django (it runs before the settings exist).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def stale_catalogues(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """The ``.po`` files whose ``.mo`` is missing or older than them."""
    stale = []
    for po in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            stale.append(po)
    return stale


def compile_catalogue(po: Path) -> Path:
    """Compile one ``.po`` to the ``.mo`` beside it (fuzzy entries left out, as msgfmt does); returns the ``.mo``."""
    import polib

    mo = po.with_suffix(".mo")
    handle, temporary = tempfile.mkstemp(dir=po.parent, prefix=".", suffix=".mo")
    os.close(handle)
    try:
        polib.pofile(str(po)).save_as_mofile(temporary)
        os.replace(temporary, mo)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return mo


def compile_stale(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Compile the catalogues that changed; returns the ``.po`` files compiled."""
    stale = stale_catalogues(locale_dir)
    for po in stale:
        compile_catalogue(po)
    return stale


if __name__ == "__main__":
    compiled = compile_stale()
    if compiled:
        print(f"Compiled {len(compiled)} translation catalogue(s) in locale/")
    sys.exit(0)
