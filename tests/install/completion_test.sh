#!/usr/bin/env bash
# The bash completion (packaging/bash-completion/profdiff) offers exactly the options of the built
# binary's --help texts, and, where the bash-completion package is installed, completes subcommands,
# options and option values.
#   tests/install/completion_test.sh SOURCE_DIR PROFDIFF_BINARY
set -euo pipefail
src="$(cd "$1" && pwd)"; pd="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
script="$src/packaging/bash-completion/profdiff"
fail() { echo "FAIL: $*" >&2; exit 1; }

options_of() {  # the options a --help text lists (short and long forms), sorted
  grep -oE '^  (-[A-Za-z],|--[A-Za-z][A-Za-z0-9_-]*,)*--?[A-Za-z][A-Za-z0-9_-]*' | sed 's/^  //' | tr ',' '\n' | sort -u
}
listed() {  # the words of one option list in the script, sorted
  bash -c "source '$script' 2>/dev/null || true; printf '%s\n' \$$1" | sort -u
}
# -bp is an alias CLI11 does not list (the help says "(also -bp)").
diff <({ "$pd" compare --help | options_of; echo -bp; } | sort -u) <(listed _profdiff_compare_opts | grep -v '^$') ||
  fail "compare options differ from 'profdiff compare --help' (< help, > completion)"
diff <("$pd" inspect --help | options_of) <(listed _profdiff_inspect_opts | grep -v '^$') ||
  fail "inspect options differ from 'profdiff inspect --help'"
diff <({ "$pd" cluster --help | options_of; echo -bp; } | sort -u) <(listed _profdiff_cluster_opts | grep -v '^$') ||
  fail "cluster options differ from 'profdiff cluster --help' (< help, > completion)"
diff <("$pd" cluster summarize --help | options_of) <(listed _profdiff_summarize_opts | grep -v '^$') ||
  fail "cluster summarize options differ from 'profdiff cluster summarize --help'"
diff <("$pd" --help | options_of) <(listed _profdiff_top_opts | grep -v '^$') ||
  fail "top-level options differ from 'profdiff --help'"

bc=/usr/share/bash-completion/bash_completion
if [[ ! -r "$bc" ]]; then
  echo "option lists checked; completion behaviour not run ($bc absent: apt-get install bash-completion)"
  exit 0
fi
complete_line() {  # complete_line WORD...: COMPREPLY for the line, the last word being completed
  bash -c '
    source "$1"; source "$2"; shift 2
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    _profdiff profdiff "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$bc" "$script" "$@"
}
[[ "$(complete_line profdiff co)" == compare ]] || fail "subcommand: $(complete_line profdiff co)"
[[ "$(complete_line profdiff compare --enable_k)" == --enable_kernel_compare ]] || fail "compare option"
[[ "$(complete_line profdiff compare --format '')" == $'json\ntext' ]] || fail "--format values"
[[ "$(complete_line profdiff compare --color a)" == $'always\nauto' ]] || fail "--color values"
[[ "$(complete_line profdiff inspect --j)" == --json ]] || fail "inspect option"
[[ "$(complete_line profdiff cluster su)" == summarize ]] || fail "cluster subcommand: $(complete_line profdiff cluster su)"
[[ "$(complete_line profdiff cluster summarize --shard-c)" == --shard-count ]] || fail "summarize option"
[[ "$(complete_line profdiff cluster --summ)" == --summaries ]] || fail "cluster --summaries"
cd "$src/tests/data"
[[ "$(complete_line profdiff compare -bp kineto_h100_tiny/be)" == kineto_h100_tiny/before_fix_trace.json ]] ||
  fail "file argument: $(complete_line profdiff compare -bp kineto_h100_tiny/be)"
echo "option lists and completion behaviour checked"
