"""Forms of the account and player pages: input shapes only; the services check the rules."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext as _

from accounts.selectors import Person
from tournaments import words


class SignUpForm(UserCreationForm):
    """A new account and, from ``display_name``, the player profile that goes with it."""

    display_name = forms.CharField(
        max_length=100,
        required=False,
        label=gettext_lazy("Name at events"),
        help_text=gettext_lazy("How organisers and other players see you. Your username if you leave it empty."),
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )
    email = forms.EmailField(
        required=False,
        help_text=gettext_lazy("Only to reset a forgotten password; without one, nobody can reset it for you."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    language = forms.ChoiceField(
        choices=lambda: language_choices(),
        required=False,
        label=gettext_lazy("Language"),
        help_text=gettext_lazy("The language Podium speaks to you in, on every device you sign in on."),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    field_order = ("username", "display_name", "email", "password1", "password2", "language")

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        if email and get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("An account already uses this address: sign in, or reset its password."))
        return email


def language_choices() -> list[tuple[str, str]]:
    """Podium's languages, each by its own name, after "follow the browser" (blank)."""
    return [("", gettext("My browser's language")), *settings.LANGUAGES]


class LanguageForm(forms.Form):
    """The account's language setting (``/me/``)."""

    language = forms.ChoiceField(
        choices=lambda: language_choices(),
        required=False,
        label=gettext_lazy("Language"),
        help_text=gettext_lazy("The language Podium speaks to you in, on every device you sign in on."),
    )


class ClaimForm(forms.Form):
    code = forms.CharField(
        max_length=32,
        label=gettext_lazy("Claim code"),
        help_text=gettext_lazy("The code the organiser gave you, e.g. K7P2QX9MZ4LA."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}),
    )


def score_choices(games_per_match: int, *, cut: bool) -> list[tuple[str, str]]:
    """The 1v1 results a player picks from, as ``("won-lost-drawn", label)``, and ``("id", ...)``.

    Wins first (the decisive scores, then shorter ones, e.g. time called), then losses, then draws
    (with a drawn game, then without), then the intentional draw.  A top-cut match needs a winner.
    """
    needed = games_per_match // 2 + 1
    wins = [(w, lost) for w in range(needed, 0, -1) for lost in range(w)]
    choices = [(f"{w}-{lost}-0", _("I won %(score)s") % {"score": words.game_score(w, lost)}) for w, lost in wins]
    choices += [(f"{lost}-{w}-0", _("I lost %(score)s") % {"score": words.game_score(lost, w)}) for w, lost in wins]
    if cut:
        return choices
    for k in range(needed - 1, -1, -1):
        drawn = words.game_score(k, k, 1) if k else _("one drawn game")
        choices.append((f"{k}-{k}-1", _("Draw: %(score)s") % {"score": drawn}))
    for k in range(needed - 1, 0, -1):
        choices.append((f"{k}-{k}-0", _("Draw %(score)s (time)") % {"score": words.game_score(k, k)}))
    choices.append(("id", _("Intentional draw (agreed, not played)")))
    return choices


class ReportForm(forms.Form):
    """A player's report of their table.

    1v1: one ``score`` from the player's side (:func:`score_choices`).  A pod: a
    placement for every player at the table (``placement_<player id>``), the
    reporter included, ties sharing a place.
    """

    def __init__(self, data=None, *, me: Person, people: list[Person], games_per_match: int, cut: bool, **kwargs):
        super().__init__(data, **kwargs)
        self.me, self.people = me, people
        self.one_vs_one = len(people) == 2
        if self.one_vs_one:
            self.fields["score"] = forms.ChoiceField(
                label=_("Your match"),
                choices=score_choices(games_per_match, cut=cut),
                widget=forms.RadioSelect,
                error_messages={"required": _("Choose how your match ended.")},
            )
        else:
            places = [("", _("place…"))] + [(str(i), f"{i}") for i in range(1, len(people) + 1)]
            for person in people:
                label = _("You") if person.id == me.id else str(person)
                self.fields[f"placement_{person.id}"] = forms.TypedChoiceField(
                    label=label, choices=places, coerce=int, error_messages={"required": _("Choose a place.")}
                )

    @property
    def opponent(self) -> Person | None:
        return next((p for p in self.people if p.id != self.me.id), None) if self.one_vs_one else None

    def outcome(self) -> tuple[dict[int, int], dict[int, list[int]] | None, bool]:
        """``(placements, games, intentional_draw)`` for :func:`tournaments.services.results.result_player_report`."""
        if not self.one_vs_one:
            return {p.id: self.cleaned_data[f"placement_{p.id}"] for p in self.people}, None, False
        other = self.opponent
        assert other is not None  # a 1v1 table has one
        score = self.cleaned_data["score"]
        if score == "id":
            return {self.me.id: 1, other.id: 1}, None, True
        won, lost, drawn = (int(n) for n in score.split("-"))
        mine, theirs = (1, 2) if won > lost else (2, 1) if won < lost else (1, 1)
        return (
            {self.me.id: mine, other.id: theirs},
            {self.me.id: [won, lost, drawn], other.id: [lost, won, drawn]},
            False,
        )
