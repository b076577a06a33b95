"""On a terminal narrower than the reference's screen table (190-260 columns), the default mode
prints the summary's layout instead of the table, with a line saying so; the table stays under
--reference-compat and when stdout is a pipe (issue 34, item 6). profdiff runs on a pseudo-terminal
of 100 columns, then of 300 (the table fits: it is printed).

Uses only the bundled profiles in tests/data, so it runs without ../shared.
"""
import errno
import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios

sys.path.insert(0, os.path.dirname(__file__))
import scenario_util as u  # noqa: E402

DATA = os.path.join(os.path.abspath(u.SRC), "tests", "data")
ARGS = ["compare", "-bp", "kineto_h100_tiny/before_fix_trace.json", "-d", "kineto_h100_tiny/after_fix_trace.json",
        "--no-xlsx", "--color", "never"]


def on_terminal(args, columns):
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    p = subprocess.Popen([u.BIN] + args, cwd=DATA, stdout=slave, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError as e:  # EIO: the terminal's other end closed
            if e.errno != errno.EIO:
                raise
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    p.wait()
    return p.returncode, out.decode("utf-8", "replace").replace("\r\n", "\n")


def main():
    if not u.BIN or not os.path.exists(u.BIN):
        sys.exit(f"PROFDIFF_BIN is not set or does not exist: {u.BIN!r}")
    failures = []
    rc, narrow = on_terminal(ARGS, 100)
    if rc != 0 or "Model Profiling Time Distribution" in narrow or "columns wide, wider than this terminal (100)" not in narrow:
        failures.append(f"100 columns: exit {rc}, the table printed or no note:\n{narrow}")
    if "Summary\n" not in narrow or "E2E:" not in narrow:
        failures.append(f"100 columns: no summary:\n{narrow}")
    if any(len(line) > 100 for line in narrow.splitlines()):
        failures.append("100 columns: a line wider than the terminal:\n" + narrow)
    rc, quiet = on_terminal(ARGS + ["-q"], 100)
    if "E2E:" not in quiet:
        failures.append(f"100 columns, -q: the summary is the only layout of the numbers, yet absent:\n{quiet}")
    rc, wide = on_terminal(ARGS, 300)
    if "Model Profiling Time Distribution" not in wide:
        failures.append(f"300 columns: the table fits but is not printed:\n{wide}")
    rc, compat = on_terminal(ARGS + ["--reference-compat"], 100)
    if "Model Profiling Time Distribution" not in compat:
        failures.append(f"--reference-compat on 100 columns: no table:\n{compat}")
    piped = subprocess.run([u.BIN] + ARGS, cwd=DATA, capture_output=True, text=True)
    if "Model Profiling Time Distribution" not in piped.stdout:
        failures.append(f"piped: no table:\n{piped.stdout}")
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
