/* libmosquitto, the MQTT client library, for paneld's MQTT input.
 *
 * paneld does not link libmosquitto: cmosq_load() opens libmosquitto.so.1 the
 * first time a layout configures MQTT, so a daemon without MQTT never maps it
 * (nor the OpenSSL it brings, about 1.7 MB resident). After a successful load the
 * cmosq_* functions call libmosquitto's functions of the same name; before it
 * they must not be called. The types, error codes and options come from
 * <mosquitto.h> and import as they are. */
#ifndef CMOSQUITTO_H
#define CMOSQUITTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <mosquitto.h>
#include <mqtt_protocol.h>

/* MQTT_PROTOCOL_V311, MQTT_PROTOCOL_V5 and MOSQ_LOG_ERR are macros, re-exported as constants. */
static const int CMOSQ_PROTOCOL_V311 = MQTT_PROTOCOL_V311;
static const int CMOSQ_PROTOCOL_V5 = MQTT_PROTOCOL_V5;
static const int CMOSQ_LOG_ERR = MOSQ_LOG_ERR;

/* Opens `library` (e.g. "libmosquitto.so.1") and resolves every function below.
 * Returns 0 when they are ready, or -1 with the reason (dlerror's text) in
 * `message`, truncated to `size` bytes; a failed call leaves an earlier
 * successful load in place. Not thread-safe: paneld calls it from its one loop
 * thread. */
int cmosq_load(const char *library, char *message, size_t size);

int cmosq_lib_init(void);
int cmosq_lib_cleanup(void);
struct mosquitto *cmosq_new(const char *id, bool clean_session, void *obj);
void cmosq_destroy(struct mosquitto *mosq);
int cmosq_int_option(struct mosquitto *mosq, enum mosq_opt_t option, int value);
int cmosq_username_pw_set(struct mosquitto *mosq, const char *username, const char *password);
int cmosq_tls_set(struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile,
                  const char *keyfile, int (*pw_callback)(char *buf, int size, int rwflag, void *userdata));
void cmosq_user_data_set(struct mosquitto *mosq, void *obj);
void cmosq_connect_callback_set(struct mosquitto *mosq, void (*on_connect)(struct mosquitto *, void *, int));
void cmosq_log_callback_set(struct mosquitto *mosq, void (*on_log)(struct mosquitto *, void *, int, const char *));
void cmosq_message_callback_set(struct mosquitto *mosq,
                                void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *));
int cmosq_connect_async(struct mosquitto *mosq, const char *host, int port, int keepalive);
int cmosq_reconnect_async(struct mosquitto *mosq);
int cmosq_disconnect(struct mosquitto *mosq);
int cmosq_subscribe(struct mosquitto *mosq, int *mid, const char *sub, int qos);
int cmosq_publish(struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload, int qos,
                  bool retain);
int cmosq_socket(struct mosquitto *mosq);
int cmosq_loop_read(struct mosquitto *mosq, int max_packets);
int cmosq_loop_write(struct mosquitto *mosq, int max_packets);
int cmosq_loop_misc(struct mosquitto *mosq);
bool cmosq_want_write(struct mosquitto *mosq);
const char *cmosq_strerror(int mosq_errno);
const char *cmosq_connack_string(int connack_code);
const char *cmosq_reason_string(int reason_code);
int cmosq_connect_bind_v5(struct mosquitto *mosq, const char *host, int port, int keepalive, const char *bind_address,
                          const mosquitto_property *properties);
int cmosq_property_add_int32(mosquitto_property **proplist, int identifier, uint32_t value);
void cmosq_property_free_all(mosquitto_property **properties);

#endif
