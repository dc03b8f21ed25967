"""The output shapes several modules of the API answer with (players, events, rounds, tables, reports,
registrations), and who reads them.

Privacy: a player's id from outside Podium (``external_id``: a Pokémon Player
ID, a Konami ID) is shown to the player themselves and to the event's staff who
manage its registrations (site staff everywhere); anyone else reads ``null``.
So are a registration's stream consent (``stream_opt_out``) and entry fee (``paid``, ``paid_at``).
Serializers learn who is asking from their context (:func:`serializer_context`).
"""

from __future__ import annotations

import datetime
from typing import Any

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request

from core.api import FormatField, id_field
from core.language import LANGUAGE_CODES
from tournaments import policy, selectors
from tournaments.models import Event, Pod, Registration, ResultReport, Round
from tournaments.policy import Action
from tournaments.selectors import people as people_selectors
from tournaments.selectors.people import pod_open_report


def serializer_context(request: Request, event: Event | None = None, **extra: Any) -> dict[str, Any]:
    """Serializer context: who is reading, and whether they see every player's private fields.

    At an event, staff who manage its registrations see them; elsewhere only
    site staff do.  A player always sees their own.
    """
    user = request.user
    private = (
        policy.manages_every_event(user) if event is None else policy.can(user, Action.MANAGE_REGISTRATIONS, event)
    )
    return {"viewer": user, "private": private, **extra}


@extend_schema_serializer(component_name="Player")
class PlayerOutput(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()
    external_id = serializers.SerializerMethodField(
        help_text="An id from outside Podium (Pokémon Player ID, Konami ID): shown to the player and to the staff "
        "who manage the event's registrations, null for everyone else."
    )

    def get_external_id(self, player) -> str | None:
        if self.context.get("private") or policy.is_player(self.context.get("viewer"), player):
            return player.external_id
        return None


@extend_schema_serializer(component_name="HouseRule")
class HouseRuleOutput(serializers.Serializer):
    option = serializers.CharField()
    # DRF takes fields out of the class; the stubs see Field's attribute overridden (djangorestframework-stubs#158).
    label = serializers.CharField()  # type: ignore[assignment]
    value = serializers.JSONField()
    description = serializers.CharField()
    rule = serializers.CharField(help_text="The rulebook section the house rule departs from.")


@extend_schema_serializer(component_name="Event")
class EventOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    format = FormatField()
    status = serializers.ChoiceField(choices=Event.Status.choices)
    planned_rounds = serializers.IntegerField()
    date = serializers.DateField()
    venue = serializers.CharField()
    time_zone = serializers.CharField(help_text="Where the event is held (an IANA name): its pages show times in it.")
    paper = serializers.ChoiceField(choices=Event.Paper.values, help_text="The paper its printouts are laid out for.")
    language = serializers.ChoiceField(
        choices=LANGUAGE_CODES, allow_blank=True,
        help_text="The default language of its public pages and venue display; blank: the visitor's browser's.",
    )
    organiser = serializers.CharField(source="organiser.username")
    tiebreakers = serializers.ChoiceField(choices=Event.Tiebreakers.values)
    players_per_table = serializers.IntegerField(allow_null=True)
    pod_leftovers = serializers.ChoiceField(choices=Event.Leftovers.values)
    top_cut_size = serializers.IntegerField()
    planned_cut_size = serializers.IntegerField(
        allow_null=True, help_text="The top cut planned before it starts (0: none); null: the recommendation."
    )
    standings_current = serializers.BooleanField()
    registration_open = serializers.BooleanField(help_text="Players register themselves (until the deadline).")
    registration_deadline = serializers.DateTimeField(allow_null=True)
    capacity = serializers.IntegerField(
        allow_null=True, help_text="At most this many registered players; more join the waiting list. null: no limit."
    )
    lottery = serializers.BooleanField(
        help_text="Places by lottery: until the draw, players apply (status applied); the draw fills the capacity "
        "and puts the others on the waiting list in drawn order."
    )
    lottery_draw_at = serializers.DateTimeField(allow_null=True, help_text="When the lottery draws itself; null: "
                                                "when the organiser draws it.")  # fmt: skip
    lottery_drawn_at = serializers.DateTimeField(allow_null=True, help_text="When it was drawn; null: not yet.")
    lottery_seed = serializers.IntegerField(
        allow_null=True, help_text="The draw's seed: the same applicants and seed give the same draw."
    )
    registration_opens_at = serializers.DateTimeField(
        allow_null=True, help_text="Self-registration opens to everyone at this time; null: as soon as it is open."
    )
    priority_opens_at = serializers.DateTimeField(
        allow_null=True, help_text="Priority players (league points, earned invites) register from this time on."
    )
    priority_season = serializers.IntegerField(
        source="priority_season_id", allow_null=True, help_text="Priority by league points: the season's id."
    )
    priority_min_points = serializers.IntegerField(
        allow_null=True, help_text="Priority by league points: the points in that season it takes."
    )
    entry_fee = serializers.DecimalField(
        max_digits=8, decimal_places=2, allow_null=True, help_text="The entry fee, paid at the organiser's checkout "
        "(Podium takes no payment); null: free.",
    )  # fmt: skip
    fee_currency = serializers.CharField(help_text="The fee's currency (ISO 4217: EUR, USD).")
    checkout_url = serializers.CharField(help_text="The organiser's own checkout page, where players pay the fee.")
    unpaid_check_in = serializers.BooleanField(help_text="Players who have not paid the fee may check in.")
    check_in_open = serializers.BooleanField(help_text="Players check themselves in.")
    player_reports = serializers.BooleanField(
        help_text="Players report their table's result and the other players confirm it; staff results are final."
    )
    casters_see_decklists = serializers.BooleanField(help_text="Casters see decklists before they are published.")
    stage_pairings = serializers.BooleanField(
        help_text="Each paired round stays with the staff until published (players, streams and overlays see the "
        "round before it meanwhile)."
    )
    magic_floor = serializers.ChoiceField(
        choices=Event.Floor.values, help_text="The Magic tiebreakers' floor: 0.33, or exactly 1/3."
    )
    options = serializers.SerializerMethodField(
        help_text="Every option of the format with the value this event plays by (the rulebook's default unless "
        "the organiser chose a variant or a house rule); the format's options are listed at /api/v1/formats/."
    )
    house_rules = serializers.SerializerMethodField(
        help_text="The options this event sets to a house rule: where it departs from the rulebook's text."
    )

    def get_options(self, event) -> dict[str, Any]:
        return event.format_spec.effective_options(event.options)

    @extend_schema_field(HouseRuleOutput(many=True))
    def get_house_rules(self, event) -> list[dict[str, Any]]:
        return [
            {"option": o.name, "label": o.label, "value": value, "description": o.describe(value), "rule": o.rule}
            for o, value in event.house_rules
        ]


@extend_schema_serializer(component_name="Seat")
class SeatOutput(serializers.Serializer):
    seat = serializers.IntegerField(source="seat_order")
    player = PlayerOutput()
    placement = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True)
    games_won = serializers.IntegerField(allow_null=True, help_text="1v1 game score: games won (null: not given).")
    games_lost = serializers.IntegerField(allow_null=True)
    games_drawn = serializers.IntegerField(allow_null=True)
    points_before = serializers.IntegerField(allow_null=True, help_text="Match points when the round was paired.")
    rank_before = serializers.IntegerField(allow_null=True, help_text="Standing when the round was paired.")
    cut_seed = serializers.IntegerField(allow_null=True, help_text="Top-cut seed; null in Swiss rounds.")
    reasons = serializers.ListField(child=serializers.CharField(), help_text="The pairing's reason codes.")
    why = serializers.SerializerMethodField(help_text="The reasons in sentences.")

    def get_why(self, seat) -> list[str]:
        return self.context.get("why", {}).get(seat.player_id, [])


#: The most games of one kind a 1v1 game score may give (the services check the match's own limits).
MAX_GAMES = 99


@extend_schema_serializer(component_name="Placement")
class PlacementInput(serializers.Serializer):
    player = id_field()
    placement = serializers.IntegerField(min_value=1, max_value=8)


@extend_schema_serializer(component_name="GameScore")
class GameScoreSerializer(serializers.Serializer):
    """One player's games in a 1v1 match: 2-1 is won 2, lost 1 (and 1-2 for the opponent)."""

    player = id_field()
    won = serializers.IntegerField(min_value=0, max_value=MAX_GAMES)
    lost = serializers.IntegerField(min_value=0, max_value=MAX_GAMES)
    drawn = serializers.IntegerField(min_value=0, max_value=MAX_GAMES)


def _placement_list(placements: dict | None) -> list[dict]:
    """``{"<player id>": placement}`` as stored, as the API's list (winners first)."""
    items = sorted((placements or {}).items(), key=lambda item: (item[1], int(item[0])))
    return [{"player": int(player), "placement": placement} for player, placement in items]


def _game_list(games: dict | None) -> list[dict] | None:
    """``{"<player id>": [won, lost, drawn]}`` as stored, as the API's list."""
    if games is None:
        return None
    items = sorted(games.items(), key=lambda item: int(item[0]))
    return [{"player": int(p), "won": s[0], "lost": s[1], "drawn": s[2]} for p, s in items]


@extend_schema_serializer(component_name="TableReportResponse")
class ReportResponseOutput(serializers.Serializer):
    player = PlayerOutput()
    agrees = serializers.BooleanField()
    placements = PlacementInput(many=True, allow_null=True, help_text="What they say happened instead, or null.")
    games = GameScoreSerializer(many=True, allow_null=True)
    answered_at = serializers.DateTimeField()


#: The states of a report still open (the others, confirmed and settled, are in the table's result).
OPEN_REPORT_STATUSES = [ResultReport.Status.PENDING.value, ResultReport.Status.DISPUTED.value]


@extend_schema_serializer(component_name="TableReport")
class ReportOutput(serializers.Serializer):
    """A player's report of the table's result, waiting for the other players (pending) or disputed."""

    status = serializers.ChoiceField(
        choices=OPEN_REPORT_STATUSES,
        help_text="pending: waiting for the other players to confirm; disputed: staff settle the table.",
    )
    reported_by = PlayerOutput()
    reported_at = serializers.DateTimeField()
    placements = PlacementInput(many=True)
    games = GameScoreSerializer(many=True, allow_null=True)
    intentional_draw = serializers.BooleanField()
    responses = ReportResponseOutput(many=True, help_text="The other players' answers so far.")


def report_data(report: ResultReport) -> dict:
    return {
        "status": report.status,
        "reported_by": report.player,
        "reported_at": report.created_at,
        "placements": _placement_list(report.placements),
        "games": _game_list(report.games),
        "intentional_draw": report.intentional_draw,
        "responses": [
            {
                "player": response.player,
                "agrees": response.agrees,
                "placements": _placement_list(response.placements) if response.placements else None,
                "games": _game_list(response.games),
                "answered_at": response.created_at,
            }
            for response in people_selectors.report_responses(report=report)
        ],
    }


@extend_schema_serializer(component_name="Table")
class TableOutput(serializers.Serializer):
    table = serializers.IntegerField(source="table_number", allow_null=True)
    bye = serializers.BooleanField(source="is_bye")
    reported = serializers.SerializerMethodField(help_text="The table has its result (final).")
    intentional_draw = serializers.SerializerMethodField(help_text="The result is an intentional draw.")
    corrected = serializers.SerializerMethodField(help_text="The result was corrected after it was recorded.")
    seats = serializers.SerializerMethodField()
    report = serializers.SerializerMethodField(
        help_text="The players' report waiting for confirmation or disputed; null when there is none."
    )

    def get_reported(self, pod) -> bool:
        return hasattr(pod, "result")

    def get_intentional_draw(self, pod) -> bool:
        result = getattr(pod, "result", None)
        return bool(result and result.intentional_draw)

    def get_corrected(self, pod) -> bool:
        result = getattr(pod, "result", None)
        return bool(result and result.corrected_at)

    @extend_schema_field(SeatOutput(many=True))
    def get_seats(self, pod) -> list[dict]:
        # many=True makes a ListSerializer, whose data is a list; the stubs type the answer as the Serializer's.
        return SeatOutput(selectors.pod_seats(pod=pod), many=True, context=self.context).data  # type: ignore[return-value]

    @extend_schema_field(ReportOutput(allow_null=True))
    def get_report(self, pod) -> dict | None:
        reports = self.context.get("reports")  # the round's open reports, loaded once for all its tables
        report = _open_report(pod) if reports is None else reports.get(pod.pk)
        return None if report is None else ReportOutput(report_data(report), context=self.context).data


def _open_report(pod: Pod) -> ResultReport | None:
    """The table's open report; a table with its result has none (a result settles or confirms it)."""
    return None if hasattr(pod, "result") else pod_open_report(pod_id=pod.pk)


@extend_schema_serializer(component_name="Round")
class RoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    stage = serializers.ChoiceField(choices=Round.Stage.choices)
    # DRF takes fields out of the class; the stubs see Field's attribute overridden (djangorestframework-stubs#158).
    label = serializers.SerializerMethodField()  # type: ignore[assignment]
    seed = serializers.CharField()  # a 62-bit integer: a string so JavaScript clients keep every digit
    objective = serializers.CharField(allow_null=True, help_text="The pairing engine's objective value.")
    rematches = serializers.IntegerField()
    edited = serializers.BooleanField(help_text="Changed by hand (a swap) after pairing.")
    published = serializers.BooleanField(
        help_text="Players see it (false: a staged round, shown to the event's staff only until they publish it)."
    )
    completed = serializers.SerializerMethodField()
    tables = serializers.SerializerMethodField()

    def get_completed(self, round_) -> bool:
        return round_.completed_at is not None

    def get_label(self, round_) -> str:
        return selectors.round_label(round_=round_)

    @extend_schema_field(TableOutput(many=True))
    def get_tables(self, round_) -> list[dict]:
        # The views load every round's tables at once (selectors.rounds_load_tables); a round they did not is
        # loaded here on its own.
        if not hasattr(round_, selectors.TABLES_ATTR):
            selectors.rounds_load_tables(rounds=[round_])
        pods = getattr(round_, selectors.TABLES_ATTR)
        context = {
            **self.context,
            "why": selectors.seat_explanations(round_=round_, pods=pods),
            "reports": getattr(round_, selectors.REPORTS_ATTR),
        }
        # many=True makes a ListSerializer, whose data is a list; the stubs type the answer as the Serializer's.
        return TableOutput(pods, many=True, context=context).data  # type: ignore[return-value]


@extend_schema_serializer(component_name="EntryWarning")
class EntryWarningOutput(serializers.Serializer):
    code = serializers.ChoiceField(choices=["overlapping_event"])
    message = serializers.CharField()
    event = serializers.IntegerField(help_text="The other event's id.")


@extend_schema_serializer(component_name="Registration")
class RegistrationOutput(serializers.Serializer):
    id = serializers.IntegerField()
    player = PlayerOutput()
    status = serializers.ChoiceField(
        choices=Registration.Status.choices,
        help_text="registered: in the event; waitlisted: waiting for a place (promoted in order); withdrawn: left "
        "before play (or an invitation declined or withdrawn); invited: staff entered a player record linked to an "
        "account, and its player has not accepted (accept/) or declined (decline/) yet: not in the event until "
        "then, and seen only by the player and the event's staff; applied: applied to the event's lottery, not "
        "drawn yet (the draw registers them or puts them on the waiting list).",
    )
    self_registered = serializers.BooleanField(help_text="The player registered themselves (not a walk-in).")
    checked_in = serializers.BooleanField()
    dropped = serializers.BooleanField()
    dropped_after_round = serializers.IntegerField(allow_null=True)
    late_entry_round = serializers.IntegerField(allow_null=True, help_text="Late entry: first round paired in.")
    missed_rounds = serializers.IntegerField(help_text="Rounds lost by entering late.")
    fixed_table = serializers.IntegerField(allow_null=True)
    stream_opt_out = serializers.SerializerMethodField(
        help_text="The player opted out of being streamed: no stream station shows a table they sit at. Shown to "
        "the player and to the staff who manage the event's registrations, null for everyone else."
    )
    assigned_byes = serializers.SerializerMethodField(help_text="Rounds the organiser gave this player a bye.")
    lottery_rank = serializers.IntegerField(
        allow_null=True, help_text="The place in the lottery's drawn order (1 = drawn first); null: not drawn."
    )
    paid = serializers.SerializerMethodField(
        help_text="The entry fee is marked paid. Shown to the player and to the staff who manage the event's "
        "registrations, null for everyone else."
    )
    paid_at = serializers.SerializerMethodField(help_text="When staff marked the entry fee paid (null as `paid`).")
    warnings = serializers.SerializerMethodField(
        help_text="What refuses nothing but is worth knowing: `overlapping_event` (the player also holds or seeks "
        "a place at another event on the same day). Given where the registration is made and in the event's list."
    )

    def get_assigned_byes(self, registration) -> list[int]:
        return people_selectors.registration_byes(registration=registration)

    def _private(self, registration) -> bool:
        """Consent and payment are the player's and the staff's business, not the public's."""
        return bool(self.context.get("private")) or policy.is_player(self.context.get("viewer"), registration.player)

    def get_stream_opt_out(self, registration) -> bool | None:
        return registration.stream_opt_out if self._private(registration) else None

    def get_paid(self, registration) -> bool | None:
        return registration.paid_at is not None if self._private(registration) else None

    def get_paid_at(self, registration) -> datetime.datetime | None:
        return registration.paid_at if self._private(registration) else None

    @extend_schema_field(EntryWarningOutput(many=True))
    def get_warnings(self, registration) -> list[dict[str, Any]]:
        found = self.context.get("warnings", {}).get(registration.pk, [])
        return [{"code": w.code, "message": w.message, "event": w.event} for w in found]
