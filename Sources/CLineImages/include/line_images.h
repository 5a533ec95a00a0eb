#ifndef SCANTEXT_LINE_IMAGES_H
#define SCANTEXT_LINE_IMAGES_H

// Tesseract 5.3 keeps every text line it recognises as a PNG in memory: ImageData's constructor
// writes the line's Pix with pixWriteMem(IFF_PNG) at zlib's default level and with libpng's
// adaptive row filters, and the LSTM reads it straight back with pixReadMem. The bytes never
// leave the process, so compressing them is wasted work: 5 to 7 % of recognition time on our
// pages and photos.
//
// This target defines png_set_compression_level, the call through which Leptonica sets the
// level of every PNG it writes. Linked into the executable, the definition comes first in the
// dynamic linker's search order and is the one Leptonica calls. On a thread that has switched
// line images to stored, it asks libpng for zlib level 0 and no row filter; everywhere else it
// passes the level through unchanged. PNG is lossless, so the pixels Tesseract reads back, and
// its results, are the same either way.

/// Switches stored (uncompressed, unfiltered) PNG writing on or off for the calling thread.
void scantext_line_images_stored(int on);

/// Whether the calling thread writes stored PNGs now.
int scantext_line_images_are_stored(void);

/// Whether Leptonica's calls reach this definition (1) or libpng's directly (0): the latter
/// happens when the definition was not exported from the executable.
int scantext_line_images_hooked(void);

#endif
