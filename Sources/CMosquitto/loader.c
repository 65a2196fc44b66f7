/* libmosquitto opened at run time: see include/CMosquitto.h. */
#include "CMosquitto.h"

#include <dlfcn.h>
#include <stdio.h>

/* Every function paneld calls, as (name in libmosquitto without "mosquitto_"). */
#define CMOSQ_FUNCTIONS(X)                                                                                   \
    X(lib_init)                                                                                              \
    X(lib_cleanup)                                                                                           \
    X(new)                                                                                                   \
    X(destroy)                                                                                               \
    X(int_option)                                                                                            \
    X(username_pw_set)                                                                                       \
    X(tls_set)                                                                                               \
    X(user_data_set)                                                                                         \
    X(connect_callback_set)                                                                                  \
    X(log_callback_set)                                                                                      \
    X(message_callback_set)                                                                                  \
    X(connect_async)                                                                                         \
    X(reconnect_async)                                                                                       \
    X(disconnect)                                                                                            \
    X(subscribe)                                                                                             \
    X(publish)                                                                                               \
    X(socket)                                                                                                \
    X(loop_read)                                                                                             \
    X(loop_write)                                                                                            \
    X(loop_misc)                                                                                             \
    X(want_write)                                                                                            \
    X(strerror)                                                                                              \
    X(connack_string)                                                                                        \
    X(reason_string)                                                                                         \
    X(connect_bind_v5)                                                                                       \
    X(property_add_int32)                                                                                    \
    X(property_free_all)

/* The pointers, each typed as <mosquitto.h> declares the function. */
struct cmosq_api {
#define CMOSQ_POINTER(name) __typeof__(mosquitto_##name) *name;
    CMOSQ_FUNCTIONS(CMOSQ_POINTER)
#undef CMOSQ_POINTER
};
static struct cmosq_api api;

int cmosq_load(const char *library, char *message, size_t size) {
    /* dlopen of a library already open only counts a reference; the pointers in
     * `api` change only when every function resolved. */
    struct cmosq_api found;
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        snprintf(message, size, "%s", dlerror());
        return -1;
    }
#define CMOSQ_RESOLVE(name)                                                                                  \
    found.name = (__typeof__(mosquitto_##name) *)dlsym(handle, "mosquitto_" #name);                           \
    if (found.name == NULL) {                                                                                  \
        snprintf(message, size, "%s has no mosquitto_" #name, library);                                      \
        dlclose(handle);                                                                                     \
        return -1;                                                                                           \
    }
    CMOSQ_FUNCTIONS(CMOSQ_RESOLVE)
#undef CMOSQ_RESOLVE
    api = found;
    return 0;
}

int cmosq_lib_init(void) { return api.lib_init(); }
int cmosq_lib_cleanup(void) { return api.lib_cleanup(); }
struct mosquitto *cmosq_new(const char *id, bool clean_session, void *obj) { return api.new(id, clean_session, obj); }
void cmosq_destroy(struct mosquitto *mosq) { api.destroy(mosq); }
int cmosq_int_option(struct mosquitto *mosq, enum mosq_opt_t option, int value) {
    return api.int_option(mosq, option, value);
}
int cmosq_username_pw_set(struct mosquitto *mosq, const char *username, const char *password) {
    return api.username_pw_set(mosq, username, password);
}
int cmosq_tls_set(struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile,
                  const char *keyfile, int (*pw_callback)(char *buf, int size, int rwflag, void *userdata)) {
    return api.tls_set(mosq, cafile, capath, certfile, keyfile, pw_callback);
}
void cmosq_user_data_set(struct mosquitto *mosq, void *obj) { api.user_data_set(mosq, obj); }
void cmosq_connect_callback_set(struct mosquitto *mosq, void (*on_connect)(struct mosquitto *, void *, int)) {
    api.connect_callback_set(mosq, on_connect);
}
void cmosq_log_callback_set(struct mosquitto *mosq, void (*on_log)(struct mosquitto *, void *, int, const char *)) {
    api.log_callback_set(mosq, on_log);
}
void cmosq_message_callback_set(struct mosquitto *mosq,
                                void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *)) {
    api.message_callback_set(mosq, on_message);
}
int cmosq_connect_async(struct mosquitto *mosq, const char *host, int port, int keepalive) {
    return api.connect_async(mosq, host, port, keepalive);
}
int cmosq_reconnect_async(struct mosquitto *mosq) { return api.reconnect_async(mosq); }
int cmosq_disconnect(struct mosquitto *mosq) { return api.disconnect(mosq); }
int cmosq_subscribe(struct mosquitto *mosq, int *mid, const char *sub, int qos) {
    return api.subscribe(mosq, mid, sub, qos);
}
int cmosq_publish(struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload, int qos,
                  bool retain) {
    return api.publish(mosq, mid, topic, payloadlen, payload, qos, retain);
}
int cmosq_socket(struct mosquitto *mosq) { return api.socket(mosq); }
int cmosq_loop_read(struct mosquitto *mosq, int max_packets) { return api.loop_read(mosq, max_packets); }
int cmosq_loop_write(struct mosquitto *mosq, int max_packets) { return api.loop_write(mosq, max_packets); }
int cmosq_loop_misc(struct mosquitto *mosq) { return api.loop_misc(mosq); }
bool cmosq_want_write(struct mosquitto *mosq) { return api.want_write(mosq); }
const char *cmosq_strerror(int mosq_errno) { return api.strerror(mosq_errno); }
const char *cmosq_connack_string(int connack_code) { return api.connack_string(connack_code); }
const char *cmosq_reason_string(int reason_code) { return api.reason_string(reason_code); }
int cmosq_connect_bind_v5(struct mosquitto *mosq, const char *host, int port, int keepalive, const char *bind_address,
                          const mosquitto_property *properties) {
    return api.connect_bind_v5(mosq, host, port, keepalive, bind_address, properties);
}
int cmosq_property_add_int32(mosquitto_property **proplist, int identifier, uint32_t value) {
    return api.property_add_int32(proplist, identifier, value);
}
void cmosq_property_free_all(mosquitto_property **properties) { api.property_free_all(properties); }
