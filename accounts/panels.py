"""What one player sees of one event: the *panel* of ``/me/``, the event page and the check-in page.

A panel shows the player's registration (registered, on the waiting list and
where, withdrawn, checked in, dropped), the buttons that fit the event's
state (register or join the waiting list, withdraw, check in, drop), their
table in the current round (table, seat, who goes first, opponents and their
deck status, the round's clock with the table's extra time), what they can do about its result
(report it, confirm or dispute a report) and their matches so far.

The buttons shown are hints from the event's state (its windows, the round);
the services decide, and a refusal comes back as an error on the panel.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from accounts import selectors
from accounts.forms import ReportForm
from accounts.selectors import Match, OpenReport, Person, PlayerTable
from floor import selectors as floor_selectors
from live import payloads as live_payloads
from live import selectors as live_selectors
from tournaments import selectors as tournament_selectors
from tournaments import words
from tournaments.models import Event, Player, Registration
from tournaments.selectors import cutline as cutline_selectors
from tournaments.selectors import people as people_selectors
from tournaments.selectors import standings as standings_selectors
from tournaments.selectors.people import player_penalties

#: Where a panel is shown; its forms say so, and the answer goes back there.
PLACES = ("me", "event", "check-in")


@dataclass(frozen=True)
class HistoryRow:
    round_label: str
    table_number: int | None
    opponents: list[Person]
    result: str
    points: int | None


def history_rows(match_list: list[Match], me: int, *, one_vs_one: bool) -> list[HistoryRow]:
    """The player's matches at one event, a row each: a top-cut round named by its stage ("Semi-finals")."""
    rows = []
    for m in match_list:
        if m.bye:
            result = _("Bye")
        elif not m.reported:
            result = pgettext("a match without a result yet", "Playing")
        else:
            result = words.your_outcome(
                me=me, placements=m.placements, games=m.games, intentional_draw=m.intentional_draw
            )
        rows.append(
            HistoryRow(
                round_label=words.round_name(m.round_number, cut=m.cut, tables=m.cut_tables, pods=not one_vs_one),
                table_number=m.table_number,
                opponents=[p for p in m.seats if p.id != me],
                result=result,
                points=m.points,
            )
        )
    return rows


@dataclass
class TableView:
    """The player's table in the current round and what they can do about its result."""

    table: PlayerTable
    me: Person
    #: The recorded result from the player's side ("You won 2–1"), once final.
    result: str
    report: OpenReport | None
    #: The open report, from the player's side, and the table's order as it says.
    report_text: str
    report_order: list[tuple[str, Person]]
    #: The player may confirm or dispute the open report (it is someone else's and they have not answered).
    may_answer: bool
    #: The player may report the result (player reports on, no result, no open report).
    report_form: ReportForm | None
    #: What the player is told instead of a form.
    note: str
    #: The table's clock while its result is not in: the round's, with the table's extra time
    #: (:func:`live.payloads.table_clock`: ``timer``, ``extension``, ``seq``).
    timer: dict | None = None
    #: The table's latest judge call (``floor``): waiting, a judge coming, or resolved (``None``: none yet).
    judge_call: Any = None

    @property
    def summary(self) -> str:
        """The table in a sentence or two, announced when the panel changes without a reload."""
        t = self.table
        if t.table_number is None:
            return _("%(round)s: you have a bye.") % {"round": t.round_label}
        against = ", ".join(o.name for o in t.opponents)
        where = {"round": t.round_label, "table": t.table_number, "seat": t.seat, "against": against}
        said = [
            _("%(round)s, table %(table)s, seat %(seat)s, against %(against)s.") % where
            if against
            else _("%(round)s, table %(table)s, seat %(seat)s.") % where
        ]
        if self.result:
            said.append(_("Result: %(result)s.") % {"result": self.result})
        elif self.report is not None and self.may_answer:
            said.append(
                _("%(player)s reported: %(result)s. Confirm or dispute it.")
                % {"player": self.report.reporter.name, "result": self.report_text}
            )
        elif self.note:
            said.append(self.note)
        elif t.reported:
            said.append(_("Result recorded."))
        if self.judge_call is not None and self.judge_call.live:
            said.append(self.judge_call.get_state_display() + ".")
        return " ".join(said)


@dataclass
class Panel:
    event: Event
    place: str
    player: Player | None
    registration: Registration | None
    signed_in: bool
    waiting_place: int | None = None
    places_taken: int = 0
    self_registration_open: bool = False
    #: Registration is open but not for this player yet: it opens for them then (a priority window).
    opens_at: datetime.datetime | None = None
    #: Registering is applying to the event's lottery (not drawn yet).
    applies: bool = False
    can_register: bool = False
    joins_waiting_list: bool = False
    can_withdraw: bool = False
    can_check_in: bool = False
    can_drop: bool = False
    #: Why the drop button is not offered although the player is playing.
    drop_note: str = ""
    table: TableView | None = None
    history: list[HistoryRow] = field(default_factory=list)
    standing: object | None = None
    #: An error of the last action, shown on the panel (HTTP 422 for htmx).
    error: str = ""
    #: The last action's news, announced on the panel.
    news: str = ""
    #: After an htmx answer the panel takes the focus its button had.
    focus: bool = False
    #: Where check-in stands for this player: "" (nothing to say), or why they can't check in now.
    check_in_note: str = ""
    #: The player's penalties at the event, newest first (rescinded ones too, marked).
    penalties: list = field(default_factory=list)
    #: Where the player stands in an event played in phases (day 1, day 2), once a phase has advanced.
    phase_note: str = ""
    #: The player did not go on to the phase being played: their event is over.
    phase_over: bool = False
    #: The live number the panel is as of while it follows the event's stream (:func:`follows_live`): its page
    #: fetches it again when a round is paired or a report or a result comes at the player's table.  ``None``: it
    #: does not follow.
    live_seq: int | None = None
    #: What the player needs for the top cut, in a sentence (during the Swiss of an event with a cut), or why the
    #: event has no cut line; ``cut_lines``: the event's safe and projected lines in words.
    cut_need: str = ""
    cut_lines: str = ""

    @property
    def level(self) -> int:
        """The panel's heading level: under the section headings of /me/, else right under the page's title."""
        return 3 if self.place == "me" else 2

    @property
    def sublevel(self) -> int:
        return self.level + 1

    @property
    def visible(self) -> bool:
        """Whether the panel has anything to say (the event page leaves an empty one out)."""
        if self.place == "check-in" or self.registration is not None:
            return True
        return self.can_register or self.opens_at is not None or (not self.signed_in and self.self_registration_open)

    @property
    def registered(self) -> bool:
        return self.registration is not None and self.registration.status == Registration.Status.REGISTERED

    @property
    def active(self) -> bool:
        """Registered or waiting: the player has a place or is in line for one."""
        return self.registration is not None and self.registration.status not in (
            Registration.Status.WITHDRAWN, Registration.Status.INVITED
        )  # fmt: skip

    @property
    def invited(self) -> bool:
        """Staff entered the player, who may still accept or decline (the panel asks: accounts/_invitation.html)."""
        return (
            self.registration is not None
            and self.registration.status == Registration.Status.INVITED
            and self.event.status != Event.Status.FINISHED
        )


def follows_live(event: Event, registration: Registration) -> bool:
    """Whether the player's panel follows the event's stream: they play, and play is on or about to start (check-in
    open, or the event's day), so a new round's table or an opponent's report comes without a reload."""
    if registration.status != Registration.Status.REGISTERED or registration.dropped:
        return False
    if event.status == Event.Status.RUNNING:
        return True
    return event.status == Event.Status.REGISTRATION and (event.check_in_open or event.date <= timezone.localdate())


def self_registration_open(event: Event) -> bool:
    """Players may register themselves now: the window is open, its deadline not passed, play not started."""
    return (
        event.status == Event.Status.REGISTRATION
        and event.registration_open
        and (event.registration_deadline is None or timezone.now() <= event.registration_deadline)
    )


def build(
    *,
    event: Event,
    user,
    place: str = "me",
    player: Player | None = None,
    registration: Registration | None = None,
    match_list: list[Match] | None = None,
    standings: dict | None = None,
    report_data: dict | None = None,
    penalties: dict | None = None,
) -> Panel:
    """The panel of ``event`` for ``user``.

    /me/ passes what it has read for all the player's events at once (the player, the registration,
    the matches, the standings and the penalties); other pages let the panel read them.
    """
    signed_in = bool(user and user.is_authenticated)
    if player is None and signed_in:
        player = tournament_selectors.player_of(user)
    if registration is None and player is not None:
        registration = selectors.event_registration(event=event, player=player)
    panel = Panel(event=event, place=place, player=player, registration=registration, signed_in=signed_in)
    panel.self_registration_open = self_registration_open(event)
    if event.capacity is not None and panel.self_registration_open:
        panel.places_taken = selectors.registered_count(event=event)
    withdrawn = registration is None or registration.status == Registration.Status.WITHDRAWN
    if panel.self_registration_open and withdrawn:
        opens = people_selectors.opens_for(event=event, player=player)
        panel.opens_at = opens if opens is not None and timezone.now() < opens else None
    panel.applies = event.takes_applications
    panel.can_register = panel.self_registration_open and withdrawn and panel.opens_at is None
    panel.joins_waiting_list = event.capacity is not None and panel.places_taken >= event.capacity
    if registration is None or withdrawn or registration.status == Registration.Status.INVITED:
        return panel
    assert player is not None  # a registration is read for the player, or given with them

    panel.waiting_place = selectors.waiting_place(registration=registration)
    playing = event.status == Event.Status.RUNNING
    panel.can_withdraw = event.status == Event.Status.REGISTRATION
    registered = registration.status == Registration.Status.REGISTERED and not registration.dropped
    fee_due = event.has_fee and not event.unpaid_check_in and registration.paid_at is None
    panel.can_check_in = (
        registered
        and not registration.checked_in
        and event.check_in_open
        and event.status != Event.Status.FINISHED
        and not fee_due
    )
    panel.check_in_note = _check_in_note(event, registration, panel.waiting_place)
    if match_list is None:
        match_list = selectors.matches(player=player, event_ids=[event.pk]).get(event.pk, [])
    panel.history = history_rows(match_list, player.pk, one_vs_one=event.is_one_vs_one)
    if penalties is None:
        penalties = player_penalties(player=player, event_ids=[event.pk])
    panel.penalties = penalties.get(event.pk, [])
    if event.status != Event.Status.REGISTRATION:
        if standings is None:
            standings = selectors.standings_of(player=player, event_ids=[event.pk])
        standing = standings.get(event.pk)
        panel.standing = standing if standing is not None and standing.matches else None
    if event.advanced_phases and registered:
        panel.phase_note, panel.phase_over = _phase_note(event, registration)
    if playing and registered and not panel.phase_over:
        panel.table = _table_view(event, player, match_list, report_data=report_data)
        waiting_for_result = (
            panel.table is not None and panel.table.table.table_number is not None and not panel.table.table.reported
        )
        panel.can_drop = not waiting_for_result
        if waiting_for_result:
            panel.drop_note = _("You can drop once your table's result is in.")
    if playing and registered and panel.standing is not None:
        _cut_need(panel, event, player)
    if follows_live(event, registration):
        clock = panel.table.timer if panel.table is not None else None
        panel.live_seq = clock["seq"] if clock is not None else live_selectors.last_seq(event_id=event.pk)
    return panel


def _phase_note(event: Event, registration: Registration) -> tuple[str, bool]:
    """What the panel says of the phases (one query, only for an event that has advanced a phase)."""
    plan = standings_selectors.event_plan(event)
    if not plan:
        return "", False
    reached = min(registration.phase, len(plan))
    if reached > event.advanced_phases:
        return _("You went on to %(phase)s.") % {"phase": plan[reached - 1].name}, False
    ended, missed = plan[reached - 1], plan[reached]
    return (
        _("Your event ended with %(phase)s: %(next)s was for %(rule)s. Your record and standing stay.")
        % {"phase": ended.name, "next": missed.name, "rule": words.phase_rule(advance_points=ended.advance_points, advance_top=ended.advance_top)},
        True,
    )


def _cut_need(panel: Panel, event: Event, player: Player) -> None:
    cut = cutline_selectors.event_cut_line(event=event)
    row = cut.row_of(player.pk)
    if cut.state != "swiss" or cut.line is None or row is None:
        panel.cut_need = cut.message if cut.state == "no_cut" else ""
        return
    panel.cut_need = cutline_selectors.need_words(row.need)
    line = cut.line
    lines = [_("Top %(size)s cut") % {"size": cut.cut_size}]
    if line.safe_line is not None:
        lines.append(_("safe line %(points)s points") % {"points": line.safe_line})
    if line.projected_line is not None:
        lines.append(_("projected line %(points)s points") % {"points": line.projected_line})
    panel.cut_lines = " · ".join(lines) + "."


def _check_in_note(event: Event, registration: Registration, waiting_place: int | None) -> str:
    if event.status == Event.Status.FINISHED:
        return _("The event is finished.")
    if registration.status == Registration.Status.WAITLISTED:
        return _("You are number %(place)s on the waiting list: you check in once you have a place.") % {
            "place": waiting_place
        }
    if registration.dropped:
        return _("You have dropped from this event.")
    if registration.checked_in:
        return ""
    if registration.status == Registration.Status.APPLIED:
        return _("You have applied to the lottery: you check in once it gives you a place.")
    if event.has_fee and not event.unpaid_check_in and registration.paid_at is None:
        return _("You check in once the staff have marked your entry fee paid.")
    if not event.check_in_open:
        return _("Check-in is not open: the event's staff open it at the venue.")
    return ""


def _table_view(event: Event, player: Player, match_list: list[Match], *, report_data: dict | None) -> TableView | None:
    table = selectors.player_table(event=event, player=player)
    if table is None:
        return None
    current = next((m for m in match_list if m.round_number == table.round_number), None)
    me = Person(player.pk, player.display_name)
    view = TableView(
        table=table, me=me, result="", report=None, report_text="", report_order=[], may_answer=False,
        report_form=None, note="",
    )  # fmt: skip
    if table.table_number is None:
        view.note = _("You have a bye this round: it counts as a win.")
        return view
    view.judge_call = floor_selectors.table_call(pod_id=table.pod_id)
    seats = sorted([(table.seat, me), *((o.seat, Person(o.player_id, o.name)) for o in table.opponents)])
    people = [person for _, person in seats]
    names = {p.id: p for p in people}
    if table.reported:
        if current is not None:
            view.result = words.your_outcome(
                me=me.id, placements=current.placements, games=current.games, intentional_draw=current.intentional_draw
            )
        return view
    view.timer = live_payloads.table_clock(
        live_selectors.round_clock(event=event, round_number=table.round_number, pod_id=table.pod_id)
    )
    report = selectors.open_report(event=event, round_number=table.round_number, table_number=table.table_number)
    view.report = report
    if report is not None:
        view.report_text = words.your_outcome(
            me=me.id, placements=report.placements, games=report.games, intentional_draw=report.intentional_draw
        )
        view.report_order = [
            (words.ordinal(place), names.get(pid, Person(pid, "?")))
            for pid, place in sorted(report.placements.items(), key=lambda item: (item[1], item[0]))
        ]
        mine = report.reporter.id == me.id
        view.may_answer = report.status == "pending" and not mine and me.id not in report.answers
        if report.status == "disputed":
            view.note = _("The players disagree about this result: a judge will settle it.")
        elif mine or me.id in report.answers:
            view.note = _("Waiting for the other players at the table to confirm.")
        if not (view.may_answer and event.player_reports):
            return view
        # Disputing, the player may say what happened instead: their own report, which the judge sees.
    elif not event.player_reports:
        view.note = _("The event's staff enter the results of this event.")
        return view
    view.report_form = ReportForm(
        report_data, me=me, people=people, games_per_match=event.format_spec.games_per_match,
        cut=bool(current and current.cut),
        auto_id=f"e{event.pk}_%s",
    )  # fmt: skip
    return view
