"""The shipped nginx configuration run by a test, in front of servers the test started.

* :func:`missing` - why nginx cannot run here (Debian's ``nginx`` or ``openssl`` not installed), or None.
* :func:`certificate` - a self-signed certificate for :data:`SITE` in a directory of the test's.
* :func:`nginx_config` - a main ``nginx.conf`` for a non-root nginx in that directory, including
  ``deploy/nginx/podium.conf`` as it ships with only the test's values put in: its addresses (several servers in an
  upstream when the test runs several instances), host name, certificate and static files' directory.
* :func:`start_nginx` - nginx on that configuration (stopped with :func:`tests.support.live.stop`).
* :func:`env_file` - a settings file as honcho and systemd read it.
* :func:`request`, :func:`answers`, :func:`tls` - one request (HTTPS by default) from a loopback address of the
  test's choosing, the status a path answers, an HTTPS connection to the proxy (for a stream).
"""

from __future__ import annotations

import http.client
import os
import shutil
import ssl
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
OPENSSL = shutil.which("openssl") or "/usr/bin/openssl"
SITE = "podium.test"
#: The proxy connects to the servers from 127.0.0.1 (PODIUM_PROXIES); clients come from other loopback addresses.
PROXY = "127.0.0.1"


def missing() -> str | None:
    for tool, package in ((NGINX, "nginx"), (OPENSSL, "openssl")):
        if not Path(tool).exists():
            return f"{tool} is not installed (Debian's {package} package)"
    return None


def filled(text: str, replacements: dict[str, str]) -> str:
    """``text`` with each placeholder replaced; one the shipped file no longer has fails the test (so the test never
    quietly runs a configuration other than the shipped one)."""
    for old, new in replacements.items():
        assert old in text, f"the shipped nginx configuration no longer has {old!r}"
        text = text.replace(old, new)
    return text


def _servers(ports: list[int]) -> str:
    """An upstream's ``server`` lines, one per instance, as an operator lists them."""
    return "\n    ".join(f"server 127.0.0.1:{port};" for port in ports)


def nginx_config(
    tmp: Path,
    *,
    web: list[int],
    streams: list[int],
    https: int,
    http_port: int,
    static_root: str,
    http_extra: str = "",
) -> Path:
    """A main nginx.conf for a non-root nginx in ``tmp``, including the shipped site with the test's values: ``web``
    and ``streams`` are the ports of the instances its upstreams list.  ``http_extra``: more directives for the
    ``http`` block (a log format, a header naming the backend that answered)."""
    (tmp / "snippets").mkdir()
    shutil.copy(DEPLOY / "nginx" / "podium-proxy.conf", tmp / "snippets" / "podium-proxy.conf")
    site = filled(
        (DEPLOY / "nginx" / "podium.conf").read_text(),
        {
            "server 127.0.0.1:8000;": _servers(web),
            "server 127.0.0.1:8001;": _servers(streams),
            "listen [::]:80;\n": "",  # the test listens on IPv4 loopback only
            "listen [::]:443 ssl http2;\n": "",
            "listen 80;": f"listen 127.0.0.1:{http_port};",
            "listen 443 ssl http2;": f"listen 127.0.0.1:{https} ssl http2;",
            "podium.example.org;": f"{SITE};",
            "/etc/letsencrypt/live/podium.example.org/fullchain.pem": str(tmp / "site.crt"),
            "/etc/letsencrypt/live/podium.example.org/privkey.pem": str(tmp / "site.key"),
            "/var/lib/podium/staticfiles/": f"{static_root}/",
        },
    )
    (tmp / "podium.conf").write_text(site)
    temp = {name: tmp / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for path in temp.values():
        path.mkdir()
    # Started by root (a container), nginx would hand its workers to "nobody", who may not read the test's private
    # directories: keep them as the user who runs the test.
    user = "user root;" if os.geteuid() == 0 else ""
    main = f"""
{user}
daemon off;
master_process on;
worker_processes 1;
pid {tmp / "nginx.pid"};
error_log {tmp / "error.log"} info;
events {{ worker_connections 256; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {tmp / "access.log"};
    client_body_temp_path {temp["body"]};
    proxy_temp_path {temp["proxy"]};
    fastcgi_temp_path {temp["fastcgi"]};
    uwsgi_temp_path {temp["uwsgi"]};
    scgi_temp_path {temp["scgi"]};
    {http_extra}
    include podium.conf;
}}
"""
    (tmp / "nginx.conf").write_text(main)
    return tmp / "nginx.conf"


def start_nginx(tmp: Path, conf: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [NGINX, "-p", str(tmp), "-c", str(conf), "-e", str(tmp / "error.log")],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )  # fmt: skip


def certificate(tmp: Path) -> None:
    subprocess.run(
        [OPENSSL, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-days", "1", "-subj", f"/CN={SITE}", "-addext", f"subjectAltName=DNS:{SITE}",
         "-keyout", str(tmp / "site.key"), "-out", str(tmp / "site.crt")],
        check=True, capture_output=True, timeout=30,
    )  # fmt: skip


def env_file(path: Path, values: dict[str, str]) -> Path:
    path.write_text("".join(f"{name}={value}\n" for name, value in values.items()))
    return path


def read(path: Path) -> str:
    return path.read_text() if path.exists() else ""


def unverified() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the test's own self-signed certificate
    return context


def request(
    port: int,
    method: str,
    path: str,
    *,
    tls: bool = True,
    host: str = SITE,
    source: str = "127.0.0.2",
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """``(status, headers, body)`` of one request to ``port`` on 127.0.0.1, sent from the address ``source``."""
    options = {"timeout": 30, "source_address": (source, 0)}
    conn = (
        http.client.HTTPSConnection("127.0.0.1", port, context=unverified(), **options)
        if tls
        else http.client.HTTPConnection("127.0.0.1", port, **options)
    )
    try:
        conn.request(method, path, body=body, headers={"Host": host, **(headers or {})})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def answers(port: int, path: str, *, tls: bool = False) -> int | None:
    """The status ``path`` answers on ``port`` (None while nothing listens)."""
    try:
        return request(port, "GET", path, tls=tls)[0]
    except (OSError, http.client.HTTPException):
        return None


def tls(port: int, source: str = "127.0.0.2") -> http.client.HTTPSConnection:
    return http.client.HTTPSConnection("127.0.0.1", port, timeout=60, context=unverified(), source_address=(source, 0))
