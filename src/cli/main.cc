// Thin entry point: everything lives in profdiff_cli so tests can drive it in-process.
#include "profdiff/cli/app.h"

int main(int argc, char** argv) { return profdiff::cli::Main(argc, argv); }
