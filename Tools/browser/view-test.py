#!/usr/bin/env python3
"""The page `stint view` writes, tested in a real browser (docs/decisions/0011-html-replay-viewer.md, step 2).

    Tools/browser/view-test.py STINT OUTPUT_DIR

Writes the page of a copy of Events/sample/log, opens it from file:// in headless Chromium (Debian's
`chromium` and `chromium-driver`, `selenium` from PyPI) and fails unless: the page loads with no console error
and no network request; the scrubber reaches every point, one step at a time, and the keys move it
(Home, End, the arrows); at five points each inline SVG is the one `stint widget --format svg --at` prints,
as published and with --as-computed (the page's copy byte for byte, and the browser's DOM of it equal to the
DOM of widget's output); the
fingerprint is the SHA-256 of `stint snapshot --at`; screenshots at two points differ. The screenshots stay
in OUTPUT_DIR. Exits 0 with "skipped: …" on standard error when the browser or selenium is missing.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NOW = "2026-11-26T12:00:00.000Z"


def skip(why):
    print(f"skipped: {why}; install them with 'apt-get install -y chromium chromium-driver' and "
          "'python3 -m pip install selenium' (.ci/run does)", file=sys.stderr)
    sys.exit(0)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: Tools/browser/view-test.py STINT OUTPUT_DIR")
    stint, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        skip("no chromium or chromedriver on PATH")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys
    except ImportError:
        skip("no selenium for python3")

    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="stint-view-")
    log = os.path.join(work, "log")
    shutil.copytree(os.path.join(ROOT, "Events/sample/log"), log)
    env = dict(os.environ, STINT_LOG=log, STINT_NOW=NOW, NO_COLOR="1")

    def stint_output(*arguments):
        result = subprocess.run([stint, *arguments], env=env, capture_output=True)
        if result.returncode != 0:
            sys.exit(f"stint {' '.join(arguments)} failed: {result.stderr.decode()}")
        return result.stdout

    page = os.path.join(out, "page.html")
    stint_output("view", "--out", page)

    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1100"):
        options.add_argument(argument)
    options.binary_location = browser
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    session = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    failures = []

    def check(condition, message):
        if not condition:
            failures.append(message)
            print(f"FAIL {message}", file=sys.stderr)

    try:
        url = "file://" + page
        session.get(url)
        body = session.find_element(By.TAG_NAME, "body")
        data = json.loads(session.execute_script("return document.getElementById('stint-data').textContent"))
        points = data["points"]
        count = len(points)
        check(count == 38, f"the sample's 38 points, not {count}")

        def position():
            return session.find_element(By.ID, "position").text

        def shown():
            return session.execute_script("return Number(document.getElementById('scrubber').value)")

        check(position() == f"{count} / {count}", f"the page opens at the last point, not {position()}")
        # The keys, then every point one step at a time.
        body.send_keys(Keys.HOME)
        check(position() == f"1 / {count}", f"Home goes to the first point, not {position()}")
        body.send_keys(Keys.END)
        check(position() == f"{count} / {count}", f"End goes to the last point, not {position()}")
        body.send_keys(Keys.HOME)
        titles = set()
        for index in range(count):
            check(shown() == index, f"step {index}: the scrubber is at {shown()}")
            check(position() == f"{index + 1} / {count}", f"step {index}: {position()}")
            title = session.find_element(By.ID, "point-title").text
            check(title == points[index]["local"], f"step {index}: the title {title!r}")
            titles.add(title)
            body.send_keys(Keys.ARROW_RIGHT)
        check(shown() == count - 1, "Right at the last point stays there")
        body.send_keys(Keys.ARROW_LEFT)
        check(shown() == count - 2, "Left steps back")
        session.find_element(By.ID, "first").click()
        check(shown() == 0, "the First button")

        # At five points: the widgets and the fingerprint.
        for index in (0, 9, 19, 28, count - 1):
            session.execute_script("var s = document.getElementById('scrubber'); s.value = arguments[0];"
                                   "s.dispatchEvent(new Event('input'));", index)
            point = points[index]
            for mode, flag in (("widgets", []), ("computed", ["--as-computed"])):
                session.find_element(By.ID, "as-published" if mode == "widgets" else "as-computed").click()
                for slot, label in enumerate(data["slots"]):
                    family, _, period = label.partition(" ")
                    arguments = ["widget", "--family", family, "--format", "svg", "--at", point["at"], *flag]
                    if period:
                        arguments += ["--period", period.strip("()")]
                    expected = stint_output(*arguments).decode()
                    svg = point[mode][slot]
                    check(svg is not None and data["svgs"][svg] == expected,
                          f"{label} {mode} at {point['at']}: the page's SVG is widget's, byte for byte")
                    same = session.execute_script(
                        "var holder = document.querySelectorAll('#widgets .svg')[arguments[0]].shadowRoot;"
                        "var parsed = document.createElement('template'); parsed.innerHTML = arguments[1];"
                        "return holder.innerHTML === parsed.innerHTML && holder.querySelector('svg') !== null;",
                        slot, expected)
                    check(same, f"{label} {mode} at {point['at']}: the SVG on screen is widget's")
            # What the batches changed, and each event's place in the chain, as the data says.
            shown_changes = session.execute_script(
                "return Array.from(document.querySelectorAll('#changes-body tr'))"
                ".map(function (row) { return Array.from(row.cells).map(function (cell) { return cell.textContent; }); });")
            check(shown_changes == [[c["what"], c["before"], c["after"]] for c in point["changes"]],
                  f"the changes at {point['at']} are the page's data")
            chains = session.execute_script(
                "return Array.from(document.querySelectorAll('#events-body td.chain')).map(function (c) { return c.textContent; });")
            check(chains == [event["chain"] for event in point["events"]], f"the chain column at {point['at']}")
            snapshot = stint_output("snapshot", "--at", point["at"])
            fingerprint = session.find_element(By.ID, "point-fingerprint").text
            check(fingerprint == hashlib.sha256(snapshot).hexdigest(),
                  f"the fingerprint at {point['at']} is sha256sum of snapshot --at")

        # Two screenshots that differ.
        shots = []
        for index in (0, count - 1):
            session.execute_script("var s = document.getElementById('scrubber'); s.value = arguments[0];"
                                   "s.dispatchEvent(new Event('input'));", index)
            path = os.path.join(out, f"point-{index + 1}.png")
            session.save_screenshot(path)
            with open(path, "rb") as file:
                shots.append(file.read())
        check(shots[0] != shots[1], "the screenshots of the first and the last point differ")

        # No console error, no request but the page itself.
        errors = [entry for entry in session.get_log("browser") if entry["level"] in ("SEVERE", "ERROR")]
        check(not errors, f"console errors: {errors}")
        requests = []
        for entry in session.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] == "Network.requestWillBeSent":
                requests.append(message["params"]["request"]["url"])
        check(requests and all(request == url for request in requests), f"requests other than the page: {requests}")
    finally:
        session.quit()
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        sys.exit(f"view-test: {len(failures)} check(s) failed")
    print(f"view-test: the page of {count} points passed in Chromium; screenshots in {out}")


if __name__ == "__main__":
    main()
