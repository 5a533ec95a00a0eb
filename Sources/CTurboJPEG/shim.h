// libjpeg-turbo's TurboJPEG API (Debian's libturbojpeg0-dev). It reports errors by return
// code, so no setjmp/longjmp crosses Swift frames.
#include <turbojpeg.h>
