"""The half of screens_identical.py that runs in each checkout: plays the corpus's taps
against that checkout's app and writes every answer, one JSON a line.

It imports only `scorekeeper` (from PYTHONPATH, the checkout under test) and the standard
library, so an older checkout runs it unchanged.

    PYTHONPATH=/a/checkout python bench/lib/screens_worker.py corpus.json answers.jsonl
"""

import json
import os
import re
import sys
import tempfile
from urllib.parse import urlsplit

from scorekeeper import create_app

LANGUAGES = ("en", "el", "cs", "hu")
_INPUT = re.compile(r'<input\b[^>]*\bname="(csrf_token|pos)"[^>]*>')
_VALUE = re.compile(r'\bvalue="([^"]*)"')
_CSRF = re.compile(r'(<input\b[^>]*\bname="csrf_token"[^>]*\bvalue=")[^"]*(")')
_BOARD = re.compile(r'class="board-link" href="[^"]*/board/([^/"]+)/([^/"?]+)')
FORM = "application/x-www-form-urlencoded"


class Table:
    """One match's phone: its session, the revision and token the screen last showed."""

    def __init__(self, client, out, setup: dict):
        self.client, self.out = client, out
        self.fields = {"csrf_token": "", "pos": "0"}
        self.secrets: dict[str, str] = {}
        self.lang = "en"
        self.create(setup)

    def create(self, setup: dict) -> None:
        count = len(setup["players"])
        query = f"/new?players={count}&rules={setup['rules']}"
        self.screen(self.client.get(query, headers=self.headers()), query)
        form = {"count": count, "rules": setup["rules"], "target": setup["target"],
                "hand_size": setup["hand_size"], "csrf_token": self.fields["csrf_token"]}
        form.update({f"player{seat}": name for seat, name in enumerate(setup["players"], 1)})
        if setup["partnerships"]:
            form["partnerships"] = "y"
        made = self.client.post("/new", data=form, headers=self.headers())
        path = urlsplit(made.headers["Location"]).path
        _, _, match_id, key = path.split("/")
        self.secrets = {match_id: "MATCH", key: "SCORE-KEY"}
        self.page = path
        page = self.client.get(path, headers=self.headers())
        board = _BOARD.search(page.get_data(as_text=True))
        self.secrets[board.group(2)] = "VIEW-KEY"
        self.board = f"/board/{match_id}/{board.group(2)}"
        self.screen(page, "page")

    def headers(self, htmx: bool = False) -> dict:
        found = {"Accept-Language": self.lang}
        if htmx:
            found.update({"HX-Request": "true", "HX-Target": "table"})
        return found

    def tap(self, step: dict, number: int) -> None:
        self.lang = LANGUAGES[number % 4]
        fields = {**self.fields, **step["fields"]}
        if step.get("stale"):
            fields["pos"] = str(max(int(fields["pos"]) - 1, 0))
        htmx = step["htmx"]
        answer = self.client.post(self.page + step["path"], data=fields,
                                  headers={**self.headers(htmx), "Content-Type": FORM})
        self.screen(answer, f"{step['path']} {step['fields']}")
        if step.get("confirm") and 'name="confirm"' in answer.get_data(as_text=True):
            self.tap({**step, "fields": {"confirm": "1"}, "confirm": False}, number)
        if answer.status_code == 303:  # a plain form: the page it leads to says what it did
            self.screen(self.client.get(self.page, headers=self.headers()), "after 303")

    def screens(self, languages) -> None:
        for lang in languages:
            self.lang = lang
            for path, htmx in ((self.page, False), (self.page, True),
                               (self.board, False), (self.board, True),
                               (self.page + "/sheet", False)):
                self.screen(self.client.get(path, headers=self.headers(htmx)),
                            f"GET {path} {'htmx' if htmx else ''} {lang}")

    def screen(self, answer, request: str) -> None:
        body = answer.get_data(as_text=True)
        for tag in _INPUT.finditer(body):
            self.fields[tag.group(1)] = _VALUE.search(tag.group(0)).group(1)
        body = _CSRF.sub(r"\1CSRF\2", body)
        location = answer.headers.get("Location", "")
        for secret, name in self.secrets.items():
            body, location = body.replace(secret, name), location.replace(secret, name)
            request = request.replace(secret, name)
        self.out.write(json.dumps({
            "request": f"{self.lang} {request}", "status": answer.status_code,
            "type": answer.headers.get("Content-Type"), "location": location,
            "body": body}, ensure_ascii=False) + "\n")


def main(corpus_path: str, out_path: str) -> None:
    with open(corpus_path, encoding="utf-8") as file:
        matches = json.load(file)
    folder = tempfile.mkdtemp(prefix="screens-")
    app = create_app({"DATABASE": os.path.join(folder, "db.sqlite"), "SECRET_KEY": "screens",
                      "TAP_LIMIT": "100000 per second", "NEW_MATCH_LIMIT": "100000 per second",
                      "WRITE_LIMIT": "100000 per second"})
    with open(out_path, "w", encoding="utf-8") as out:
        for setup in matches:
            table = Table(app.test_client(), out, setup)
            table.screens(LANGUAGES)
            for number, step in enumerate(setup["steps"]):
                table.tap(step, number)
                table.screens(LANGUAGES if number % 10 == 0 else [LANGUAGES[(number + 1) % 4]])


if __name__ == "__main__":
    main(*sys.argv[1:])
