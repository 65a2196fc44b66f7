#include "PaneldBuildInfo.h"

#ifndef PANELD_VERSION
#define PANELD_VERSION "unknown"
#endif
#ifndef PANELD_GIT_REVISION
#define PANELD_GIT_REVISION "unknown"
#endif

const char *const paneld_version = PANELD_VERSION;
const char *const paneld_git_revision = PANELD_GIT_REVISION;
