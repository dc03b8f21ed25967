"""The shipped nginx configuration run by a test, in front of servers the test started.

* :func:`missing` - why nginx cannot run here (Debian's ``nginx`` or ``openssl`` not installed), or None.
* :func:`certificate` - a self-signed certificate for :data:`SITE` in a directory of the test's.
* :func:`nginx_config` - a main ``nginx.conf`` for a non-root nginx in that directory, including
  ``deploy/nginx/podium.conf`` as it ships with only the test's values put in: its addresses (several servers in an
  upstream when the test runs several instances), host name, certificate and static files' directory
  (``bench cluster`` runs the shipped file the same way: :func:`bench.cluster.nginx_config`).
* :func:`start_nginx` - nginx on that configuration (stopped with :func:`tests.support.live.stop`).
* :func:`env_file` - a settings file as honcho and systemd read it.
* :func:`request`, :func:`answers`, :func:`tls` - one request (HTTPS by default) from a loopback address of the
  test's choosing, the status a path answers, an HTTPS connection to the proxy (for a stream).
"""

from __future__ import annotations

import http.client
import shutil
import ssl
import subprocess
from pathlib import Path

from bench import cluster as bench_cluster

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
    return bench_cluster.nginx_config(
        tmp,
        {
            "server 127.0.0.1:8000;": bench_cluster.upstream_servers(web),
            "server 127.0.0.1:8001;": bench_cluster.upstream_servers(streams),
            "listen [::]:80;\n": "",  # the test listens on IPv4 loopback only
            "listen [::]:443 ssl http2;\n": "",
            "listen 80;": f"listen 127.0.0.1:{http_port};",
            "listen 443 ssl http2;": f"listen 127.0.0.1:{https} ssl http2;",
            "podium.example.org;": f"{SITE};",
            "/etc/letsencrypt/live/podium.example.org/fullchain.pem": str(tmp / "site.crt"),
            "/etc/letsencrypt/live/podium.example.org/privkey.pem": str(tmp / "site.key"),
            "/var/lib/podium/staticfiles/": f"{static_root}/",
        },
        http_extra=http_extra,
    )


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
