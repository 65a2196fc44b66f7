#ifndef PANELD_BUILD_INFO_H
#define PANELD_BUILD_INFO_H
/* The package version and the git revision the binary was built from, set by
 * Package.swift (C defines, since a Swift define carries no value). */
extern const char *const paneld_version;
extern const char *const paneld_git_revision;
#endif
