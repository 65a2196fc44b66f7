// What console blanking on /dev/tty0 needs, step by step, as paneld's fbdev output
// does it (FBDevOutput.takeConsole): open the console, KDGETMODE, write the
// hide-cursor escape, KDSETMODE KD_GRAPHICS (then back to the mode it had).
// Prints one line per step: "open-rdwr ok", "kdsetmode EPERM", ...
// Built statically on the host by Tests/systemd-boot/run.sh and run in the guest
// under systemd-run with the unit's sandbox and candidate additions.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/kd.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static void report(const char *step, int ok) {
    printf("%s %s\n", step, ok ? "ok" : strerrorname_np(errno));
}

int main(void) {
    int fd = open("/dev/tty0", O_RDWR | O_CLOEXEC);
    report("open-rdwr", fd >= 0);
    if (fd >= 0) close(fd);
    fd = open("/dev/tty0", O_WRONLY | O_CLOEXEC);
    report("open-wronly", fd >= 0);
    if (fd < 0) return 1;
    int mode = 0;
    report("kdgetmode", ioctl(fd, KDGETMODE, &mode) == 0);
    report("write-escape", write(fd, "\033[?25l", 6) == 6);
    int set = ioctl(fd, KDSETMODE, KD_GRAPHICS) == 0;
    report("kdsetmode", set);
    if (set) ioctl(fd, KDSETMODE, mode);
    write(fd, "\033[?25h", 6);
    close(fd);
    return set ? 0 : 1;
}
