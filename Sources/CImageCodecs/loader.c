#include "loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

void vcodec_copy(char *buffer, size_t size, const char *text) {
    if (size == 0) return;
    snprintf(buffer, size, "%s", text ? text : "");
}

void vcodec_fail(vcodec_status *status, int code, const char *message) {
    status->code = code ? code : -1;
    vcodec_copy(status->message, sizeof status->message, message);
}

void *vcodec_open(vcodec_library *library, const char *const *sonames) {
    char tried[192] = "";
    for (const char *const *name = sonames; *name; name++) {
        // RTLD_LOCAL: the library's symbols never replace another library's of the same name.
        void *handle = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
        if (handle) return handle;
        size_t used = strlen(tried);
        snprintf(tried + used, sizeof tried - used, "%s%s", used ? ", " : "", *name);
    }
    snprintf(library->error, sizeof library->error, "cannot load %s", tried);
    library->loaded = 0;
    return NULL;
}

void *vcodec_symbol(vcodec_library *library, void *handle, const char *name) {
    void *symbol = dlsym(handle, name);
    if (!symbol && library->error[0] == 0) {
        snprintf(library->error, sizeof library->error, "the loaded library lacks %s", name);
    }
    return symbol;
}
