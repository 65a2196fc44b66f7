/*
 * touch-inject: a touch screen made with uinput, for the e2e tests. It
 * reports as the kernel's touch drivers do: multitouch protocol B (slots,
 * tracking ids, BTN_TOUCH, INPUT_PROP_DIRECT), as the Raspberry Pi 7"
 * display's ft5x06 does, or with --single, single touch (ABS_X/ABS_Y,
 * BTN_TOUCH, ABS_PRESSURE), as ads7846 SPI panels do.
 *
 * Usage: touch-inject [--single] [--max X,Y] [--wait MS] STROKE...
 *   STROKE  x1,y1:x2,y2:MS  a finger down at (x1,y1), moved in steps of
 *           20 ms to (x2,y2) over MS milliseconds, then lifted; 300 ms
 *           between strokes. Coordinates are the device's (0..X, 0..Y).
 *   --wait  milliseconds between creating the device and the first stroke
 *           (for the reader to find it), and after the last before the
 *           device is destroyed.
 */
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static int fd;
static int single;

static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0) {}
}

static void emit(int type, int code, int value) {
    struct input_event e;
    memset(&e, 0, sizeof e);
    e.type = type;
    e.code = code;
    e.value = value;
    if (write(fd, &e, sizeof e) != sizeof e) { perror("touch-inject: write"); exit(1); }
}

static void at(int x, int y, int first) {
    if (single) {
        emit(EV_ABS, ABS_X, x);
        emit(EV_ABS, ABS_Y, y);
        if (first) { emit(EV_ABS, ABS_PRESSURE, 200); emit(EV_KEY, BTN_TOUCH, 1); }
    } else {
        emit(EV_ABS, ABS_MT_SLOT, 0);
        if (first) emit(EV_ABS, ABS_MT_TRACKING_ID, 1);
        emit(EV_ABS, ABS_MT_POSITION_X, x);
        emit(EV_ABS, ABS_MT_POSITION_Y, y);
        if (first) emit(EV_KEY, BTN_TOUCH, 1);
        emit(EV_ABS, ABS_X, x);
        emit(EV_ABS, ABS_Y, y);
    }
    emit(EV_SYN, SYN_REPORT, 0);
}

static void lift(void) {
    if (single) {
        emit(EV_ABS, ABS_PRESSURE, 0);
    } else {
        emit(EV_ABS, ABS_MT_SLOT, 0);
        emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
    }
    emit(EV_KEY, BTN_TOUCH, 0);
    emit(EV_SYN, SYN_REPORT, 0);
}

static void axis(int code, int max) {
    struct uinput_abs_setup a;
    memset(&a, 0, sizeof a);
    a.code = code;
    a.absinfo.maximum = max;
    if (ioctl(fd, UI_ABS_SETUP, &a) < 0) { perror("touch-inject: UI_ABS_SETUP"); exit(1); }
}

int main(int argc, char **argv) {
    int maxx = 799, maxy = 479, i = 1;
    long wait = 1000;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--single")) single = 1;
        else if (!strcmp(argv[i], "--max") && i + 1 < argc) sscanf(argv[++i], "%d,%d", &maxx, &maxy);
        else if (!strcmp(argv[i], "--wait") && i + 1 < argc) wait = atol(argv[++i]);
        else { fprintf(stderr, "touch-inject: unknown option %s\n", argv[i]); return 2; }
    }
    fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK);
    if (fd < 0) { perror("touch-inject: /dev/uinput"); return 1; }
    ioctl(fd, UI_SET_EVBIT, EV_SYN);
    ioctl(fd, UI_SET_EVBIT, EV_KEY);
    ioctl(fd, UI_SET_EVBIT, EV_ABS);
    ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH);
    ioctl(fd, UI_SET_ABSBIT, ABS_X);
    ioctl(fd, UI_SET_ABSBIT, ABS_Y);
    axis(ABS_X, maxx);
    axis(ABS_Y, maxy);
    if (single) {
        ioctl(fd, UI_SET_ABSBIT, ABS_PRESSURE);
        axis(ABS_PRESSURE, 255);
    } else {
        ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT);
        ioctl(fd, UI_SET_ABSBIT, ABS_MT_SLOT);
        ioctl(fd, UI_SET_ABSBIT, ABS_MT_TRACKING_ID);
        ioctl(fd, UI_SET_ABSBIT, ABS_MT_POSITION_X);
        ioctl(fd, UI_SET_ABSBIT, ABS_MT_POSITION_Y);
        axis(ABS_MT_SLOT, 4);
        axis(ABS_MT_TRACKING_ID, 65535);
        axis(ABS_MT_POSITION_X, maxx);
        axis(ABS_MT_POSITION_Y, maxy);
    }
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = 0x1234;
    setup.id.product = single ? 0x7846 : 0x5406;
    snprintf(setup.name, sizeof setup.name, "paneld-e2e %s", single ? "ads7846" : "ft5x06");
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0 || ioctl(fd, UI_DEV_CREATE) < 0) {
        perror("touch-inject: UI_DEV_CREATE");
        return 1;
    }
    sleep_ms(wait);
    for (; i < argc; i++) {
        int x1, y1, x2, y2, ms;
        if (sscanf(argv[i], "%d,%d:%d,%d:%d", &x1, &y1, &x2, &y2, &ms) != 5) {
            fprintf(stderr, "touch-inject: bad stroke %s (x1,y1:x2,y2:MS)\n", argv[i]);
            return 2;
        }
        int steps = ms / 20 > 0 ? ms / 20 : 1;
        at(x1, y1, 1);
        for (int s = 1; s <= steps; s++) {
            sleep_ms(ms / steps);
            at(x1 + (x2 - x1) * s / steps, y1 + (y2 - y1) * s / steps, 0);
        }
        lift();
        sleep_ms(300);
    }
    sleep_ms(wait);
    ioctl(fd, UI_DEV_DESTROY);
    close(fd);
    return 0;
}
