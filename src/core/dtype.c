/*
 * dtype and op tables: validity, sizes, names and parsing, all generated
 * from RT_FOR_EACH_DTYPE / RT_FOR_EACH_OP so the lists stay the only truth.
 */
#include <string.h>

#include "rt_internal.h"

/* Enums may be handed to us as any int (a cast, a bad file); compare as int
   so an out-of-range value is caught whatever the enum's underlying type. */
bool rt__dtype_valid(rt_dtype d) {
    return (int)d >= 0 && (int)d < (int)RT_DTYPE_COUNT;
}

bool rt__op_valid(rt_op op) {
    return (int)op >= 0 && (int)op < (int)RT_OP_COUNT;
}

bool rt__dtype_is_float(rt_dtype d) {
    switch (d) {
#define RT__DTYPE_IS_FLOAT(e, suffix, size, is_float, is_signed)                                   \
    case e:                                                                                        \
        return is_float;
        RT_FOR_EACH_DTYPE(RT__DTYPE_IS_FLOAT)
#undef RT__DTYPE_IS_FLOAT
    case RT_DTYPE_COUNT:
        break;
    }
    return false;
}

size_t rt_dtype_size(rt_dtype dtype) {
    switch (dtype) {
#define RT__DTYPE_SIZE(e, suffix, size, is_float, is_signed)                                       \
    case e:                                                                                        \
        return size;
        RT_FOR_EACH_DTYPE(RT__DTYPE_SIZE)
#undef RT__DTYPE_SIZE
    case RT_DTYPE_COUNT:
        break;
    }
    return 0;
}

const char *rt_dtype_name(rt_dtype dtype) {
    switch (dtype) {
#define RT__DTYPE_NAME(e, suffix, size, is_float, is_signed)                                       \
    case e:                                                                                        \
        return #suffix;
        RT_FOR_EACH_DTYPE(RT__DTYPE_NAME)
#undef RT__DTYPE_NAME
    case RT_DTYPE_COUNT:
        break;
    }
    return NULL;
}

const char *rt_op_name(rt_op op) {
    switch (op) {
#define RT__OP_NAME(e, name)                                                                       \
    case e:                                                                                        \
        return #name;
        RT_FOR_EACH_OP(RT__OP_NAME)
#undef RT__OP_NAME
    case RT_OP_COUNT:
        break;
    }
    return NULL;
}

rt_status rt_dtype_from_name(const char *name, rt_dtype *dtype) {
    RT_RETURN_IF(name == NULL || dtype == NULL, RT_ERR_NULL_POINTER);
#define RT__DTYPE_PARSE(e, suffix, size, is_float, is_signed)                                      \
    if (strcmp(name, #suffix) == 0) {                                                              \
        *dtype = e;                                                                                \
        return RT_OK;                                                                              \
    }
    RT_FOR_EACH_DTYPE(RT__DTYPE_PARSE)
#undef RT__DTYPE_PARSE
    return RT_ERR_BAD_DTYPE;
}

rt_status rt_op_from_name(const char *name, rt_op *op) {
    RT_RETURN_IF(name == NULL || op == NULL, RT_ERR_NULL_POINTER);
#define RT__OP_PARSE(e, opname)                                                                    \
    if (strcmp(name, #opname) == 0) {                                                              \
        *op = e;                                                                                   \
        return RT_OK;                                                                              \
    }
    RT_FOR_EACH_OP(RT__OP_PARSE)
#undef RT__OP_PARSE
    return RT_ERR_BAD_OP;
}
