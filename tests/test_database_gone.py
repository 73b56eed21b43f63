"""PostgreSQL out of reach while the app serves: each tap is refused ("Not saved", the
phone keeps it) within the documented wait, the ones after it at once rather than each
after a wait of its own, and the first tap after the database is back is saved.
(The database goes through a relay that is cut, as a server that stops and starts.)"""

import time

import pytest
from conftest import HTMX, create_match, read_pos
from postgresql import Relay

from scorekeeper.storage.postgres import POOL_WAIT

pytestmark = pytest.mark.postgresql


def test_taps_with_the_database_gone_are_refused_at_once_and_saved_once_it_is_back(
        app_factory, postgresql_database, postgresql_cluster, tmp_path):
    relay = Relay(postgresql_cluster, str(tmp_path / "relay"))
    client = app_factory(database=relay.url(postgresql_database)).test_client()
    url = create_match(client)
    tap = {"pos": read_pos(client.get(url).text), "seat": "0"}
    relay.cut()
    waits = []
    for _ in range(4):
        began = time.monotonic()
        refused = client.post(url + "/start", data=tap, headers=HTMX)
        waits.append(time.monotonic() - began)
        assert refused.status_code == 503 and "Not saved" in refused.text
    assert waits[0] < POOL_WAIT + 2 and max(waits[1:]) < POOL_WAIT / 2, waits
    relay.restore()
    deadline = time.monotonic() + 15
    while (saved := client.post(url + "/start", data=tap, headers=HTMX)).status_code == 503:
        assert time.monotonic() < deadline, "the database back, taps still refused"
        time.sleep(0.1)
    assert saved.status_code == 200 and read_pos(client.get(url).text) == tap["pos"] + 1
