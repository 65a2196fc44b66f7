/* libmosquitto, the MQTT client library, for the MQTT input. Its error codes,
 * options and connack codes are enums and import as they are; MQTT_PROTOCOL_V311
 * is a macro, re-exported as a constant. */
#include <mosquitto.h>
static const int CMOSQ_PROTOCOL_V311 = MQTT_PROTOCOL_V311;
/* The log level of libmosquitto's error messages (OpenSSL's reasons among them). */
static const int CMOSQ_LOG_ERR = MOSQ_LOG_ERR;
