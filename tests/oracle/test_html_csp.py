"""The HTML page's Content-Security-Policy allows exactly its own <style> and <script>: their SHA-256
(computed by CMake at build time, issue 34 item 9), recomputed here with Python's hashlib from the
page profdiff wrote. A wrong digest would block the script and the style in every browser.

Uses only the bundled profiles in tests/data, so it runs without ../shared.
"""
import base64
import hashlib
import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
import oracle_util as u  # noqa: E402

DATA = os.path.join(os.path.abspath(u.SOURCE_DIR), "tests", "data")


def source(text):
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def main():
    failures = []
    d = u.tmpdir()
    page_path = os.path.join(d, "r.html")
    rc, _, err = u.run_profdiff(["compare", "-bp", "kineto_h100_tiny/before_fix_trace.json", "-d",
                                 "kineto_h100_tiny/after_fix_trace.json", "--no-xlsx", "-q", "--html", page_path],
                                cwd=DATA)
    if rc != 0:
        u.finish([f"exit {rc}: {err}"])
    with open(page_path, encoding="utf-8") as f:
        page = f.read()
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page)
    styles = re.findall(r"<style>(.*?)</style>", page, re.S)
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    if not csp or len(styles) != 1 or len(scripts) != 1:
        u.finish([f"CSP {bool(csp)}, {len(styles)} <style>, {len(scripts)} inline <script>"])
    policy = dict((p.strip().split(" ", 1) + [""])[:2] for p in csp.group(1).split(";"))
    if policy.get("style-src") != source(styles[0]):
        failures.append(f"style-src {policy.get('style-src')} != {source(styles[0])}")
    if policy.get("script-src") != source(scripts[0]):
        failures.append(f"script-src {policy.get('script-src')} != {source(scripts[0])}")
    u.finish(failures)


if __name__ == "__main__":
    main()
