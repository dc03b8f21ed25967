"""A roster file read into entries: pure Python, no Django.

Organisers bring players in with a file: a CSV export of a spreadsheet, or a TOM ``.tdf``
(:mod:`tournaments.tdf`).  This module reads either into plain :class:`Entry` rows and lists every
:class:`Problem` it finds, each with its line; :mod:`tournaments.services.roster` adds what only the
database knows (a player already registered) and registers the players, all or none.

Terms
=====

entry
    One player to register: a name, and optionally their *player ID* (an id from outside Podium, a Pokémon
    Player ID or a Konami ID: ``Player.external_id``), whether they are checked in (``None``: the file does
    not say) and a fixed table.
problem
    What is wrong with one line of the file: its line number (1 is the first line; ``None`` for the file as
    a whole), the column at fault (``""`` for the whole line) and a sentence (a phrase of :mod:`rules.speech`,
    said in the reader's language where it is shown; it opens in lower case, as it follows its line and column).
unreadable
    A file that is no roster at all (:class:`Unreadable`): not UTF-8 text, too large, a spreadsheet's own
    format, XML that is no TOM file.  A file that is a roster with wrong lines is readable: :func:`read`
    gives its entries and its problems.

The CSV shape (:data:`COLUMNS`): a header row naming the columns, in any order and any case, ``name``
required; UTF-8 with or without a byte-order mark; commas, semicolons or tabs between cells (whichever the
header row uses); blank lines skipped; ``checked_in`` is yes/no (also y/n, true/false, 1/0, x or empty).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

from rules.speech import Phrase, phrase, phrases
from tournaments import tdf

#: The largest file read, in bytes, and the most players one file registers.
MAX_BYTES = 2_000_000
MAX_PLAYERS = 500
#: The longest name and player ID the player records hold.
MAX_NAME = 100
MAX_PLAYER_ID = 64

#: The CSV columns, ``name`` required.
COLUMNS = ("name", "player_id", "checked_in", "fixed_table")
_YES = {"yes", "y", "true", "1", "x"}
_NO = {"no", "n", "false", "0", ""}

#: The userid Podium writes in a ``.tdf`` for a player without a player ID (:func:`placeholder_userid`):
#: read back, such a player is entered by name only.
_PLACEHOLDER = re.compile(r"podium-\d+")


def placeholder_userid(player_id: int) -> str:
    """The userid of a player without a player ID in a ``.tdf`` Podium writes."""
    return f"podium-{player_id}"


@dataclass(frozen=True)
class Entry:
    line: int
    name: str
    player_id: str | None = None
    checked_in: bool | None = None
    fixed_table: int | None = None


@dataclass(frozen=True)
class Problem:
    line: int | None
    column: str
    message: str

    def __str__(self) -> str:
        """The problem where it is ("Line 3, name: the name is empty."), one phrase to say in any language."""
        if self.line and self.column:
            return phrase(
                "Line %(line)s, %(column)s: %(problem)s", line=self.line, column=self.column, problem=self.message
            )
        if self.line:
            return phrase("Line %(line)s: %(problem)s", line=self.line, problem=self.message)
        if self.column:
            return phrase("The file, %(column)s: %(problem)s", column=self.column, problem=self.message)
        return phrase("The file: %(problem)s", problem=self.message)


@dataclass(frozen=True)
class Roster:
    entries: tuple[Entry, ...]
    problems: tuple[Problem, ...]
    #: ``"csv"`` or ``"tdf"``.
    kind: str


class Unreadable(Exception):
    """The file is no roster Podium reads (``too_large``: over :data:`MAX_BYTES`)."""

    def __init__(self, message: Phrase, *, line: int | None = None, too_large: bool = False):
        super().__init__(message)
        self.message = message
        self.line = line
        self.too_large = too_large


def read(data: bytes) -> Roster:
    """The roster in a file's bytes: a TOM ``.tdf`` when it is XML, CSV otherwise."""
    if len(data) > MAX_BYTES:
        raise Unreadable(
            phrase("The file is larger than %(megabytes)s MB.", megabytes=MAX_BYTES // 1_000_000), too_large=True
        )
    if data.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")):
        raise Unreadable(
            phrase("This is a spreadsheet's own file (.xlsx, .xls or .ods): save it as CSV (UTF-8) first.")
        )
    if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return _read_tdf(data)
    return _read_csv(data)


def _name(text: str) -> str:
    return " ".join(text.split())


def name_key(name: str) -> str:
    """A name as two rows (or a row and a player) are compared: spaces and case set aside."""
    return _name(name).casefold()


def _check(entries: list[Entry], problems: list[Problem], *, id_column: str) -> list[Entry]:
    """Problems every kind of file shares: names and ids too long, a player twice, too many players."""
    kept: list[Entry] = []
    ids: dict[str, int] = {}
    names: dict[str, int] = {}
    for entry in entries:
        wrong = False
        if len(entry.name) > MAX_NAME:
            problems.append(
                Problem(entry.line, "name", phrase("the name is longer than %(most)s characters.", most=MAX_NAME))
            )
            wrong = True
        if entry.player_id is not None and len(entry.player_id) > MAX_PLAYER_ID:
            problems.append(
                Problem(
                    entry.line,
                    id_column,
                    phrase("the player ID is longer than %(most)s characters.", most=MAX_PLAYER_ID),
                )
            )
            wrong = True
        if entry.player_id is not None:
            if entry.player_id in ids:
                problems.append(
                    Problem(
                        entry.line,
                        id_column,
                        phrase(
                            "player ID %(player_id)s is already on line %(line)s.",
                            player_id=entry.player_id,
                            line=ids[entry.player_id],
                        ),
                    )
                )
                wrong = True
            ids.setdefault(entry.player_id, entry.line)
        elif entry.name:
            key = name_key(entry.name)
            if key in names:
                problems.append(
                    Problem(
                        entry.line,
                        "name",
                        phrase(
                            "%(name)s is already on line %(line)s: give each a player ID to enter two players of the "
                            "same name.",
                            name=entry.name,
                            line=names[key],
                        ),
                    )
                )
                wrong = True
            names.setdefault(key, entry.line)
        if not wrong:
            kept.append(entry)
    if len(entries) > MAX_PLAYERS:
        problems.append(
            Problem(
                None,
                "",
                phrases(
                    "the file lists %(count)s player: one file registers %(most)s at most.",
                    "the file lists %(count)s players: one file registers %(most)s at most.",
                    len(entries),
                    most=MAX_PLAYERS,
                ),
            )
        )
    if not entries and not problems:
        problems.append(Problem(None, "", phrase("the file lists no players.")))
    return kept


# --- CSV ----------------------------------------------------------------------------------------


def _text(data: bytes) -> str:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise Unreadable(
            phrase('The file is not UTF-8 text: save it as "CSV UTF-8" (or export it as UTF-8) and try again.'),
            line=line,
        ) from None
    if "\x00" in text:
        raise Unreadable(phrase("The file is not a text file (it holds NUL characters): save it as CSV."))
    return text


def _delimiter(header: str) -> str:
    counts = {sep: header.count(sep) for sep in (",", ";", "\t")}
    best = max(counts, key=lambda sep: counts[sep])
    return best if counts[best] else ","


def _read_csv(data: bytes) -> Roster:
    text = _text(data)
    header = next((line for line in io.StringIO(text, newline="") if line.strip()), None)
    if header is None:
        raise Unreadable(phrase("The file is empty."))
    delimiter = _delimiter(header)
    problems: list[Problem] = []
    entries: list[Entry] = []
    columns: list[str] | None = None
    # csv reads a quoted cell over several lines: the reader's line_num is where each row ends.
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    first = 0
    try:
        for row in reader:
            line, first = first + 1, reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if columns is None:
                columns = _header(row, line, problems)
                if columns is None:
                    return Roster((), tuple(problems), "csv")
                continue
            entry = _row(row, columns, line, problems)
            if entry is not None:
                entries.append(entry)
    except csv.Error as exc:
        problems.append(Problem(reader.line_num, "", phrase("the line is not valid CSV (%(error)s).", error=str(exc))))
    kept = _check(entries, problems, id_column="player_id")
    return Roster(tuple(kept), tuple(sorted(problems, key=order)), "csv")


def order(problem: Problem) -> tuple[int, str]:
    """Problems in the file's order, the file as a whole first."""
    return (problem.line or 0, problem.column)


def _header(row: list[str], line: int, problems: list[Problem]) -> list[str] | None:
    columns = [cell.strip().lower().replace(" ", "_").replace("-", "_") for cell in row]
    wrong = False
    for column, cell in zip(columns, row, strict=True):
        if column not in COLUMNS:
            # Translators: the column of a roster file's header row that has no name.
            column_named = cell.strip() or phrase("(empty)")
            problems.append(
                Problem(
                    line,
                    column_named,
                    phrase("unknown column: the columns are %(columns)s.", columns=", ".join(COLUMNS)),
                )
            )
            wrong = True
        elif columns.count(column) > 1:
            problems.append(Problem(line, column, phrase("the column is named twice.")))
            wrong = True
    if "name" not in columns:
        problems.append(
            Problem(line, "name", phrase("the header row has no name column (the first row names the columns)."))
        )
        wrong = True
    return None if wrong else columns


def _row(row: list[str], columns: list[str], line: int, problems: list[Problem]) -> Entry | None:
    if len(row) > len(columns):
        problems.append(
            Problem(
                line,
                "",
                phrases(
                    "the line has %(count)s cell for %(columns)s columns.",
                    "the line has %(count)s cells for %(columns)s columns.",
                    len(row),
                    columns=len(columns),
                ),
            )
        )
        return None
    cells = {column: cell.strip() for column, cell in zip(columns, row, strict=False)}
    wrong = False
    name = _name(cells.get("name", ""))
    if not name:
        problems.append(Problem(line, "name", phrase("the name is empty.")))
        wrong = True
    checked_in = None
    if cells.get("checked_in", ""):
        value = cells["checked_in"].lower()
        if value in _YES:
            checked_in = True
        elif value in _NO:
            checked_in = False
        else:
            # Translators: yes and no are the values the file holds: keep them in English.
            not_yes_or_no = phrase("'%(value)s' is not yes or no.", value=cells["checked_in"])
            problems.append(Problem(line, "checked_in", not_yes_or_no))
            wrong = True
    fixed_table = None
    if cells.get("fixed_table", ""):
        value = cells["fixed_table"]
        if value.isdigit() and int(value) >= 1:
            fixed_table = int(value)
        else:
            problems.append(
                Problem(line, "fixed_table", phrase("'%(value)s' is not a table number (1 or more).", value=value))
            )
            wrong = True
    if wrong:
        return None
    return Entry(line, name, cells.get("player_id") or None, checked_in, fixed_table)


# --- TOM .tdf -----------------------------------------------------------------------------------


def _read_tdf(data: bytes) -> Roster:
    try:
        tournament = tdf.parse(data)
    except tdf.TdfError as exc:
        raise Unreadable(
            phrase("The file is XML but no TOM file Podium reads: %(problem)s", problem=exc.message), line=exc.line
        ) from None
    problems: list[Problem] = []
    entries = []
    for player in tournament.players:
        name = player.name
        if not name:
            problems.append(Problem(player.line, "firstname", phrase("the player has no name.")))
            continue
        player_id = None if _PLACEHOLDER.fullmatch(player.userid) else player.userid
        entries.append(Entry(player.line, name, player_id))
    kept = _check(entries, problems, id_column="userid")
    return Roster(tuple(kept), tuple(sorted(problems, key=order)), "tdf")
