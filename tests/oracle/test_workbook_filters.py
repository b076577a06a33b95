"""A workbook that filters (issue 13, part 2): every sheet with a header row (row 3, under the banners)
has an autofilter over the header and the data rows, its panes frozen below the header and prints
landscape, one page wide, with the header row on every page, and every text cell of several lines
wraps in a row tall enough for its lines (in the default mode a call stack counts at most 3 lines),
in the default mode and under --reference-compat (cell
values are pinned by the other oracle tests). The default mode also widens text columns to their
longest line and wraps a banner longer than its merged columns in a row 1 tall enough for it;
--reference-compat keeps the reference's widths and one-line banners. Read back with openpyxl.

Runs on the bundled profiles in tests/data; the NPU-vs-NPU corpus pair (every comparison, many
sheets) is added when ../shared is present.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import oracle_util as u  # noqa: E402

try:
    import openpyxl  # noqa: F401  (Debian: python3-openpyxl)
    from openpyxl.utils import get_column_letter
except ImportError:
    print("SKIP: openpyxl is not installed")
    sys.exit(u.SKIP)

DATA = os.path.join(os.path.abspath(u.SOURCE_DIR), "tests", "data")
PAIRS = [(os.path.join(DATA, "kineto_resnet50_v100/worker0.1623143089861.pt.trace.json.gz"),
          os.path.join(DATA, "ascend_910b_alexnet/rank0_ascend_pt")),
         (os.path.join(DATA, "kineto_h100_tiny/before_fix_trace.json"),
          os.path.join(DATA, "ascend_trace_view/trace_view.json")),
         (os.path.join(DATA, "kineto_h100_tiny/before_fix_trace.json"),
          os.path.join(DATA, "kineto_h100_tiny/after_fix_trace.json"))]
NPU_PAIR = (os.path.join(u.CORPUS, "msinsight_pt_text_2025_level1/rank0_ascend_pt"),
            os.path.join(u.CORPUS, "msinsight_pt_text_2025_level1/rank1_ascend_pt"))
MODES = {"default": [], "compat": ["--reference-compat"]}
WIDENED = []  # per pair: columns the default mode made wider than the reference's
WRAPPED = {"cells": 0, "banners": 0, "stacks": 0}  # multi-line cells checked; banners the default mode wrapped
POINTS_PER_LINE, MAX_ROW_POINTS = 15, 409


def header_width(ws):
    """The number of header cells in row 3, or 0 when the sheet has no header row."""
    row = [c.value for c in ws[3]] if ws.max_row >= 3 else []
    while row and row[-1] in (None, ""):
        row.pop()
    return len(row)


CALL_STACK_LINES = 3  # kCallStackRowLines: the most lines a call stack makes its row tall (default mode)


def check_multiline_cells(where, ws, failures, mode):
    """Each text cell of several lines wraps, and its row is tall enough for its longest cell. In the
    default mode a call stack counts at most CALL_STACK_LINES lines (issue 34: ModuleCompareStatistic
    rows dozens of lines tall whose visible cells hold one line), and such a row is no taller."""
    header = [c.value for c in ws[3]] if ws.max_row >= 3 else []
    for row in ws.iter_rows(min_row=4):
        need, capped = 1, False
        others = 1  # the lines of the other cells, wrapped at their columns' width as the writer counts them
        for i, c in enumerate(row):
            if not isinstance(c.value, str):
                continue
            n = str(c.value).count("\n") + 1
            if mode == "default" and i < len(header) and "Call Stack" in str(header[i] or "") and n > CALL_STACK_LINES:
                n, capped = CALL_STACK_LINES, True
                WRAPPED["stacks"] += 1
            elif "\n" in c.value:
                width = max(1, int((ws.column_dimensions[c.column_letter].width or 8.43) - 0.71))
                others = max(others, sum(max(1, -(-len(line) // width)) for line in c.value.split("\n")))
            need = max(need, n)
        if need < 2:
            continue
        r = row[0].row
        want = min(MAX_ROW_POINTS, POINTS_PER_LINE * need)
        height = ws.row_dimensions[r].height
        if height is None or height < want - 1e-6:
            failures.append(f"{where} row {r}: {need} lines in a row of height {height}, want {want}")
        if capped and height is not None and height > POINTS_PER_LINE * max(need, others) + 1e-6:
            failures.append(f"{where} row {r}: a call stack made the row {height} points tall, want at most {want}")
        for c in row:
            if isinstance(c.value, str) and "\n" in c.value:
                WRAPPED["cells"] += 1
                if not c.alignment.wrap_text:
                    failures.append(f"{where} {c.coordinate}: a multi-line cell that does not wrap")


def merged_width(ws, cell_range):
    return sum(ws.column_dimensions[get_column_letter(c)].width or 8.43
               for c in range(cell_range.min_col, cell_range.max_col + 1))


def check_banners(where, ws, mode, failures):
    """Default mode: a banner longer than its merged columns wraps, row 1 tall enough. Compat: one line."""
    height = ws.row_dimensions[1].height
    for cell_range in ws.merged_cells.ranges:
        if cell_range.min_row != 1:
            continue
        cell = ws.cell(1, cell_range.min_col)
        text = str(cell.value or "")
        if mode == "compat":
            if cell.alignment.wrap_text or height is not None:
                failures.append(f"{where}: compat banner {cell.coordinate} wraps or row 1 has height {height}")
            continue
        lines = -(-len(text) * 1.1 // merged_width(ws, cell_range))
        if lines < 2:
            continue
        WRAPPED["banners"] += 1
        if not cell.alignment.wrap_text:
            failures.append(f"{where}: banner {cell.coordinate} of {len(text)} characters does not wrap")
        if height is None or height < min(MAX_ROW_POINTS, POINTS_PER_LINE * lines) - 1e-6:
            failures.append(f"{where}: banner of ~{lines:.0f} lines in row 1 of height {height}")


def check_sheet(where, ws, failures, mode):
    n = header_width(ws)
    if n == 0:
        return False
    check_multiline_cells(where, ws, failures, mode)
    check_banners(where, ws, mode, failures)
    want = f"A3:{get_column_letter(n)}{ws.max_row}"
    if ws.auto_filter.ref != want:
        failures.append(f"{where}: autofilter {ws.auto_filter.ref!r} != {want!r}")
    if ws.freeze_panes != "A4":
        failures.append(f"{where}: frozen panes {ws.freeze_panes!r} != 'A4'")
    # Printing: landscape, one page wide, the header row repeated on every page.
    setup = ws.page_setup
    if setup.orientation != "landscape":
        failures.append(f"{where}: printed {setup.orientation!r}, not landscape")
    if not ws.sheet_properties.pageSetUpPr or not ws.sheet_properties.pageSetUpPr.fitToPage or \
            str(setup.fitToWidth or 1) != "1" or str(setup.fitToHeight) != "0":
        failures.append(f"{where}: not fit to one page wide (fitToWidth {setup.fitToWidth}, "
                        f"fitToHeight {setup.fitToHeight})")
    if ws.print_title_rows not in ("3:3", "$3:$3"):
        failures.append(f"{where}: print title rows {ws.print_title_rows!r} != '3:3'")
    return True


def run_pair(base, comp, failures):
    d = u.tmpdir()
    books = {}
    for mode, flags in MODES.items():
        out = os.path.join(d, f"{mode}.xlsx")
        rc, _, err = u.run_profdiff(["compare", "-bp", base, "-d", comp, "-o", out, "-q"] + flags)
        if rc != 0:
            failures.append(f"{base} vs {comp} ({mode}): exit {rc}: {err}")
            return 0
        books[mode] = u.read_xlsx(out)
    widened = 0
    for name, ws in books["default"].items():
        if name == "__wb__" or name not in books["compat"]:
            continue
        for letter, dim in ws.column_dimensions.items():
            ref = books["compat"][name].column_dimensions[letter].width
            if dim.width is None or ref is None:
                continue
            if dim.width < ref - 1e-6 or dim.width > max(ref, 80.72):
                failures.append(f"{name} column {letter}: default width {dim.width}, compat {ref}")
            widened += dim.width > ref + 1e-6
    WIDENED.append(widened)
    checked = 0
    for mode, sheets in books.items():
        for name, ws in sheets.items():
            if name == "__wb__":
                continue
            checked += check_sheet(f"{os.path.basename(comp)} {mode} sheet {name}", ws, failures, mode)
    return checked


def main():
    failures = []
    pairs = list(PAIRS)
    if os.path.isdir(u.CORPUS):
        pairs.append(NPU_PAIR)
    checked = sum(run_pair(b, c, failures) for b, c in pairs)
    if checked < 4:
        failures.append(f"only {checked} sheets with a header were checked")
    # Real names are longer than the reference's 30-character name columns: the default mode widens them.
    if not any(WIDENED):
        failures.append("the default mode widened no column (text columns fit their longest line)")
    if os.path.isdir(u.CORPUS) and WRAPPED["stacks"] == 0:
        failures.append("no call stack longer than 3 lines: the capped row heights went unchecked")
    if WRAPPED["cells"] == 0 or WRAPPED["banners"] == 0:
        failures.append(f"nothing to check: {WRAPPED} (the bundled pairs have kernel lists and long paths)")
    u.finish(failures, f"OK: {checked} sheets filter and freeze their header; {WRAPPED['cells']} multi-line "
                       f"cells wrap in tall rows; {WRAPPED['banners']} long banners wrap (default mode)")


if __name__ == "__main__":
    main()
