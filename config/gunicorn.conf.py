"""gunicorn's settings for Podium's web server: ``gunicorn -c config/gunicorn.conf.py config.wsgi --workers 4 ...``.

gunicorn answers a request line longer than its ``limit_request_line`` itself, with an HTML page, before Podium
sees the request: an API client would get a 414 in HTML rather than the API's JSON error.  So the limit here is
gunicorn's largest (8,190 bytes; 0, unlimited, would let a client send a request line as long as it likes), above
Podium's own limit on a URL (``core.middleware.MAX_URL_LENGTH``, 4,096 characters, with room for the method and
the HTTP version): Podium answers a URL between the two with its 414 ``uri_too_long`` (the JSON error under
``/api/``), and only a request line over 8,190 bytes still gets gunicorn's page.

Options given on the command line (``--workers``, ``--bind`` ...) win over this file.
"""

#: gunicorn's largest finite limit (larger values are cut to it), in bytes of the whole request line.
limit_request_line = 8190
