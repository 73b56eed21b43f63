"""The phone app: a manifest Chromium can install from, a service worker served from the
root, and the address the installed app opens on (the match this phone scored last)."""


def test_the_manifest_names_the_app_and_icons_that_exist(client):
    response = client.get("/manifest.webmanifest")
    assert response.mimetype == "application/manifest+json"
    manifest = response.get_json(force=True)
    assert (manifest["name"], manifest["short_name"]) == ("All Fives scorekeeper", "All Fives")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/resume"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert sizes == {"192x192", "512x512"}
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as picture:
            assert picture.status_code == 200 and picture.data.startswith(b"\x89PNG")


def test_every_page_links_the_manifest_and_the_script_that_registers_the_worker(client):
    page = client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'data-service-worker="/sw.js"' in page


def test_the_service_worker_is_served_from_the_root_and_always_revalidated(client):
    response = client.get("/sw.js")
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    assert 'const OFFLINE = "/offline";' in response.text
    assert 'const STATIC = "/static/";' in response.text
    assert "No connection" in client.get("/offline").text


def test_the_installed_app_opens_on_the_match_this_phone_scored_last(client, new_match):
    assert client.get("/resume").headers["Location"] == "/"
    new_match()
    last = new_match(("Cat", "Dan"))
    assert client.get("/resume").headers["Location"] == last
