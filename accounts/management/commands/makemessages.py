"""``manage.py makemessages``: Django's, with Podium's defaults.

* The pure engines mark their words with a no-op ``N_("...")``, and the rules kernel its sentences with
  ``phrase("...", **values)`` and ``phrases("...", "...", n, **values)`` (:mod:`rules.speech`; they import no
  Django, :file:`README.md`, "Languages"): xgettext is told to extract those too.
* What is not Podium's source is never scanned: ``var/`` (the collected static files, Django admin's scripts
  among them), ``tests/`` and the benchmarks' output.
* The catalogues keep no obsolete entries and no source line numbers (each file's name stays, for context), so
  a change elsewhere in a file does not rewrite every catalogue.

``manage.py makemessages -a`` and ``manage.py makemessages -a -d djangojs`` update every catalogue of
``locale/``; ``bin/setup`` (or ``python -m core.catalogues``) compiles them.
"""

from __future__ import annotations

from django.core.management.commands import makemessages

#: Never Podium's source to translate.
IGNORED = ["var", "var/*", "tests", "tests/*", "node_modules", "docs"]


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_", "--keyword=phrase", "--keyword=phrases:1,2"]

    def handle(self, *args, **options):
        options["ignore_patterns"] = [*options.get("ignore_patterns", []), *IGNORED]
        options["no_obsolete"] = True
        options["add_location"] = options.get("add_location") or "file"
        return super().handle(*args, **options)
