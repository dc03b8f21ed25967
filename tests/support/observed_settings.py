"""The settings of a server the observability tests start: the production ones, with one URL more that fails
(:mod:`tests.support.observed_urls`), as a bug in a view would."""

from config.settings.base import *  # noqa: F403

ROOT_URLCONF = "tests.support.observed_urls"
