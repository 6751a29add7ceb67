/*
 * `release(start, length)`: madvise(MADV_DONTNEED) over a range of this process's
 * memory, for `FilePages.ts`, which passes only read-only mappings of files whose pages
 * are all still the file's own (never written), so the kernel maps them again from the
 * file when they are next read. Returns 0, or the errno. Node has no binding for madvise;
 * `ReleasePages.ts` builds this with the system's C compiler at `npm install`.
 */
#include <errno.h>
#include <node_api.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>

static napi_value release(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  uint64_t start = 0, length = 0;
  bool lossless = false;
  napi_value result;
  int code = EINVAL;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) == napi_ok && argc == 2 &&
      napi_get_value_bigint_uint64(env, argv[0], &start, &lossless) == napi_ok && lossless &&
      napi_get_value_bigint_uint64(env, argv[1], &length, &lossless) == napi_ok && lossless) {
    code = madvise((void *)(uintptr_t)start, (size_t)length, MADV_DONTNEED) == 0 ? 0 : errno;
  }
  napi_create_int32(env, code, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "release", NAPI_AUTO_LENGTH, release, NULL, &fn);
  napi_set_named_property(env, exports, "release", fn);
  return exports;
}
