"""TOM's ``.tdf`` files, read and written: pure Python, no Django.

Play! Pokémon's Tournament Operations Manager (TOM) saves an event as a ``.tdf`` file: XML, UTF-8, in this
shape (elements TOM writes that Podium neither reads nor has are left out)::

    <tournament type="2" stage="5" version="1.80" gametype="TRADING_CARD_GAME" mode="TCG1DAY">
      <data><name/><id/><city/><state/><country/><roundtime/><finalsroundtime/>
            <organizer popid="" name=""/><startdate>MM/DD/YYYY</startdate>...</data>
      <timeelapsed>0</timeelapsed>
      <players>
        <player userid="1234567"><firstname/><lastname/><birthdate>MM/DD/YYYY</birthdate>
          [<dropped><status>1</status><round>N</round></dropped>]
          <creationdate>MM/DD/YYYY HH:MM:SS</creationdate><lastmodifieddate>...</lastmodifieddate></player>
      </players>
      <pods><pod category="8" stage="..."><rounds>
        <round number="1" type="3" stage="4"><timeleft/><pairtime/><starttime/><matches>
          <match outcome="1"><player1 userid=""/><player2 userid=""/><timestamp/><tablenumber>4</tablenumber></match>
          <match outcome="5"><player userid=""/><timestamp/><tablenumber>0</tablenumber></match>
        </matches></round>
      </rounds></pod></pods>
      <standings><pod category="8" type="finished"><player id="1234567" place="1"/></pod>
                 <pod category="8" type="dnf">...</pod></standings>
    </tournament>

Terms
=====

userid
    A player's id in the file: their Play! Pokémon Player ID (Podium's ``Player.external_id``).  Matches and
    standings name players by it.
pod
    TOM's word for an age division (``category``: 0 Juniors, 1 Seniors, 2 Masters, 8 all ages), each with
    its own rounds: not Podium's multiplayer pod.
round ``type``
    3 a Swiss round, 1 a single-elimination (top-cut) round.  Round ``stage``: 4 Swiss, 8 top cut, 5 the
    final.
outcome
    A match's result (:class:`Outcome`).

Where the shape comes from.  The Pokémon Company publishes no specification of the format.  Its shape and
codes here were learned from public readers and notes written against real TOM files (GitHub projects that
import League Challenge and Cup files and cross-check their standings), not from TOM itself: outcome 1
player 1 won, 2 player 2 won, 3 a tie, 5 a bye (a match with one ``<player>`` at table 0), 0 not reported
yet (mid-round saves only); a double loss is read as 10 by one reader and written as 4 by another, so both
are read as one.  Dates are US style, ``MM/DD/YYYY``; TOM masks birthdates to ``02/27/<year>``.

Contract.  :func:`parse` takes the file's bytes and gives a :class:`Tournament` or raises :class:`TdfError`
with the line where the XML parser or the check that refused it knows one.  It refuses a document type
declaration (a DTD, and with it every entity declaration: no entity expansion, no external entity), so a
file never makes the parser read anything but itself.  :func:`write` gives the bytes of a file for a
:class:`Tournament`; ``parse(write(t))`` equals ``t``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET  # noqa: S405 - used only to build and serialise a tree, never to parse
from dataclasses import dataclass, field
from enum import IntEnum
from typing import NoReturn
from xml.parsers import expat


class TdfError(Exception):
    """The file is no TOM file Podium can read: ``message`` says why, ``line`` where (when known)."""

    def __init__(self, message: str, *, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.line = line

    def __str__(self) -> str:
        return f"Line {self.line}: {self.message}" if self.line else self.message


class Outcome(IntEnum):
    """A match's ``outcome`` attribute."""

    UNREPORTED = 0
    PLAYER1_WON = 1
    PLAYER2_WON = 2
    TIE = 3
    BYE = 5
    DOUBLE_LOSS = 10


#: Every value read, and what it means (4: a double loss as some writers write it).
_OUTCOMES: dict[str, Outcome] = {str(o.value): o for o in Outcome} | {"4": Outcome.DOUBLE_LOSS}

#: Round ``type`` values.
SWISS = 3
SINGLE_ELIMINATION = 1
#: Round ``stage`` values TOM writes: a Swiss round, a top-cut round, the final.
STAGE_SWISS = 4
STAGE_TOP_CUT = 8
STAGE_FINAL = 5
#: The ``category`` of a pod with every age division in it.
ALL_AGES = "8"


@dataclass(frozen=True)
class Player:
    userid: str
    first_name: str
    last_name: str
    birthdate: str = ""
    created: str = ""
    modified: str = ""
    #: The last round played before dropping (``None``: did not drop).
    dropped_after_round: int | None = None
    #: Where the player's element starts in the file (0: not read from a file).
    line: int = field(default=0, compare=False)

    @property
    def name(self) -> str:
        """First and last name, with single spaces."""
        return " ".join(f"{self.first_name} {self.last_name}".split())


@dataclass(frozen=True)
class Match:
    outcome: Outcome
    player1: str
    #: ``None`` for a bye.
    player2: str | None
    table: int
    timestamp: str = ""
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Round:
    number: int
    type: int
    stage: int
    matches: tuple[Match, ...]
    #: The TOM pod (age division) the round belongs to.
    category: str = ALL_AGES
    pairtime: str = ""


@dataclass(frozen=True)
class Standing:
    userid: str
    place: int
    #: ``False``: listed under ``dnf`` (did not finish: dropped).
    finished: bool = True
    category: str = ALL_AGES


@dataclass(frozen=True)
class Tournament:
    name: str
    players: tuple[Player, ...]
    rounds: tuple[Round, ...] = ()
    standings: tuple[Standing, ...] = ()
    id: str = ""
    city: str = ""
    start_date: str = ""
    organizer_name: str = ""
    organizer_popid: str = ""
    #: The root's ``stage`` (1 set up, 4 Swiss under way, 5 finished) and ``mode``.
    stage: int = 1
    mode: str = "TCG1DAY"


# --- reading ------------------------------------------------------------------------------------


@dataclass
class _Element:
    tag: str
    attrs: dict[str, str]
    line: int
    children: list[_Element] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(self.parts).strip()

    def first(self, tag: str) -> _Element | None:
        return next((child for child in self.children if child.tag == tag), None)

    def all(self, tag: str) -> list[_Element]:
        return [child for child in self.children if child.tag == tag]

    def under(self, *path: str) -> list[_Element]:
        """The elements at ``path`` below this one (``under("pods", "pod")``), none where a step is missing."""
        found = [self]
        for tag in path:
            found = [child for element in found for child in element.all(tag)]
        return found

    def child_text(self, tag: str) -> str:
        child = self.first(tag)
        return "" if child is None else child.text


def _tree(data: bytes) -> _Element:
    """The file as a tree of elements with their lines, read by expat with no DTD and so no entity allowed."""
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.buffer_text = True
    stack: list[_Element] = []
    roots: list[_Element] = []

    def refuse(*_args: object) -> NoReturn:
        raise TdfError(
            "The file declares a document type (DTD) or entities: a TOM file has none, and Podium reads none.",
            line=parser.CurrentLineNumber,
        )

    def start(tag: str, attrs: dict[str, str]) -> None:
        element = _Element(tag, attrs, parser.CurrentLineNumber)
        (stack[-1].children if stack else roots).append(element)
        stack.append(element)

    def end(_tag: str) -> None:
        stack.pop()

    def text(data: str) -> None:
        if stack:
            stack[-1].parts.append(data)

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.UnparsedEntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = refuse
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise TdfError(f"The file is not well-formed XML ({expat.ErrorString(exc.code)}).", line=exc.lineno) from None
    return roots[0]


def _int(value: str, what: str, line: int) -> int:
    try:
        return int(value.strip())
    except ValueError:
        raise TdfError(f"{what} is {value!r}, not a whole number.", line=line) from None


def parse(data: bytes) -> Tournament:
    """The tournament in a ``.tdf`` file's bytes (:class:`TdfError` when it is none)."""
    root = _tree(data)
    if root.tag != "tournament":
        raise TdfError(f"The file's root element is <{root.tag}>, not <tournament>: it is no TOM file.", line=1)
    meta = root.first("data") or _Element("data", {}, root.line)
    organizer = meta.first("organizer")
    players = tuple(_player(element) for element in root.under("players", "player"))
    known: dict[str, Player] = {}
    for player in players:
        if player.userid in known:
            raise TdfError(
                f"Player ID {player.userid} is listed twice (lines {known[player.userid].line} and {player.line}).",
                line=player.line,
            )
        known[player.userid] = player
    rounds: list[Round] = []
    for pod in root.under("pods", "pod"):
        category = pod.attrs.get("category", ALL_AGES)
        for element in pod.under("rounds", "round"):
            rounds.append(_round(element, category, known))
    standings = []
    for pod in root.under("standings", "pod"):
        finished = pod.attrs.get("type", "finished") != "dnf"
        for element in pod.all("player"):
            userid = element.attrs.get("id", "").strip()
            if userid not in known:
                raise TdfError(
                    f"The standings name player {userid or '(none)'}, who is not a player.", line=element.line
                )
            place = _int(element.attrs.get("place", ""), "A place", element.line)
            standings.append(Standing(userid, place, finished, pod.attrs.get("category", ALL_AGES)))
    return Tournament(
        name=meta.child_text("name"),
        players=players,
        rounds=tuple(rounds),
        standings=tuple(standings),
        id=meta.child_text("id"),
        city=meta.child_text("city"),
        start_date=meta.child_text("startdate"),
        organizer_name="" if organizer is None else organizer.attrs.get("name", ""),
        organizer_popid="" if organizer is None else organizer.attrs.get("popid", ""),
        stage=_int(root.attrs.get("stage", "1") or "1", "The tournament's stage", root.line),
        mode=root.attrs.get("mode", ""),
    )


def _player(element: _Element) -> Player:
    userid = element.attrs.get("userid", "").strip()
    if not userid:
        raise TdfError("A player has no userid.", line=element.line)
    dropped = element.first("dropped")
    after = None
    if dropped is not None:
        after = _int(dropped.child_text("round") or "0", "A drop's round", dropped.line)
    return Player(
        userid=userid,
        first_name=element.child_text("firstname"),
        last_name=element.child_text("lastname"),
        birthdate=element.child_text("birthdate"),
        created=element.child_text("creationdate"),
        modified=element.child_text("lastmodifieddate"),
        dropped_after_round=after,
        line=element.line,
    )


def _round(element: _Element, category: str, known: dict[str, Player]) -> Round:
    number = _int(element.attrs.get("number", ""), "A round's number", element.line)
    matches = []
    for match in element.under("matches", "match"):
        code = match.attrs.get("outcome", "0").strip()
        if code not in _OUTCOMES:
            raise TdfError(f"Round {number}: a match's outcome is {code!r}, which TOM does not write.", line=match.line)
        outcome = _OUTCOMES[code]
        seats = [match.first("player1"), match.first("player2")]
        if outcome == Outcome.BYE or seats[0] is None:
            seats = [match.first("player") or seats[0], None]
        ids = [None if seat is None else seat.attrs.get("userid", "").strip() for seat in seats]
        if not ids[0] or (outcome != Outcome.BYE and not ids[1]):
            raise TdfError(f"Round {number}: a match names no players.", line=match.line)
        for userid in ids:
            if userid is not None and userid not in known:
                raise TdfError(f"Round {number}: a match names player {userid}, who is not a player.", line=match.line)
        table = _int(match.child_text("tablenumber") or "0", f"Round {number}: a table number", match.line)
        matches.append(Match(outcome, ids[0], ids[1], table, match.child_text("timestamp"), match.line))
    return Round(
        number=number,
        type=_int(element.attrs.get("type", str(SWISS)) or str(SWISS), "A round's type", element.line),
        stage=_int(element.attrs.get("stage", str(STAGE_SWISS)) or str(STAGE_SWISS), "A round's stage", element.line),
        matches=tuple(matches),
        category=category,
        pairtime=element.child_text("pairtime"),
    )


# --- writing ------------------------------------------------------------------------------------

#: Characters XML 1.0 cannot hold at all (control characters but tab, line feed and carriage return).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: str) -> str:
    return _NOT_XML.sub("", text)


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, tag, {k: _clean(v) for k, v in attrs.items()})
    if text is not None:
        element.text = _clean(text)
    return element


def write(tournament: Tournament) -> bytes:
    """The ``.tdf`` file of ``tournament``, UTF-8, indented as TOM indents it."""
    root = ET.Element(
        "tournament",
        {"type": "2", "stage": str(tournament.stage), "version": "1.80", "gametype": "TRADING_CARD_GAME",
         "mode": _clean(tournament.mode)},
    )  # fmt: skip
    meta = _sub(root, "data")
    for tag, value in (("name", tournament.name), ("id", tournament.id), ("city", tournament.city)):
        _sub(meta, tag, value)
    for tag, value in (("state", ""), ("country", ""), ("roundtime", "0"), ("finalsroundtime", "0")):
        _sub(meta, tag, value)
    _sub(meta, "organizer", popid=tournament.organizer_popid, name=tournament.organizer_name)
    _sub(meta, "startdate", tournament.start_date)
    _sub(meta, "lessswiss", "false")
    _sub(meta, "autotablenumber", "true")
    _sub(meta, "overflowtablestart", "0")
    _sub(root, "timeelapsed", "0")
    players = _sub(root, "players")
    for player in tournament.players:
        element = _sub(players, "player", userid=player.userid)
        _sub(element, "firstname", player.first_name)
        _sub(element, "lastname", player.last_name)
        _sub(element, "birthdate", player.birthdate)
        if player.dropped_after_round is not None:
            dropped = _sub(element, "dropped")
            _sub(dropped, "status", "1")
            _sub(dropped, "round", str(player.dropped_after_round))
        _sub(element, "creationdate", player.created)
        _sub(element, "lastmodifieddate", player.modified)
    pods = _sub(root, "pods")
    categories = list(dict.fromkeys(r.category for r in tournament.rounds)) or [ALL_AGES]
    for category in categories:
        pod = _sub(pods, "pod", category=category, stage=str(tournament.stage))
        rounds = _sub(pod, "rounds")
        for round_ in (r for r in tournament.rounds if r.category == category):
            element = _sub(rounds, "round", number=str(round_.number), type=str(round_.type), stage=str(round_.stage))
            _sub(element, "timeleft", "0")
            _sub(element, "pairtime", round_.pairtime)
            matches = _sub(element, "matches")
            for match in round_.matches:
                _write_match(matches, match)
    if tournament.standings:
        standings = _sub(root, "standings")
        for category in dict.fromkeys(s.category for s in tournament.standings):
            for finished in (True, False):
                rows = [s for s in tournament.standings if s.category == category and s.finished == finished]
                pod = _sub(standings, "pod", category=category, type="finished" if finished else "dnf")
                for row in rows:
                    _sub(pod, "player", id=row.userid, place=str(row.place))
    ET.indent(root, space="  ")
    return ('<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n").encode()


def _write_match(parent: ET.Element, match: Match) -> None:
    element = _sub(parent, "match", outcome=str(match.outcome.value))
    if match.player2 is None:
        _sub(element, "player", userid=match.player1)
    else:
        _sub(element, "player1", userid=match.player1)
        _sub(element, "player2", userid=match.player2)
    _sub(element, "timestamp", match.timestamp)
    _sub(element, "tablenumber", str(match.table))
