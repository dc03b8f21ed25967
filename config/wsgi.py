"""The WSGI application: what gunicorn serves (pages and the API).  Each request gets its id first (core.logging)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
django_application = get_wsgi_application()

from core.logging import wsgi_request_id  # noqa: E402 - after Django is set up

application = wsgi_request_id(django_application)
