"""``ccreport serve``: preview a built site on 127.0.0.1, rebuilding it when the project changes.

Only the site's own files are served: a folder is answered by its ``index.html`` or 404 (never a
listing), and a path that leaves the site - ``..`` or a symbolic link pointing outside the output
folder - is 404. With watching on, the project folder is watched with ``watchfiles`` (the output
folder, the task cache and staging folders excluded); a change rebuilds the site (problems are
printed, one line each, and the previous site stays served), and every page served carries a small
script that polls ``/__ccreport__/build-id`` and reloads the page when the id changes. The script
is added to the HTTP response only: the built files on disk never contain it.
"""

from __future__ import annotations

import functools
import http.server
import os
import sys
import threading
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..errors import Problem, UserInputError
from . import PORT_MAX, PORT_MIN  # noqa: F401  (re-exported: the ports serve accepts)

BUILD_ID_PATH = "/__ccreport__/build-id"
RELOAD_SCRIPT = (
    "<script>/* ccreport serve: live reload (not in the built files) */(function(){var id=null;"
    "function poll(){fetch('"
    + BUILD_ID_PATH
    + "',{cache:'no-store'}).then(function(r){return r.text()})"
    ".then(function(t){if(id!==null&&t!==id){location.reload()}id=t}).catch(function(){})"
    ".finally(function(){setTimeout(poll,1000)})}poll()})();</script>"
)
MAX_NAME_BYTES = 255  # one file or folder name (NAME_MAX of Linux and macOS)
MAX_PATH_BYTES = 4096  # a whole path (PATH_MAX of Linux)


def request_problem(raw_path: str) -> tuple[int, str] | None:
    """``(status, reason)`` when a request's path cannot name a file of the site, else None."""
    path = urlsplit(raw_path).path
    try:
        text = unquote(path, errors="strict")
    except UnicodeDecodeError:
        return 400, "Bad request: the path is not UTF-8"
    if any(ord(c) < 32 or ord(c) == 127 for c in text):
        return 400, "Bad request: a control character in the path"
    if len(text.encode("utf-8")) > MAX_PATH_BYTES:
        return 404, "Not found: path too long"
    if any(len(part.encode("utf-8")) > MAX_NAME_BYTES for part in text.split("/")):
        return 404, "Not found: name too long"
    return None


class LiveState:
    """The id of the current build, changed after each successful rebuild."""

    def __init__(self):
        self.build_id = str(time.time_ns())

    def bump(self) -> None:
        self.build_id = str(time.time_ns())


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files inside ``directory`` only; no listings; adds the reload script when live."""

    live: LiveState | None = None

    def log_message(self, format, *args):  # quiet: a preview server, not an access log
        pass

    def list_directory(self, path):
        self.send_error(404, "Not found")
        return None

    def translate_path(self, path):
        root = Path(self.directory).resolve()
        outside = str(root / "__ccreport_outside__")  # does not exist: 404
        try:
            relative = unquote(urlsplit(path).path).lstrip("/")
            candidate = (root / relative).resolve()
            if candidate != root and not candidate.is_relative_to(root):
                return outside
            if candidate.is_dir() and path.endswith("/"):
                return str(candidate) + os.sep
        except (OSError, ValueError, RuntimeError):  # a name too long, a NUL, a symbolic-link loop
            return outside
        return str(candidate)

    def handle_one_request(self):
        """One request, answered whatever happens (module doc): a handler never dies."""
        try:
            super().handle_one_request()
        except (ConnectionError, TimeoutError):  # the browser went away
            self.close_connection = True
        except Exception as error:  # a bug must not kill the preview: 500 and one line
            self.close_connection = True
            print(
                f"ccreport serve: could not answer {self.command} "
                f"{getattr(self, 'path', '')[:200]!r}: {type(error).__name__}: {error}",
                file=sys.stderr,
                flush=True,
            )
            try:
                self.send_error(500, "Internal error of ccreport serve")
            except Exception:  # the connection is gone, or the headers were sent already
                pass

    def send_head(self):
        problem = request_problem(self.path)
        if problem is not None:
            self.send_error(*problem)
            return None
        return super().send_head()

    def do_GET(self):
        problem = request_problem(self.path)
        if problem is not None:
            self.send_error(*problem)
            return
        if self.live is not None and urlsplit(self.path).path == BUILD_ID_PATH:
            self._send(self.live.build_id.encode(), "text/plain")
            return
        path = self.translate_path(self.path)
        if self.live is not None and os.path.isdir(path) and urlsplit(self.path).path.endswith("/"):
            path = os.path.join(path, "index.html")
        if self.live is not None and path.endswith(".html") and os.path.isfile(path):
            self._send_html(path)
            return
        super().do_GET()

    def _send_html(self, path: str) -> None:
        html = Path(path).read_text(encoding="utf-8", errors="replace")
        at = html.rfind("</body>")
        html = html[:at] + RELOAD_SCRIPT + html[at:] if at >= 0 else html + RELOAD_SCRIPT
        self._send(html.encode("utf-8"), "text/html; charset=utf-8")

    def _send(self, body: bytes, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def make_server(
    root: Path, port: int, live: LiveState | None = None
) -> http.server.ThreadingHTTPServer:
    """A preview server of ``root`` on 127.0.0.1:``port``; a busy port is one UserInputError."""
    handler = functools.partial(
        type("Handler", (SiteHandler,), {"live": live}), directory=str(root)
    )
    try:
        return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as error:
        raise UserInputError(
            Problem(
                "ccreport serve",
                "--port",
                f"cannot listen on 127.0.0.1:{port}: {error.strerror}; choose another port with "
                "--port",
            )
        ) from None


def watch_and_rebuild(
    project_root: Path, excluded: list[Path], rebuild, stop: threading.Event
) -> None:
    """Call ``rebuild()`` after each batch of changes under ``project_root`` (``excluded``
    ignored)."""
    import watchfiles

    excluded = [p.resolve() for p in excluded]

    def wanted(change, path: str) -> bool:
        p = Path(path).resolve()
        if any(
            part.startswith((".ccreport-", ".git"))
            for part in p.relative_to(project_root.resolve()).parts
        ):
            return False
        return not any(p == e or p.is_relative_to(e) for e in excluded)

    for _ in watchfiles.watch(
        project_root, watch_filter=wanted, stop_event=stop, debounce=300, raise_interrupt=False
    ):
        rebuild()


def serve(root: Path, port: int, project_root: Path | None = None, rebuild=None) -> None:
    """Serve ``root``; with ``project_root`` and ``rebuild``, rebuild on change and reload pages."""
    live = LiveState() if rebuild is not None else None
    server = make_server(root, port, live)
    stop = threading.Event()
    watcher = None
    if live is not None:

        def rebuild_and_bump():
            if rebuild():
                live.bump()

        watcher = threading.Thread(
            target=watch_and_rebuild,
            args=(project_root, [root], rebuild_and_bump, stop),
            daemon=True,
        )
        watcher.start()
    with server:
        watching = f"; watching {project_root} and rebuilding on change" if watcher else ""
        print(
            f"serving {root} on http://127.0.0.1:{server.server_address[1]}/{watching} (Ctrl-C "
            "to stop)",
            file=sys.stdout,
            flush=True,
        )
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            stop.set()
