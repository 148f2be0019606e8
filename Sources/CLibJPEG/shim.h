// libjpeg's API (libjpeg62-turbo-dev on Debian). Only CJPEG's C includes it; Swift never sees it.
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>
