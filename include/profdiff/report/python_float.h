// Python's repr() of a float, for outputs that carry the reference's floats as its Python prints
// them (workbook cells, CSV cells, cluster files).
#pragma once

#include <string>

namespace profdiff::report {

// Shortest round-trip digits; fixed notation when the decimal exponent is in [-4, 16), scientific
// otherwise ("605.0", "840.07675", "1e-05", "1.5e+16"); "nan", "inf", "-inf", "-0.0".
std::string PyFloatRepr(double v);

}  // namespace profdiff::report
