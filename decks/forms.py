from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from core.api import MAX_INT
from decks.checking import DECKLIST_MAX_LENGTH
from decks.models import DeckVerdictOverride
from decks.services import REASON_MAX

ROLE_LABELS = {
    "master": _("Master"),
    "apex": _("Apex"),
    "paragon": _("Paragon (optional)"),
    "signature": _("Signature Pokémon"),
    "trainer": _("Pokémon Trainer (a Supporter)"),
    "starting_pokemon": _("Starting Pokémon"),
    "starting_energy": _("Starting Energy"),
    "deck_master": _("Deck Master"),
}
ROLE_HELP = {
    "pokemon": _("As in a PTCGL line without the count, e.g. Charizard ex OBF 125"),
    "yugioh": _("A passcode or a card name"),
    "mintayn": _("A card name"),
}


class DeckForm(forms.Form):
    """The decklist and one field per role the format has."""

    decklist = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 18, "spellcheck": "false"}), max_length=DECKLIST_MAX_LENGTH
    )

    def __init__(self, *args, fmt, **kwargs):
        super().__init__(*args, **kwargs)
        self.roles = list(fmt.deck_roles)
        for role in self.roles:
            self.fields[f"role_{role}"] = forms.CharField(
                label=ROLE_LABELS.get(role, role), required=False, max_length=300,
                help_text=ROLE_HELP[fmt.family.value],
            )  # fmt: skip
        self.fields["decklist"].help_text = {
            "pokemon": _("Paste the export of Pokémon TCG Live or Limitless (lines like '4 Arven SVI 166')."),
            "yugioh": _("Paste a .ydk file or a ydke:// link."),
            "mintayn": _("One card per line: '3 Card Name'."),
        }[fmt.family.value]

    def role_values(self) -> dict[str, str]:
        return {role: value for role in self.roles if (value := self.cleaned_data.get(f"role_{role}", "").strip())}


class DeckRulingForm(forms.Form):
    """A judge's ruling on a deck: legal or illegal, and why (the organiser's decks page, one per deck)."""

    status = forms.ChoiceField(label=_("Ruling"), choices=DeckVerdictOverride.Status.choices, widget=forms.RadioSelect)
    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX)
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=MAX_INT)


class DeckRulingClearForm(forms.Form):
    """Clearing the ruling in force: the checker's verdict stands again; the reason is kept."""

    reason = forms.CharField(label=_("Reason for clearing"), max_length=REASON_MAX)
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=MAX_INT)
