"""What makes the app a phone app: its manifest, the service worker that keeps the static
files and the last tables seen for when the signal drops, and where the app opens."""

import json
import os

from flask import Response, abort, current_app, redirect, render_template, session, url_for

from ..answers.area import PUBLIC, Area, Policy
from ..answers.catalogue import gettext as _
from .engine import engine_zip

bp = Area("install", __name__, Policy(PUBLIC))


@bp.get("/manifest.webmanifest")
def manifest():
    icons = [{"src": url_for("static", filename=f"icon-{size}.png"), "sizes": f"{size}x{size}",
              "type": "image/png", "purpose": "any"} for size in (192, 512)]
    body = {"name": _("All Fives scorekeeper"), "short_name": _("All Fives"),
            "description": _("Score All Fives dominoes at the table, one tap per tile."),
            "start_url": url_for("install.resume"), "scope": url_for("home.index"),
            "display": "standalone", "background_color": "#f6f4ef",
            "theme_color": "#0b6e4f", "icons": icons}
    return Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json",
                    headers={"Cache-Control": "no-cache"})


@bp.get("/resume")
def resume():
    """The app opens on the match this phone scored last, or on the home page."""
    mine = session.get("mine", [])
    if mine:
        match_id, key = mine[0]
        return redirect(url_for("table.show", match_id=match_id, key=key))
    return redirect(url_for("home.index"))


@bp.get("/sw.js")
def service_worker():
    """Served from the root so that it may answer for every page of the app."""
    body = render_template("sw.js", offline=url_for("install.offline"),
                           static=url_for("home.index") + current_app.static_url_path[1:] + "/",
                           engine=url_for("install.engine", version="").rpartition("/")[0] + "/")
    return Response(body, mimetype="text/javascript", headers={"Cache-Control": "no-cache"})


@bp.get("/offline")
def offline():
    """Shown by the service worker when a page this phone never opened is asked offline."""
    return render_template("offline.html")


def engine_version() -> str:
    """The hash the offline table's zip is asked for by (it changes with its bytes)."""
    return engine_zip(_templates_folder())[1]


def engine_address() -> str:
    """Where the table page fetches the offline table's zip."""
    return url_for("install.engine", version=engine_version())


@bp.get("/engine/<version>.zip")
def engine(version: str):
    """The offline table's Python side (`offline/bundle.py`), kept by phones for good: its
    address changes with its bytes."""
    body, current = engine_zip(_templates_folder())
    if version != current:
        abort(404)
    return Response(body, mimetype="application/zip", headers={
        "Cache-Control": "public, max-age=31536000, immutable"})


def _templates_folder() -> str:
    return os.path.join(current_app.root_path, current_app.template_folder)
