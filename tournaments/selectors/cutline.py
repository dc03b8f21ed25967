"""The cut line of an event: what each active player needs for the top cut, read for the pages and the API.

The bridge to :mod:`tournaments.standings.cutline`: it reads the stored standings once, builds the engine's
input (points and Swiss rounds left of every player who has not dropped) and words the answer.  The engine's
terms and what "guaranteed" assumes are in that module's docstring; the README's "Cut line" section says it for
people.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.models import Event
from tournaments.pairing import topcut
from tournaments.selectors import EventStructure, cut_pod_size, event_attendance, event_standings, event_structure
from tournaments.standings.cutline import CutLine, CutPlayer, PlayerCut, cut_line

#: Simulated finishes behind the projected line.
SIMULATIONS = 100

#: What the caveat under every "you need" says.
CAVEAT = gettext_lazy(
    "Guaranteed means whatever the other results and whatever the tiebreakers, under any pairings; it is "
    "conservative (pairings are unknown, so it may ask for a little more than you turn out to need). "
    "The projected line is a simulation, not a promise."
)


@dataclass(frozen=True)
class CutRow:
    """One active player's line: who, where they stand, and what they need."""

    player_id: int
    name: str
    rank: int
    need: PlayerCut


@dataclass(frozen=True)
class EventCutLine:
    """``state``: ``"swiss"`` (the lines apply), ``"no_cut"``, ``"cut_started"`` or ``"finished"``;
    ``message`` says in words why there is no line when there is none."""

    state: str
    message: str
    #: The cut the lines are for (0 without one).
    cut_size: int
    #: ``"planned"`` (the organiser's), ``"recommended"`` (the attendance table's) or ``"started"``.
    cut_source: str
    line: CutLine | None = None
    rows: list[CutRow] = field(default_factory=list)
    #: Players entered, when the cut followed the recommendation for them (``None``: not counted).
    attendance: int | None = None

    def row_of(self, player_id: int) -> CutRow | None:
        return next((r for r in self.rows if r.player_id == player_id), None)

    @property
    def counts(self) -> list[tuple[str, int]]:
        """How many active players are in, in control, still alive and out (the dashboard's summary)."""
        by_status = Counter(r.need.status for r in self.rows)
        labels = (("in", "In whatever happens"), ("control", "Can lock a place with their own results"),
                  ("alive", "Depend on other results"), ("out", "Out of reach"))  # fmt: skip
        return [(label, by_status[status]) for status, label in labels if self.rows]


_UNREAD = object()


def planned_cut(event: Event, structure: object = _UNREAD) -> tuple[int, str, int | None]:
    """The cut an event is heading for, where that number comes from (the cut under way, the organiser's plan,
    else the recommendation for the players entered: 0 when there is none yet) and, for a recommendation, the
    players entered.  ``structure``: :func:`~tournaments.selectors.event_structure` when the caller has it."""
    if event.top_cut_size:
        return event.top_cut_size, "started", None
    if event.planned_cut_size is not None:
        return event.planned_cut_size, "planned", None
    if structure is _UNREAD:
        structure = event_structure(event=event)
    if isinstance(structure, EventStructure):
        return structure.top_cut, "recommended", structure.players
    return 0, "recommended", None


def max_byes(event: Event) -> int:
    """The most byes one Swiss round can give: one in 1v1, the leftovers of a pod in pods."""
    size = event.table_size
    return 1 if size.is_one_vs_one else size.preferred - 1


def event_cut_line(*, event: Event, simulations: int = SIMULATIONS, structure: object = _UNREAD) -> EventCutLine:
    """The cut line of ``event`` (its state and, during the Swiss of an event with a cut, the lines and every
    active player's needs in standings order).  One query for the standings, two more to count the players when
    the cut follows the recommendation and the caller does not pass ``structure`` (:func:`planned_cut`)."""
    if event.status == Event.Status.FINISHED:
        return EventCutLine(state="finished", message=_("The event is finished."), cut_size=event.top_cut_size,
                            cut_source="started")  # fmt: skip
    if event.top_cut_size:
        return EventCutLine(
            state="cut_started",
            message=_("The top cut has started: the top %(size)s of the Swiss standings play on.")
            % {"size": event.top_cut_size},
            cut_size=event.top_cut_size,
            cut_source="started",
        )
    size, source, attendance = planned_cut(event, structure)
    if not size:
        why = (
            _("The organiser plans no top cut: the Swiss standings are final.")
            if source == "planned"
            else _("No top cut is recommended for the players entered: the Swiss standings are final.")
        )
        return EventCutLine(state="no_cut", message=why, cut_size=0,
                            cut_source=source, attendance=attendance)  # fmt: skip
    rows = [s for s in event_standings(event=event) if not s.dropped]
    players = [
        CutPlayer(player_id=s.player_id, points=s.points, rounds_left=max(0, event.planned_rounds - s.matches))
        for s in rows
    ]
    fmt = event.format_spec
    line = cut_line(
        players,
        cut_size=size,
        scoring=fmt.scoring,
        table_size=event.table_size,
        max_byes=max_byes(event),
        simulations=simulations,
        # A result changes the projection; a reload does not.
        seed=event.results_version,
    )
    if not players:
        message = _("The lines appear once the standings do (a top %(size)s cut, %(source)s).") % {
            "size": size,
            "source": _source_words(source),
        }
    else:
        message = ""
    return EventCutLine(
        state="swiss",
        message=message,
        cut_size=size,
        cut_source=source,
        line=line,
        rows=[CutRow(s.player_id, s.player.display_name, s.rank, line.players[s.player_id]) for s in rows],
        attendance=attendance,
    )


def _source_words(source: str) -> str:
    if source == "planned":
        return _("as planned")
    if source == "recommended":
        return _("as recommended for the attendance")
    return source


def need_words(need: PlayerCut) -> str:
    """One sentence for a player: what guarantees the cut, or that it is still possible, or out of reach."""
    rounds = need.rounds_left
    if need.status == "in":
        return _("You are in the top cut whatever happens.")
    if need.status == "control":
        points = need.guaranteed_with
        more = ngettext("%(points)s more point", "%(points)s more points", points or 0) % {"points": points}
        left = ngettext("in your %(rounds)s round left", "in your %(rounds)s rounds left", rounds) % {"rounds": rounds}
        said = {"more": more, "left": left, "record": need.guaranteed_record}
        if need.guaranteed_record:
            return _("%(more)s %(left)s (a record of %(record)s or better) guarantee you a place.") % said
        return _("%(more)s %(left)s guarantee you a place.") % said
    if need.status == "alive":
        points = need.possible_with
        return ngettext(
            "No result of yours alone guarantees a place: it depends on other tables too. You can still make it "
            "with %(points)s more point or more if other results go your way.",
            "No result of yours alone guarantees a place: it depends on other tables too. You can still make it "
            "with %(points)s more points or more if other results go your way.",
            points or 0,
        ) % {"points": points}
    return _("The top cut is out of reach: enough players are already beyond your best case.")


def cut_rules_words(event: Event) -> dict[str, object]:
    """The structure card's words: placement points, tiebreakers and how the cut is seated."""
    scoring = event.format_spec.scoring
    pod_size = cut_pod_size(event)
    if pod_size is None:
        points = _("A win %(win)s points, a draw %(draw)s, a loss 0, a bye %(bye)s (a win).") % {
            "win": scoring.win_points,
            "draw": scoring.draw_points,
            "bye": scoring.bye_points,
        }
        seating = _(
            "Seeded by the Swiss standings: 1 plays the last seed, 2 the second-to-last, and so on (a top 8: 1v8, "
            "4v5, 2v7, 3v6); the better seed chooses to play or draw. Single elimination, the winners meet "
            "in bracket order."
        )
    else:
        table = scoring.placement_points.get(pod_size, ())
        second = table[1] if len(table) > 1 else 0
        points = _(
            "A pod win %(win)s points, 2nd place %(second)s, a shared first place %(draw)s each, otherwise 0; "
            "a bye %(bye)s."
        ) % {"win": scoring.win_points, "second": second, "draw": scoring.draw_points, "bye": scoring.bye_points}
        seating = _(
            "One final pod of %(size)s seated by seed (seed 1 goes first); a top %(top)s plays %(size)s semi-final "
            "pods filled snake-wise (pod A: seeds 1, %(second)s, %(third)s …) whose winners meet in the final pod."
        ) % {"size": pod_size, "top": pod_size**2, "second": 2 * pod_size, "third": 2 * pod_size + 1}
    if event.is_one_vs_one:
        tiebreakers = event.get_tiebreakers_display()
    else:
        # xgettext:no-python-format
        tiebreakers = _(
            "Opponents' average points, opponents' match-win % (25% floor), opponents' opponents' match-win %"
        )
    return {"points": points, "tiebreakers": tiebreakers, "seating": seating}


@dataclass(frozen=True)
class StructureRow:
    players: str
    swiss_rounds: int
    top_cut: int
    current: bool


def structure_rows(event: Event, players: int) -> tuple[list[StructureRow], str]:
    """The attendance table the event follows, row by row (the row of ``players`` marked), and its source."""
    pod_size = cut_pod_size(event)
    table = topcut.attendance_table(tiebreakers=event.tiebreakers, family=event.format_spec.family)
    rows = []
    source = ""
    for low, high, rec in topcut.attendance_rows(convention=table, pod_size=pod_size):
        source = rec.source
        label = f"{low}+" if high is None else (f"{low}" if low == high else f"{low}–{high}")
        rows.append(
            StructureRow(
                players=label,
                swiss_rounds=rec.swiss_rounds,
                top_cut=rec.top_cut,
                current=low <= players and (high is None or players <= high),
            )
        )
    return rows, source


def structure_card(*, event: Event, cut: EventCutLine) -> dict[str, object]:
    """What the public event page's structure card shows (``public/_event_structure.html``)."""
    attendance = cut.attendance if cut.attendance is not None else event_attendance(event=event).entered
    rows, source = structure_rows(event, attendance)
    return {
        "cut": cut,
        "attendance": attendance,
        "structure_rows": rows,
        "structure_source": source,
        "cut_rules": cut_rules_words(event),
        "caveat": CAVEAT,
    }
