// dlopen helpers shared by the codec files.
#ifndef VISAGE_CIMAGECODECS_LOADER_H
#define VISAGE_CIMAGECODECS_LOADER_H

#include "CImageCodecs.h"

/// Opens the first soname that loads; fills `library->error` when none does. Returns the handle or NULL.
void *vcodec_open(vcodec_library *library, const char *const *sonames);
/// Looks up `name`; on failure records it in `library->error`, marks the library unloaded and returns NULL.
void *vcodec_symbol(vcodec_library *library, void *handle, const char *name);
/// Copies a message into a fixed buffer, always terminated.
void vcodec_copy(char *buffer, size_t size, const char *text);
void vcodec_fail(vcodec_status *status, int code, const char *message);

#define VCODEC_LOAD(library, handle, pointer, name) \
    (pointer = (__typeof__(pointer))vcodec_symbol(&(library), (handle), (name)))

#endif
