#!/usr/bin/env python3
"""The HTML report of `navbench check --html` in a real browser, offline.

Runs `navbench check LEVEL --html DIR` (a few rows), then:
  1. every <img src> and <a href> of DIR/index.html names a file inside DIR (no dead link, nothing
     fetched from elsewhere);
  2. headless Chromium (Debian's `chromium`, driven over the DevTools protocol on a pipe: standard
     library only) loads the page with no console error, no exception, no failed load, and every
     image decoded (naturalWidth > 0);
  3. each thumbnail PNG reopens in the viewer (the scenario inside it): exit 0, no error in its log,
     the report's tile set open, and an island row's island selected.
Exit 0 when all hold; 1 with every problem listed. Chromium missing is a failure (navbench.sh
installs it). Usage: html_report_browser_test.py NAVBENCH LEVEL WORKDIR
"""
import html.parser
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

ROWS = 6  # findings with a picture: enough for every kind the default level has, a few seconds


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.imgs, self.hrefs = [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img":
            self.imgs.append(a.get("src") or "")
        if tag == "a" and "href" in a:
            self.hrefs.append(a["href"] or "")


def local_file(base, ref):
    """The file in `base` a relative reference names, or None when it leaves the folder or is remote."""
    u = urllib.parse.urlsplit(ref)
    if u.scheme or u.netloc or not u.path:
        return None
    path = os.path.realpath(os.path.join(base, urllib.parse.unquote(u.path)))
    if os.path.commonpath([path, os.path.realpath(base)]) != os.path.realpath(base):
        return None
    return path


class Chromium:
    """Chromium headless with --remote-debugging-pipe: JSON messages ended by NUL on fds 3 (in) and 4 (out)."""

    def __init__(self, exe, profile):
        self.to_r, self.to_w = os.pipe()
        self.from_r, self.from_w = os.pipe()
        args = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"]

        def fds():
            os.dup2(self.to_r, 3)
            os.dup2(self.from_w, 4)

        self.proc = subprocess.Popen(args, preexec_fn=fds, pass_fds=(3, 4), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(self.to_r)
        os.close(self.from_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        want = self.next_id
        end = time.time() + timeout
        while True:
            m = self.read(end)
            if m is None:
                raise RuntimeError("no answer to " + method + " within %d s" % timeout)
            if m.get("id") == want:
                if "error" in m:
                    raise RuntimeError(method + ": " + json.dumps(m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def read(self, end):
        while b"\0" not in self.buf:
            left = end - time.time()
            if left <= 0 or not select.select([self.from_r], [], [], left)[0]:
                return None
            chunk = os.read(self.from_r, 65536)
            if not chunk:
                return None
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def wait_event(self, method, session, timeout):
        end = time.time() + timeout
        for m in self.events:
            if m.get("method") == method and m.get("sessionId") == session:
                return True
        while True:
            m = self.read(end)
            if m is None:
                return False
            self.events.append(m)
            if m.get("method") == method and m.get("sessionId") == session:
                return True

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_w)
        os.close(self.from_r)


def browser_problems(chromium, index):
    problems = []
    profile = tempfile.mkdtemp(prefix="navbench-chromium-")
    b = Chromium(chromium, profile)
    try:
        target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            b.send(domain + ".enable", session=s)
        b.send("Page.navigate", {"url": "file://" + urllib.request.pathname2url(index)}, session=s)
        if not b.wait_event("Page.loadEventFired", s, 30):
            problems.append("the page did not finish loading within 30 s")
        page = b.send("Runtime.evaluate", {"returnByValue": True, "expression":
                      "JSON.stringify({title: document.title, imgs: Array.from(document.images).map("
                      "i => ({src: i.getAttribute('src'), complete: i.complete, w: i.naturalWidth}))})"},
                      session=s)
        info = json.loads(page["result"]["value"])
        if not info["title"].startswith("navbench check"):
            problems.append("unexpected page title: %r" % info["title"])
        if not info["imgs"]:
            problems.append("no images in the report")
        for i in info["imgs"]:
            if not i["complete"] or i["w"] <= 0:
                problems.append("image %s did not decode (naturalWidth %d)" % (i["src"], i["w"]))
        for m in b.events:
            p = m.get("params", {})
            if m.get("method") == "Runtime.exceptionThrown":
                problems.append("exception: " + json.dumps(p.get("exceptionDetails", {}).get("text")))
            elif m.get("method") == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                problems.append("console error: " + json.dumps([a.get("value") for a in p.get("args", [])]))
            elif m.get("method") == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                problems.append("console error: %s (%s)" % (p["entry"].get("text"), p["entry"].get("url", "")))
            elif m.get("method") == "Network.loadingFailed":
                problems.append("failed to load: %s (%s)" % (p.get("requestId"), p.get("errorText")))
        return problems, info["imgs"]
    finally:
        b.close()
        shutil.rmtree(profile, ignore_errors=True)


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    navbench, level, work = sys.argv[1:]
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("FAIL: no chromium on PATH (Debian's `chromium` package; navbench.sh installs it)")
        return 1
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    report = os.path.join(work, "report")
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", XDG_CONFIG_HOME=os.path.join(work, "config"))
    t0 = time.time()
    r = subprocess.run([navbench, "check", level, "-q", "--html", report, "--html-max", str(ROWS)],
                       env=env, capture_output=True, text=True, timeout=240)
    if r.returncode not in (0, 1) or not os.path.isfile(os.path.join(report, "index.html")):
        print("FAIL: navbench check --html exited %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
        return 1
    print("report: %.1f s" % (time.time() - t0))
    problems = []
    index = os.path.join(report, "index.html")
    links = Links()
    with open(index, encoding="utf-8") as f:
        links.feed(f.read())
    for ref in links.imgs + links.hrefs:
        if ref.startswith("#"):
            continue
        path = local_file(report, ref)
        if path is None:
            problems.append("link outside the report folder: %r" % ref)
        elif not os.path.isfile(path):
            problems.append("dead link: %r" % ref)
    if len(links.imgs) < 2:
        problems.append("only %d images in the report" % len(links.imgs))

    t1 = time.time()
    try:
        bp, imgs = browser_problems(chromium, os.path.abspath(index))
        problems += bp
    except Exception as e:  # a browser that does not answer is a failure, with what it said
        problems.append("chromium: %s" % e)
        imgs = []
    print("browser: %.1f s, %d images" % (time.time() - t1, len(imgs)))

    # Each thumbnail reopens in the viewer: the scenario inside the PNG.
    t2 = time.time()
    for src in links.imgs:
        png = local_file(report, src)
        if not png or not os.path.isfile(png):
            continue
        dump = os.path.join(work, os.path.basename(png) + ".state.json")
        shot = os.path.join(work, os.path.basename(png) + ".reopened.png")
        v = subprocess.run([navbench, png, "--screenshot", shot, "--dump-state", dump, "--size", "320x180"],
                           env=env, capture_output=True, text=True, timeout=120)
        if v.returncode != 0 or not os.path.isfile(dump):
            problems.append("%s does not reopen: exit %d\n%s" % (src, v.returncode, v.stderr[-2000:]))
            continue
        with open(dump, encoding="utf-8") as f:
            st = json.load(f)
        if st.get("logErrors"):
            problems.append("%s reopened with %d errors in the log" % (src, st["logErrors"]))
        if not st.get("nav") or st.get("navPolys", 0) <= 0:
            problems.append("%s reopened without a navmesh" % src)
        if st.get("scenario", {}).get("note", "").startswith("navbench check: islands"):
            focus = st.get("check", {}).get("focus", {})
            if focus.get("kind") != "island":
                problems.append("%s: an island row reopens without its island selected (focus %s)" % (src, focus))
    print("reopened: %.1f s" % (time.time() - t2))

    for p in problems:
        print("FAIL:", p)
    if not problems:
        print("ok: %d images, %d links, no console error, every thumbnail reopens" % (len(links.imgs), len(links.hrefs)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
