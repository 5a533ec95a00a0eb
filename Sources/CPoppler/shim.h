// Poppler's GLib API renders PDF pages with cairo (Debian's libpoppler-glib-dev). Errors come
// back as GError values, so nothing unwinds through Swift frames.
#include <poppler.h>
#include <cairo.h>
