"""Dashboard forms: input shapes only; the rules are checked by the services."""

from __future__ import annotations

from django import forms
from django.utils import timezone

from games.formats import choices as format_choices
from tournaments.models import Event


class EventForm(forms.Form):
    name = forms.CharField(max_length=200)
    format = forms.ChoiceField(choices=format_choices)
    planned_rounds = forms.IntegerField(min_value=1, max_value=30, initial=4)
    date = forms.DateField(initial=timezone.localdate, widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(max_length=200, required=False)
    tiebreakers = forms.ChoiceField(
        choices=Event.Tiebreakers.choices, initial=Event.Tiebreakers.CLASSIC, required=False,
        help_text="1v1 formats; multiplayer pods always rank by points, opponents' points, OMW%, OOMW%.",
    )  # fmt: skip

    players_per_table = forms.TypedChoiceField(
        choices=[("", "The format's tables"), ("2", "1v1 Swiss (2-player games)")], coerce=int, empty_value=None,
        required=False, label="Tables",
        help_text="1v1 is possible for formats that allow 2-player games (Master Trainer).",
    )  # fmt: skip
    pod_leftovers = forms.ChoiceField(
        choices=Event.Leftovers.choices, initial=Event.Leftovers.TABLES, required=False, label="Leftover players",
        help_text="Pod formats: smaller pods at the bottom, or byes, when numbers don't divide.",
    )  # fmt: skip

    def clean_tiebreakers(self) -> str:
        return self.cleaned_data["tiebreakers"] or Event.Tiebreakers.CLASSIC

    def clean_pod_leftovers(self) -> str:
        return self.cleaned_data["pod_leftovers"] or Event.Leftovers.TABLES


class EventSettingsForm(EventForm):
    """The settings of an existing event (its format is fixed)."""

    def __init__(self, data=None, *, event: Event, **kwargs):
        self.event = event
        initial = {name: getattr(event, name) for name in self.base_fields if name != "format"}
        initial["players_per_table"] = "" if event.players_per_table is None else str(event.players_per_table)
        super().__init__(data, initial=initial, **kwargs)
        del self.fields["format"]
        if event.rounds.exists():
            for name in ("players_per_table", "pod_leftovers"):
                self.fields[name].disabled = True
                self.fields[name].help_text = "Fixed once round 1 is paired."

    def changes(self) -> dict:
        return {
            name: value
            for name, value in self.cleaned_data.items()
            if not self.fields[name].disabled and value != getattr(self.event, name)
        }


class SwapForm(forms.Form):
    player_a = forms.IntegerField()
    player_b = forms.IntegerField()


class RegistrationForm(forms.Form):
    display_name = forms.CharField(
        max_length=100, label="Player name", widget=forms.TextInput(attrs={"placeholder": "Player name"})
    )
    external_id = forms.CharField(
        max_length=64,
        required=False,
        label="Player ID",
        widget=forms.TextInput(attrs={"placeholder": "Player ID (optional)"}),
    )
    checked_in = forms.BooleanField(required=False, initial=True, label="Checked in")

    def __init__(self, *args, focus: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if focus:  # right after a registration, typing goes on with the next name
            self.fields["display_name"].widget.attrs["autofocus"] = True


class ResultForm(forms.Form):
    """One placement field per seated player, built from the table's seats.

    A Swiss 1v1 table also takes a one-click ``outcome`` (first, second or draw).
    A top-cut table (``cut=True``) needs one winner, so it takes a ``winner``
    (a seated player's id) instead: the winner places 1st and everyone else 2nd,
    and neither a draw nor a shared first place is offered or accepted.
    """

    #: One-click outcomes for a 1v1 table: placements of (seat 1, seat 2).
    OUTCOMES = {"first": (1, 2), "second": (2, 1), "draw": (1, 1)}

    def __init__(self, data=None, *, seats, cut: bool = False, **kwargs):
        self.seats = list(seats)
        self.cut = cut
        if data is not None:
            data = self._expand_shortcuts(data)
        super().__init__(data, **kwargs)
        choices = [("", "place…")] + [(str(i), f"#{i}") for i in range(1, len(self.seats) + 1)]
        for seat in self.seats:
            self.fields[f"placement_{seat.player_id}"] = forms.TypedChoiceField(
                label=seat.player.display_name,
                choices=choices,
                coerce=int,
                initial=seat.placement or None,
            )

    def _expand_shortcuts(self, data):
        """Turn a one-click outcome or a top-cut winner into the placement fields."""
        outcome, winner = data.get("outcome"), data.get("winner", "")
        placements: dict[int, int] | None = None
        if self.cut and winner.isdigit() and int(winner) in {s.player_id for s in self.seats}:
            placements = {s.player_id: 1 if s.player_id == int(winner) else 2 for s in self.seats}
        elif outcome in self.OUTCOMES and len(self.seats) == 2:  # a draw at a cut table is refused by clean()
            placements = dict(zip((s.player_id for s in self.seats), self.OUTCOMES[outcome], strict=True))
        if placements is None:
            return data
        data = data.copy()
        for player_id, placement in placements.items():
            data[f"placement_{player_id}"] = str(placement)
        return data

    def placement_fields(self) -> list[forms.BoundField]:
        """A placement select per seat, in seat order (what the player chose stays chosen after an error)."""
        return [self[f"placement_{seat.player_id}"] for seat in self.seats]

    def winner_choices(self) -> list[tuple[int, str]]:
        """The one-click buttons of a top-cut table: (player id, name) per seat."""
        return [(s.player_id, s.player.display_name) for s in self.seats]

    def clean(self):
        cleaned = super().clean()
        if self.cut and not self.errors:
            winners = sum(1 for seat in self.seats if cleaned.get(f"placement_{seat.player_id}") == 1)
            if winners != 1:
                raise forms.ValidationError(
                    "A top-cut table needs one winner: a draw or a shared first place can't advance."
                )
        return cleaned

    def placements(self) -> dict[int, int]:
        return {seat.player_id: self.cleaned_data[f"placement_{seat.player_id}"] for seat in self.seats}
