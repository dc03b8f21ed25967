"""Every word a person reads is marked for translation (issue #29, the rule of ``README.md``, "Languages").

**Templates.**  Unmarked is any text outside template code (``{% %}``, ``{{ }}``, comments), outside ``<script>``,
``<style>`` and HTML comments, and outside ``{% blocktranslate %}`` blocks, that holds a letter once entities
(``&middot;``) are dropped; and any value of the attributes ``title``, ``alt``, ``placeholder``, ``aria-label``,
``aria-description`` (and ``value`` of a submit or button input) with a letter outside template code.  Words that
stay as they are in every language (the product's name, "API") are in :data:`ALLOWED`, each with its reason.

**Python.**  The message given to an application error (``ApplicationError`` and its subclasses: ``NotFound``,
``Conflict``, ...) or to a form's ``ValidationError`` is a gettext call (``_("...")``, ``ngettext``, ``pgettext``,
the engines' ``N_``), possibly formatted (``_("...") % {...}``, ``_("...").format(...)``), or a value passed on
(a variable, an attribute): never a string literal, an f-string or a literal formatted in place.

:data:`NOT_YET_MARKED` and :data:`NOT_YET_MARKED_APPS` list what other branches of issue #29 are marking; the lead
empties them when they are merged.  The tests at the bottom prove that each checker fails on an unmarked word.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"

#: Template directories (under templates/) still being marked on other branches.
NOT_YET_MARKED: set[str] = set()

#: Apps whose Python messages are still being marked on another branch.
NOT_YET_MARKED_APPS: set[str] = set()

#: The apps whose messages people read (management commands speak to operators; migrations to nobody).
APPS = ("accounts", "core", "decks", "floor", "games", "leagues", "live", "tournaments")

#: Text that stays the same in every language: {text: why}.
ALLOWED = {
    "Podium": "the product's name",
    "API": "a technical name, the same in every language",
    "CSV": "a file format's name",
    "JSON": "a file format's name",
    "SVG": "a file format's name",
    "QR": "the code's name",
    "PDF": "a file format's name",
}

#: Blocks of a child template whose words fill a machine value of its parent's (a ``data-`` attribute), which the
#: checker can't see from the child: {(template, text): why}.
MACHINE_VALUES = {
    ("live/overlay_feature.html", "feature"): "fills overlay_base.html's data-live-page",
    ("live/overlay_pairings.html", "pairings"): "fills overlay_base.html's data-live-page",
    ("live/overlay_timer.html", "timer"): "fills overlay_base.html's data-live-page",
    ("live/overlay_standings.html", 'data-live-on="snapshot standings.updated round.started"'): "an attribute of "
    "overlay_base.html's root: the live events the overlay listens to",
}

#: The attributes people read (screen readers, tooltips, placeholders).
READ_ATTRIBUTES = {"title", "alt", "placeholder", "aria-label", "aria-description"}

_CODE = "\x00"  # what template code is replaced with: no letter, and a boundary between texts
_LETTER = re.compile(r"[^\W\d_]")
_TEMPLATE_COMMENT = re.compile(r"\{#.*?#\}", re.S)
_COMMENT_BLOCK = re.compile(r"\{%\s*comment\b.*?%\}.*?\{%\s*endcomment\s*%\}", re.S)
_BLOCKTRANSLATE = re.compile(r"\{%\s*blocktrans(?:late)?\b.*?%\}.*?\{%\s*endblocktrans(?:late)?\s*%\}", re.S)
_TEMPLATE_CODE = re.compile(r"\{%.*?%\}|\{\{.*?\}\}", re.S)
_SCRIPT_STYLE = re.compile(r"<(script|style)\b[^>]*>.*?</\1\s*>", re.S | re.I)
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
_TAG = re.compile(r"<(/?)([a-zA-Z][\w-]*)([^>]*)>", re.S)
_ATTRIBUTE = re.compile(r"""([a-zA-Z_:][\w:.-]*)\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+)""")
_ENTITY = re.compile(r"&(?:[a-zA-Z]+|#\d+|#x[0-9a-fA-F]+);")


def _has_letter(text: str) -> bool:
    return bool(_LETTER.search(_ENTITY.sub(" ", text)))


def _allowed(text: str) -> bool:
    """An allowed word, with the punctuation around it ("· Podium")."""
    return re.sub(r"^[\W\d_]+|[\W\d_]+$", "", _ENTITY.sub(" ", text)) in ALLOWED


def unmarked_in_template(source: str) -> list[str]:
    """The unmarked texts of a template's source (see the module's docstring), in order."""
    text = _TEMPLATE_COMMENT.sub(_CODE, source)
    text = _COMMENT_BLOCK.sub(_CODE, text)
    text = _BLOCKTRANSLATE.sub(_CODE, text)
    text = _TEMPLATE_CODE.sub(_CODE, text)
    text = _SCRIPT_STYLE.sub(_CODE, text)
    text = _HTML_COMMENT.sub(_CODE, text)
    found = []
    for tag in _TAG.finditer(text):
        name, attributes = tag.group(2).lower(), dict(
            (key.lower(), value.strip("\"'")) for key, value in _ATTRIBUTE.findall(tag.group(3))
        )
        for key, value in attributes.items():
            read = key in READ_ATTRIBUTES or (
                key == "value" and name == "input" and attributes.get("type", "").lower() in ("submit", "button")
            )
            if read and _has_letter(value) and not _allowed(value):
                found.append(f'{key}="{value.replace(_CODE, "{…}")}"')
    for chunk in re.split(f"{_CODE}|<[^>]*>", text):
        chunk = " ".join(chunk.split())
        if _has_letter(chunk) and not _allowed(chunk):
            found.append(chunk)
    return found


def _templates() -> list[Path]:
    return sorted(p for p in TEMPLATES.rglob("*") if p.is_file() and p.suffix in (".html", ".txt"))


def _pending(path: Path) -> bool:
    return path.relative_to(TEMPLATES).parts[0] in NOT_YET_MARKED


def test_every_template_has_its_words_marked_for_translation():
    unmarked = {
        str(path.relative_to(ROOT)): found
        for path in _templates()
        if not _pending(path)
        and (
            found := [
                text
                for text in unmarked_in_template(path.read_text())
                if (str(path.relative_to(TEMPLATES)), text) not in MACHINE_VALUES
            ]
        )
    }
    assert not unmarked, "Unmarked text in templates (mark it, or allow it in ALLOWED with a reason):\n" + "\n".join(
        f"{name}: {texts}" for name, texts in unmarked.items()
    )


def test_every_template_with_words_to_translate_loads_i18n():
    missing = [
        str(path.relative_to(ROOT))
        for path in _templates()
        if not _pending(path)
        and re.search(r"\{%\s*(translate|trans|blocktranslate|blocktrans)\b", path.read_text())
        and not re.search(r"\{%\s*load\b[^%]*\bi18n\b", path.read_text())
    ]
    assert not missing, f"Templates that translate without {{% load i18n %}}: {missing}"


# --- Python: the messages of application errors and form errors --------------------------------------------------

#: The calls that mark a message.
MARKERS = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext", "pgettext_lazy", "npgettext", "N_"}
#: The errors whose message people read (their subclasses are found in the apps' source).
ERRORS = {"ApplicationError", "NotFound", "Conflict", "NotAuthenticated", "PermissionDenied", "TooLarge"}


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _is_literal_text(node: ast.expr) -> bool:
    """A message written in place: a string, an f-string, or either formatted (``"..." % x``, ``"...".format()``)
    or glued (``"a" + b``).  A gettext call, a variable or an attribute is not."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and _has_letter(node.value)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _is_literal_text(node.left) or (isinstance(node.op, ast.Add) and _is_literal_text(node.right))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return _is_literal_text(node.func.value)
    return False


def _error_classes(trees: list[ast.Module]) -> set[str]:
    """ERRORS and their subclasses defined in the apps."""
    names = set(ERRORS)
    grew = True
    while grew:
        grew = False
        for tree in trees:
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in names:
                    if any(_name(base) in names for base in node.bases):
                        names.add(node.name)
                        grew = True
    return names


def unmarked_in_python(source: str, errors: set[str] = ERRORS) -> list[tuple[int, str]]:
    """``(line, message)`` of each error message in ``source`` that is no gettext call."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or _name(node.func) not in errors | {"ValidationError"}:
            continue
        messages = node.args[:1] + [k.value for k in node.keywords if k.arg in ("message", "detail")]
        found += [(m.lineno, ast.unparse(m)[:80]) for m in messages if _is_literal_text(m)]
    return found


def _app_modules() -> list[Path]:
    return sorted(
        path
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts and "management" not in path.parts
    )


def test_every_error_message_of_the_apps_is_marked_for_translation():
    modules = _app_modules()
    errors = _error_classes([ast.parse(path.read_text()) for path in modules])
    unmarked = {
        str(path.relative_to(ROOT)): found
        for path in modules
        if path.relative_to(ROOT).parts[0] not in NOT_YET_MARKED_APPS
        and (found := unmarked_in_python(path.read_text(), errors))
    }
    assert not unmarked, "Error messages not marked for translation:\n" + "\n".join(
        f"{name}:{line}: {text}" for name, found in unmarked.items() for line, text in found
    )


# --- the rules' sentences: phrases (rules.speech) -----------------------------------------------------------------

#: The kernel and the pure engines whose sentences people read: each message they give a violation, a refused entry
#: or a problem is a phrase (``phrase("...", **values)``, ``phrases(...)``), said in the reader's language.
RULES_SOURCES = ("rules", "decks/parsers", "decks/importers", "decks/resolve.py", "tournaments/roster.py")
#: ``{call: position of its message}`` (or the ``message`` keyword).
RULES_MESSAGES = {"RuleViolation": 2, "Violation": 2, "Problem": 3}
#: Where a file's calls differ: the roster's ``Problem(line, column, message)``.
RULES_MESSAGES_IN = {"tournaments/roster.py": {"Problem": 2}}
#: Files of RULES_SOURCES still being turned into phrases on other branches (the lead empties it when they merge).
NOT_YET_PHRASED: set[str] = {
}


def _is_phrase_or_passed_on(node: ast.expr) -> bool:
    if isinstance(node, ast.Call):
        return _name(node.func) in {"phrase", "phrases", "say"}
    if isinstance(node, ast.IfExp):
        return _is_phrase_or_passed_on(node.body) and _is_phrase_or_passed_on(node.orelse)
    return isinstance(node, (ast.Name, ast.Attribute, ast.Subscript))


def unphrased_in_python(source: str, positions: dict[str, int] = RULES_MESSAGES) -> list[tuple[int, str]]:
    """``(line, message)`` of each message of a violation, refused entry or problem in ``source`` that is no
    phrase (a string, an f-string, text glued or formatted in place)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or (position := positions.get(_name(node.func))) is None:
            continue
        messages = [k.value for k in node.keywords if k.arg == "message"]
        if len(node.args) > position:
            messages.append(node.args[position])
        found += [(m.lineno, ast.unparse(m)[:80]) for m in messages if not _is_phrase_or_passed_on(m)]
    return found


def _rules_modules() -> list[Path]:
    paths: list[Path] = []
    for source in RULES_SOURCES:
        where = ROOT / source
        paths += [where] if where.is_file() else sorted(where.rglob("*.py"))
    return paths


def test_every_sentence_of_the_rules_is_a_phrase():
    unphrased = {
        name: found
        for path in _rules_modules()
        if (name := str(path.relative_to(ROOT))) not in NOT_YET_PHRASED
        and (found := unphrased_in_python(path.read_text(), RULES_MESSAGES_IN.get(name, RULES_MESSAGES)))
    }
    assert not unphrased, "Sentences of the rules that are no phrase (rules.speech):\n" + "\n".join(
        f"{name}:{line}: {text}" for name, found in unphrased.items() for line, text in found
    )


@pytest.mark.parametrize(
    "source, expected",
    [
        ('raise RuleViolation("not_your_turn", SETUP, f"The next turn is player {p}\'s.")', 1),
        ('out.append(Violation("deck_size", "§3", "Too many cards: " + str(n)))', 1),
        ('Problem(code="unknown_card", line=1, text=t, message="No such card.")', 1),
        ('raise RuleViolation("not_your_turn", SETUP, phrase("It is %(player)s\'s turn.", player=player(p)))', 0),
        ('Violation("deck_size", "§3", phrases("%(count)s card", "%(count)s cards", n))', 0),
        ('Problem(code="unknown_card", line=1, text=t, message=message)', 0),
        ('raise RuleViolation(exc.code, exc.rule, exc.message)', 0),
    ],
)
def test_the_rules_checker_finds_sentences_that_are_no_phrase(source, expected):
    assert len(unphrased_in_python(source)) == expected


# --- the checkers catch what they should, and only that -----------------------------------------------------------


@pytest.mark.parametrize(
    "source, expected",
    [
        ("<p>Start round</p>", ["Start round"]),
        ('<button aria-label="Close">×</button>', ['aria-label="Close"']),
        ('<img alt="Logo of {{ event.name }}">', ['alt="Logo of {…}"']),
        ('<input type="submit" value="Send">', ['value="Send"']),
        ("{% if x %}Round {{ n }}{% endif %}", ["Round"]),
        ("{% block title %}Pairings{% endblock %}", ["Pairings"]),
        ("Hello {{ user }},\n\nYour table is ready.", ["Hello", ", Your table is ready."]),
    ],
)
def test_the_template_checker_finds_unmarked_words(source, expected):
    assert unmarked_in_template(source) == expected


@pytest.mark.parametrize(
    "source",
    [
        '{% load i18n %}<p>{% translate "Start round" %}</p>',
        '<button aria-label="{% translate "Close" %}">&times;</button>',
        "{% blocktranslate with n=round.number trimmed %}Start <strong>round</strong> {{ n }}{% endblocktranslate %}",
        "{% blocktranslate count counter=n %}{{ counter }} player{% plural %}{{ counter }} players{% endblocktranslate %}",
        '<a class="brand" href="/">Podium</a> <a href="/api/docs/">API</a>',
        "{# a comment with words #}{% comment %}more words{% endcomment %}<!-- and here -->",
        '<script>const words = "not for people";</script><style>.x::after { content: "x"; }</style>',
        '<input type="hidden" name="place" value="me"> <p>{{ 12 }} &middot; 3 — 4</p>',
        '<p data-state="not_started" class="clock small">{{ timer }}</p>',
    ],
)
def test_the_template_checker_accepts_marked_words_and_what_is_no_words(source):
    assert unmarked_in_template(source) == []


@pytest.mark.parametrize(
    "source",
    [
        'raise ApplicationError("An event needs a name.", field="name")',
        'raise Conflict(f"Round {n} is paired.", code="round_paired")',
        'raise NotFound("Table %s is not in round %s." % (t, r))',
        'raise forms.ValidationError("Choose a place.")',
        'raise ApplicationError(message="Unknown {x}.".format(x=1))',
        'raise StaleVersion("The game moved on.")',
    ],
)
def test_the_python_checker_finds_unmarked_error_messages(source):
    errors = _error_classes([ast.parse("class StaleVersion(Conflict): pass")])
    assert len(unmarked_in_python(source, errors)) == 1


@pytest.mark.parametrize(
    "source",
    [
        'raise ApplicationError(_("An event needs a name."), field="name")',
        'raise Conflict(_("Round %(round)s is paired.") % {"round": n}, code="round_paired")',
        'raise NotFound(ngettext("%(n)s table", "%(n)s tables", n) % {"n": n})',
        'raise forms.ValidationError(gettext_lazy("Choose a place."))',
        'raise ApplicationError(_("Unknown {x}.").format(x=1))',
        "raise ApplicationError(exc.message, code=exc.code)",
        'raise ApplicationError(N_("A rule of the engine."))',
        'raise ValueError("a developer\'s message")',
    ],
)
def test_the_python_checker_accepts_marked_messages_and_messages_passed_on(source):
    assert unmarked_in_python(source) == []
