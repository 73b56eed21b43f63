"""Static files under addresses that carry a hash of the file, so phones may keep them."""

import functools
import hashlib
import os

from flask import current_app


def versioned_static(endpoint: str, values: dict) -> None:
    """Static URLs carry a hash of the file, so phones may keep the file for a year.

    A new htmx or stylesheet gets a new URL; nothing is revalidated on each page.
    """
    if endpoint == "static" and "filename" in values:
        values["v"] = _file_version(current_app.static_folder, values["filename"])


@functools.lru_cache(maxsize=64)
def _file_version(folder: str, filename: str) -> str:
    try:
        with open(os.path.join(folder, filename), "rb") as file:
            return hashlib.sha256(file.read()).hexdigest()[:12]
    except OSError:
        return "0"
