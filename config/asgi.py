"""The ASGI application: what uvicorn serves (``./bin/run``, and production for the live streams).

Pages and the API are sync views, run in a thread per request; the live streams
(:mod:`live.streams`) are async views, so an idle stream holds no thread and no
database connection.  ``PODIUM_ASGI`` tells the settings they run under this
server (persistent database connections are off: see config/settings/base.py).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
os.environ.setdefault("PODIUM_ASGI", "true")
django_application = get_asgi_application()

from core.logging import asgi_request_id  # noqa: E402 - after Django is set up
from live.streams import route  # noqa: E402

#: The live streams are answered before Django's handler (which keeps a thread per request while it lasts); in
#: front of both, each request gets its id (core.logging): its log lines, uvicorn's access line and X-Request-ID.
application = asgi_request_id(route(django_application))
