// zlib streams (RFC 1950) by libdeflate, for the render threads' PDF streams and PNG pixels:
// whole buffers at a time, which is all libdeflate does: at level 1 against zlib's, a caption's
// pixels a fifth quicker and a document's content streams twice as quick, each in fewer bytes
// (docs/decisions.md, "Deflate"). A Node-API module: one instance per thread (its compressors and
// output buffer are the thread's own).
//
//   zlib(input: Uint8Array, level: 1-12): Buffer
#include <libdeflate.h>
#include <node_api.h>
#include <stdlib.h>

#define LEVELS 13
// An output buffer at most this large is kept for the next call; a larger one is freed after it.
#define KEPT_OUTPUT (16u << 20)

typedef struct {
  struct libdeflate_compressor *compressors[LEVELS];
  unsigned char *out;
  size_t capacity;
} Thread;

static void release(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  Thread *t = data;
  for (int i = 0; i < LEVELS; i++)
    if (t->compressors[i]) libdeflate_free_compressor(t->compressors[i]);
  free(t->out);
  free(t);
}

static napi_value fail(napi_env env, const char *message) {
  napi_throw_type_error(env, NULL, message);
  return NULL;
}

static napi_value zlib(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  Thread *t;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, (void **)&t) != napi_ok) return NULL;
  if (argc < 2) return fail(env, "zlib(input, level): two arguments");
  bool typed = false;
  napi_is_typedarray(env, argv[0], &typed);
  if (!typed) return fail(env, "zlib(input, level): input must be a Uint8Array");
  napi_typedarray_type type;
  size_t length;
  void *data;
  if (napi_get_typedarray_info(env, argv[0], &type, &length, &data, NULL, NULL) != napi_ok ||
      type != napi_uint8_array)
    return fail(env, "zlib(input, level): input must be a Uint8Array");
  double asked;
  if (napi_get_value_double(env, argv[1], &asked) != napi_ok || !(asked >= 1 && asked < LEVELS) ||
      asked != (double)(int)asked)
    return fail(env, "zlib(input, level): level must be a whole number from 1 to 12");
  int level = (int)asked;
  if (!t->compressors[level]) {
    t->compressors[level] = libdeflate_alloc_compressor(level);
    if (!t->compressors[level]) {
      napi_throw_error(env, NULL, "libdeflate: out of memory");
      return NULL;
    }
  }
  size_t bound = libdeflate_zlib_compress_bound(t->compressors[level], length);
  if (t->capacity < bound) {
    free(t->out);
    t->out = malloc(bound);
    t->capacity = t->out ? bound : 0;
    if (!t->out) {
      napi_throw_error(env, NULL, "libdeflate: out of memory");
      return NULL;
    }
  }
  size_t size = libdeflate_zlib_compress(t->compressors[level], length ? data : "", length, t->out, bound);
  napi_value result = NULL;
  if (size == 0)
    napi_throw_error(env, NULL, "libdeflate: the output did not fit its bound");
  else if (napi_create_buffer_copy(env, size, t->out, NULL, &result) != napi_ok)
    result = NULL;
  if (t->capacity > KEPT_OUTPUT) {
    free(t->out);
    t->out = NULL;
    t->capacity = 0;
  }
  return result;
}

NAPI_MODULE_INIT() {
  Thread *t = calloc(1, sizeof(Thread));
  if (!t) return NULL;
  if (napi_set_instance_data(env, t, release, NULL) != napi_ok) {
    free(t);
    return NULL;
  }
  napi_value fn;
  if (napi_create_function(env, "zlib", NAPI_AUTO_LENGTH, zlib, t, &fn) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "zlib", fn) != napi_ok) return NULL;
  return exports;
}
