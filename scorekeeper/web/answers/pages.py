"""How every screen is answered: the whole page, or for htmx the fragment it swaps in; and
the one error page."""

from flask import render_template, request


def fragment_wanted() -> bool:
    """The one decision of page or fragment: htmx asks for the fragment (htmx-flask reads its
    HX-Request header); a browser's own request, a refresh or the back button, for the page
    (also when htmx itself asks again for a page it put in the history)."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def screen(page: str, fragment: str, as_fragment: bool | None = None, **context) -> str:
    """A screen rendered as its page or as its fragment (a partial the page includes);
    `as_fragment` if the view has asked `fragment_wanted` already (a tap asks it once)."""
    wanted = fragment_wanted() if as_fragment is None else as_fragment
    return render_template(fragment if wanted else page, **context)


def error_page(code: int, name: str, description: str) -> str:
    """The error page (or its fragment) for `code`, with its title and its explanation,
    already in the reader's words."""
    return screen("errors/error.html", "errors/_error.html", code=code, name=name,
                  description=description)
