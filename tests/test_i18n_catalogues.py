"""The translations' catalogues (``locale/<ll>/LC_MESSAGES/django.po`` and ``djangojs.po``) are whole and sound.

For Spanish, Brazilian Portuguese, German and French:

* no entry is fuzzy (a guess gettext leaves out: the page would show English without anyone noticing);
* each translation keeps the placeholders of its English (``%(table)s``, ``%s``, ``{table}``) and its HTML tags,
  so no page fails to format, loses a value or breaks its markup;
* a plural entry has as many forms as the language's ``Plural-Forms`` header says;
* the catalogue holds exactly the words the source marks (``makemessages`` run once per module, its template
  compared: it needs GNU gettext's ``xgettext``, which ``.ci/run`` installs; without it the check skips, saying
  so, except in CI), and every entry is translated.
"""

from __future__ import annotations

import os
import re
import shutil
from collections import Counter
from collections.abc import Collection
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ("es", "pt_BR", "de", "fr")
DOMAINS = ("django", "djangojs")

_PYTHON_FORMAT = re.compile(r"%(?:\(\w+\))?[-#0 +]*\d*(?:\.\d+)?[sdifr%]")
_BRACE_FORMAT = re.compile(r"\{\w*\}")
_HTML_TAG = re.compile(r"</?([a-zA-Z][\w-]*)")


def _catalogue(locale: str, domain: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / locale / "LC_MESSAGES" / f"{domain}.po"))


CATALOGUES = [(locale, domain) for locale in LOCALES for domain in DOMAINS]


def _placeholders(text: str, flags: Collection[str] = ("python-format", "python-brace-format")) -> Counter:
    """What a translation must keep: HTML tag names, and the format placeholders of the kind its entry's
    ``flags`` say it is formatted with (``%%`` aside).  xgettext flags an entry ``python-format`` when its
    English is one; a plain ``%`` elsewhere ("a 33% floor", "% de victoires") is text, not a placeholder."""
    found: Counter = Counter()
    if "python-format" in flags:
        found.update(p for p in _PYTHON_FORMAT.findall(text) if p != "%%")
    if "python-brace-format" in flags:
        found.update(_BRACE_FORMAT.findall(text))
    found.update(f"<{tag.lower()}>" for tag in _HTML_TAG.findall(text))
    return found


def mismatches(entry: polib.POEntry) -> list[str]:
    """How a translated entry's placeholders differ from its English, one line each."""
    problems = []

    def placeholders(text: str) -> Counter:
        return _placeholders(text, entry.flags)

    if entry.msgid_plural:
        english = placeholders(entry.msgid) | placeholders(entry.msgid_plural)
        forms = [text for _index, text in sorted(entry.msgstr_plural.items()) if text]
        for text in forms:
            extra = placeholders(text) - english
            if extra:
                problems.append(f"{entry.msgid!r}: {text!r} adds {sorted(extra)}")
        # The last form (the general plural) says everything the English plural says; a singular form may leave
        # the count out ("one place").
        if forms and placeholders(forms[-1]) != placeholders(entry.msgid_plural):
            problems.append(f"{entry.msgid_plural!r}: {forms[-1]!r} keeps {sorted(placeholders(forms[-1]))}")
    elif entry.msgstr and placeholders(entry.msgstr) != placeholders(entry.msgid):
        problems.append(
            f"{entry.msgid!r}: {entry.msgstr!r} has {sorted(placeholders(entry.msgstr))}, "
            f"not {sorted(placeholders(entry.msgid))}"
        )
    return problems


def _plural_count(catalogue: polib.POFile) -> int:
    found = re.search(r"nplurals\s*=\s*(\d+)", catalogue.metadata.get("Plural-Forms", ""))
    assert found, "the catalogue's header has no Plural-Forms"
    return int(found.group(1))


@pytest.mark.parametrize("locale, domain", CATALOGUES)
def test_no_entry_of_a_catalogue_is_fuzzy(locale, domain):
    catalogue = _catalogue(locale, domain)
    fuzzy = [entry.msgid for entry in catalogue.fuzzy_entries()]
    assert not fuzzy, f"{locale}/{domain}.po: fuzzy entries (check them, then drop the fuzzy flag): {fuzzy}"
    assert not catalogue.metadata_is_fuzzy, f"{locale}/{domain}.po: its header is marked fuzzy"


@pytest.mark.parametrize("locale, domain", CATALOGUES)
def test_every_translation_keeps_the_placeholders_and_tags_of_its_english(locale, domain):
    problems = [problem for entry in _catalogue(locale, domain) for problem in mismatches(entry)]
    assert not problems, f"{locale}/{domain}.po:\n" + "\n".join(problems)


@pytest.mark.parametrize("locale, domain", CATALOGUES)
def test_every_plural_entry_has_the_forms_of_its_language(locale, domain):
    catalogue = _catalogue(locale, domain)
    wanted = _plural_count(catalogue)
    wrong = [
        entry.msgid
        for entry in catalogue
        if entry.msgid_plural and entry.translated() and len(entry.msgstr_plural) != wanted
    ]
    assert not wrong, f"{locale}/{domain}.po: plural entries without {wanted} forms: {wrong}"


# --- the checks catch what they should ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "msgid, msgstr",
    [
        ("Table %(table)s", "Mesa %(mesa)s"),
        ("Round {round}", "Ronda"),
        ("You reported: <strong>%(report)s</strong>", "Informaste: %(report)s"),
        ("%s of %s", "%s"),
    ],
)
def test_the_placeholder_check_finds_a_translation_that_loses_or_renames_one(msgid, msgstr):
    flags = ["python-brace-format" if "{" in msgid else "python-format"]
    assert mismatches(polib.POEntry(msgid=msgid, msgstr=msgstr, flags=flags))


def test_the_placeholder_check_accepts_a_translation_that_moves_them():
    entry = polib.POEntry(
        msgid="%(taken)s of %(places)s places taken", msgstr="%(places)s Plätze, %(taken)s belegt",
        flags=["python-format"],
    )  # fmt: skip
    assert mismatches(entry) == []
    plural = polib.POEntry(
        msgid="%(n)s player", msgid_plural="%(n)s players", msgstr_plural={0: "un jugador", 1: "%(n)s jugadores"},
        flags=["python-format"],
    )  # fmt: skip
    assert mismatches(plural) == []


def test_a_percent_sign_in_plain_text_is_no_placeholder():
    """"a 33% floor" is text, not "% f": a translation may write "% de victorias" (xgettext flags no format)."""
    plain = polib.POEntry(msgid="Magic (OMW% 33% floor)", msgstr="Magic (% de victorias de los rivales, 33 % mínimo)")
    assert mismatches(plain) == []


# --- the catalogues hold what the source marks, every word translated -----------------------------------------


@pytest.fixture(scope="module")
def marked():
    """``{domain: {(context, msgid)}}``: what the source marks, from makemessages' template of each domain."""
    if shutil.which("xgettext") is None:
        missing = "makemessages needs GNU gettext's xgettext (apt install gettext)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true: {missing}")
        pytest.skip(missing)
    from accounts.management.commands.makemessages import Command

    found: dict[str, set[tuple[str | None, str]]] = {}

    class Extract(Command):
        """makemessages, keeping each domain's template rather than writing the catalogues."""

        def write_po_file(self, potfile, locale):
            found[self.domain] = {(e.msgctxt, e.msgid) for e in polib.pofile(potfile) if e.msgid}

    here = os.getcwd()
    os.chdir(ROOT)  # makemessages reads the directory it runs in
    try:
        for domain in DOMAINS:
            Extract().run_from_argv(["manage.py", "makemessages", "-l", "es", "-d", domain, "-v", "0"])
    finally:
        os.chdir(here)
    return found


@pytest.mark.parametrize("locale, domain", CATALOGUES)
def test_a_catalogue_holds_exactly_the_words_the_source_marks(marked, locale, domain):
    held = {(e.msgctxt, e.msgid) for e in _catalogue(locale, domain) if not e.obsolete}
    missing, stale = sorted(marked[domain] - held, key=str), sorted(held - marked[domain], key=str)
    assert not missing and not stale, (
        f"{locale}/{domain}.po is not up to date (run manage.py makemessages -a -d {domain}, then translate):\n"
        f"missing: {missing}\nno longer marked: {stale}"
    )


@pytest.mark.parametrize("locale, domain", CATALOGUES)
def test_every_entry_of_a_catalogue_is_translated(locale, domain):
    catalogue = _catalogue(locale, domain)
    wanted = _plural_count(catalogue)
    untranslated = [e.msgid for e in catalogue if not e.obsolete and not e.fuzzy and not e.translated()]
    partial = [e.msgid for e in catalogue if e.msgid_plural and sum(1 for s in e.msgstr_plural.values() if s) < wanted]
    assert not untranslated and not partial, (
        f"{locale}/{domain}.po: untranslated {untranslated}, plural forms missing {partial}"
    )
