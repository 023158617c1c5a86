/*
 * Status names and messages, generated from RT_STATUS_LIST so that adding a
 * status to the list is the only edit needed (libuv's UV_ERRNO_MAP habit).
 */
#include "rt_internal.h"

const char *rt_status_string(rt_status s) {
    switch (s) {
#define RT__STATUS_MESSAGE(name, value, meaning)                                                   \
    case name:                                                                                     \
        return meaning;
        RT_STATUS_LIST(RT__STATUS_MESSAGE)
#undef RT__STATUS_MESSAGE
    }
    /* Not a switch default: -Wswitch then still flags a list/enum mismatch. */
    return "unknown status";
}

const char *rt_status_name(rt_status s) {
    switch (s) {
#define RT__STATUS_NAME(name, value, meaning)                                                      \
    case name:                                                                                     \
        return #name;
        RT_STATUS_LIST(RT__STATUS_NAME)
#undef RT__STATUS_NAME
    }
    return "RT_STATUS_UNKNOWN";
}
