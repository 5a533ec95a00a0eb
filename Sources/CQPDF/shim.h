// qpdf's C API (Debian's libqpdf-dev): it reports errors by return code and keeps them on the
// qpdf_data handle, so nothing unwinds through Swift frames.
#include <qpdf/qpdf-c.h>
