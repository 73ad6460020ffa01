/*
 * rdna_vulkan: a small N-API Vulkan compute runner for rdna-recompiler.
 *
 * One device per process. init() creates an instance (optionally with VK_LAYER_KHRONOS_validation
 * and a VK_EXT_debug_utils messenger that collects every warning and error), picks a physical
 * device with a compute queue (the first, or the first whose name contains a given string),
 * enables every feature of a fixed list that the device offers, and keeps instance, device,
 * queue, command pool and a pipeline cache alive until shutdown().
 *
 * run() takes a compute pipeline from a cache keyed by the SPIR-V words, entry point, buffer
 * count, push range and subgroup options (or builds one), takes one host-visible, host-coherent
 * storage buffer per input (set 0, binding i) from a pool of free buffers (or creates one),
 * uploads, records and submits one dispatch on the JS thread, then waits on the fence in a
 * napi_async_work (off the JS thread). The completion (JS thread again) copies every buffer back
 * into the caller's memory, returns buffers, command buffer, fence and descriptor pool to their
 * pools and resolves the promise. All queue and pool access happens on the JS thread, so several
 * runs may be in flight. runSteps() is the same with several kernels and a list of steps (kernel,
 * groups, push block): every step is recorded into the one command buffer, in order, with a
 * compute-to-compute memory barrier between steps, over buffers uploaded once and copied back once.
 *
 * Errors: argument problems throw TypeError/RangeError; Vulkan failures throw (or reject with)
 * an Error whose `code` is the VkResult name. The SPIR-V is scanned for its header, a
 * well-formed instruction stream, and the entry point; deeper invalid SPIR-V is undefined
 * behaviour in Vulkan, so callers validate with spirv-val (the validation layer runs it too).
 * With validation on, each run's result (or error) carries the layer's messages of that run.
 */
#include <node_api.h>
#include <vulkan/vulkan.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_BUFFERS 64u
#define MAX_TOTAL_BYTES (1ull << 30)
#define MAX_GROUPS 65535u
#define PUSH_BYTES 128u
/* runSteps: kernels per submission, steps per submission, address patches per call */
#define MAX_KERNELS 16u
#define MAX_STEPS 65536u
#define MAX_PATCHES (1u << 20)
#define DEFAULT_TIMEOUT_MS 60000.0
#define VALIDATION_LAYER "VK_LAYER_KHRONOS_validation"
/* reuse limits: cached pipelines, free buffers (count and bytes), free command slots */
#define MAX_PIPES 64u
#define MAX_CACHED_SPIRV_WORDS (4u << 20)
#define MAX_FREE_BUFS 64u
#define MAX_FREE_BUF_BYTES (256ull << 20)
#define MAX_FREE_SLOTS 16u
/* validation messages: a ring of the latest ones; each text cut at MAX_MSG_TEXT bytes */
#define MAX_MSGS 4096u
#define MAX_MSG_TEXT 4000u
#define MAX_RUN_MSGS 64u

/* ------------------------------------------------------------------ utilities */

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static const char *vk_result_name(VkResult r) {
  switch (r) {
    case VK_SUCCESS: return "VK_SUCCESS";
    case VK_NOT_READY: return "VK_NOT_READY";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    case VK_INCOMPLETE: return "VK_INCOMPLETE";
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_FORMAT_NOT_SUPPORTED: return "VK_ERROR_FORMAT_NOT_SUPPORTED";
    case VK_ERROR_FRAGMENTED_POOL: return "VK_ERROR_FRAGMENTED_POOL";
    case VK_ERROR_UNKNOWN: return "VK_ERROR_UNKNOWN";
    case VK_ERROR_OUT_OF_POOL_MEMORY: return "VK_ERROR_OUT_OF_POOL_MEMORY";
    case VK_ERROR_INVALID_EXTERNAL_HANDLE: return "VK_ERROR_INVALID_EXTERNAL_HANDLE";
    case VK_ERROR_FRAGMENTATION: return "VK_ERROR_FRAGMENTATION";
    case VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS: return "VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS";
    case VK_PIPELINE_COMPILE_REQUIRED: return "VK_PIPELINE_COMPILE_REQUIRED";
    case VK_ERROR_INVALID_SHADER_NV: return "VK_ERROR_INVALID_SHADER_NV";
    default: return "VK_RESULT_UNKNOWN";
  }
}

/* Throws an Error with code = VkResult name; returns NULL for convenient `return throw_vk(...)`. */
static napi_value throw_vk(napi_env env, const char *what, VkResult r) {
  char msg[256];
  snprintf(msg, sizeof msg, "%s failed: %s (%d)", what, vk_result_name(r), (int)r);
  napi_throw_error(env, vk_result_name(r), msg);
  return NULL;
}

static napi_value throw_type(napi_env env, const char *msg) {
  napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", msg);
  return NULL;
}

static napi_value throw_range(napi_env env, const char *msg) {
  napi_throw_range_error(env, "ERR_OUT_OF_RANGE", msg);
  return NULL;
}

static napi_value throw_state(napi_env env, const char *msg) {
  napi_throw_error(env, "ERR_VULKAN_STATE", msg);
  return NULL;
}

/* NAPI_CALL: on a failed N-API call, throw (if nothing is pending) and return NULL. */
#define NAPI_CALL(env, call)                                                \
  do {                                                                      \
    if ((call) != napi_ok) {                                                \
      bool pending_ = false;                                                \
      napi_is_exception_pending((env), &pending_);                          \
      if (!pending_) napi_throw_error((env), "ERR_NAPI", "N-API call failed: " #call); \
      return NULL;                                                          \
    }                                                                       \
  } while (0)

/* ------------------------------------------------------------------ state */

typedef struct Run Run;
typedef struct Pipe Pipe;
typedef struct PoolBuf PoolBuf;
typedef struct Slot Slot;

typedef struct {
  bool shaderFloat64, shaderInt64, shaderInt16, shaderFloat16, shaderInt8;
  bool storageBuffer8BitAccess, storageBuffer16BitAccess, bufferDeviceAddress, shaderBufferInt64Atomics;
  bool subgroupSizeControl, computeFullSubgroups, vulkanMemoryModel, vulkanMemoryModelDeviceScope;
  bool shaderSubgroupClock, shaderDeviceClock;
} Enabled;

typedef struct {
  double pipelineHits, pipelineMisses, buffersCreated, buffersReused, slotsCreated, slotsReused;
} Stats;

typedef struct {
  bool ready;
  bool poisoned; /* a run timed out or the device was lost: no more runs */
  napi_env env;  /* the env that called init() */
  VkInstance instance;
  VkPhysicalDevice phys;
  VkDevice device;
  VkQueue queue;
  uint32_t queueFamily;
  uint32_t timestampValidBits;
  VkCommandPool pool;
  VkPipelineCache cache;
  VkPhysicalDeviceProperties props;
  VkPhysicalDeviceMemoryProperties mem;
  VkPhysicalDeviceVulkan11Properties p11;
  VkPhysicalDeviceVulkan12Properties p12;
  VkPhysicalDeviceSubgroupSizeControlProperties pssc;
  bool haveSubgroupSizeControlProps;
  Enabled en;
  VkExtensionProperties *exts;
  uint32_t extCount;
  uint32_t inflight;
  Run *leaked; /* runs abandoned after a timeout; freed at shutdown after vkDeviceWaitIdle */
  /* validation */
  bool validation;
  VkDebugUtilsMessengerEXT messenger;
  PFN_vkDestroyDebugUtilsMessengerEXT destroyMessenger;
  /* reuse */
  Pipe *pipes;        /* cached pipelines, most recently used first */
  PoolBuf *freeBufs;  /* buffers not in use */
  uint32_t freeBufCount;
  uint64_t freeBufBytes;
  Slot *freeSlots;    /* command buffer + fence + query pool + descriptor pool, not in use */
  uint32_t freeSlotCount;
  uint32_t nextRunId;
  Stats stats;
} State;

static State S;

static bool has_ext(const char *name) {
  for (uint32_t i = 0; i < S.extCount; i++)
    if (strcmp(S.exts[i].extensionName, name) == 0) return true;
  return false;
}

/* ------------------------------------------------------------------ validation messages */

/* Written by the messenger callback (any thread: the fence wait runs on a worker), read on the JS
   thread; guarded by msgLock. A ring of the latest MAX_MSGS messages; msgSeq counts all of them,
   msgErrors the error-severity ones. `run` is the run whose JS-thread part was executing when the
   message came (tlRun), 0 for none (init, shutdown, the worker thread). */
typedef struct {
  uint64_t seq;
  uint32_t run;
  bool error;
  char *id;
  char *text;
} Msg;

static pthread_mutex_t msgLock = PTHREAD_MUTEX_INITIALIZER;
static Msg *msgs;
static uint64_t msgSeq, msgErrors;
static _Thread_local uint32_t tlRun;

static napi_status set_str(napi_env env, napi_value o, const char *k, const char *v);

static char *dup_cut(const char *s, size_t max) {
  if (!s) s = "";
  size_t n = strnlen(s, max);
  char *d = malloc(n + 1);
  if (d) { memcpy(d, s, n); d[n] = 0; }
  return d;
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
  (void)types;
  (void)user;
  if (!(severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT))) return VK_FALSE;
  bool error = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0;
  char *id = dup_cut(data ? data->pMessageIdName : NULL, 255);
  char *text = dup_cut(data ? data->pMessage : NULL, MAX_MSG_TEXT);
  pthread_mutex_lock(&msgLock);
  if (msgs) {
    Msg *m = &msgs[msgSeq % MAX_MSGS];
    free(m->id);
    free(m->text);
    *m = (Msg){.seq = msgSeq, .run = tlRun, .error = error, .id = id, .text = text};
    id = text = NULL;
  }
  msgSeq++;
  if (error) msgErrors++;
  pthread_mutex_unlock(&msgLock);
  free(id);
  free(text);
  return VK_FALSE;
}

static void msg_mark(uint64_t *seq, uint64_t *errors) {
  pthread_mutex_lock(&msgLock);
  *seq = msgSeq;
  *errors = msgErrors;
  pthread_mutex_unlock(&msgLock);
}

static void msgs_free(void) {
  pthread_mutex_lock(&msgLock);
  if (msgs) {
    for (uint32_t i = 0; i < MAX_MSGS; i++) { free(msgs[i].id); free(msgs[i].text); }
    free(msgs);
  }
  msgs = NULL;
  msgSeq = msgErrors = 0;
  pthread_mutex_unlock(&msgLock);
}

/* The messages since `seqStart` that belong to run `run` (or to no run, when run != UINT32_MAX
   they are included too; run == UINT32_MAX: every message). Returns a JS array of
   {severity, id, message} (at most `max`), the number of errors among the matching messages, and
   whether messages of the window were lost from the ring (their errors are then counted from
   msgErrors - errStart, which may include other runs'). */
static napi_value msgs_collect(napi_env env, uint64_t seqStart, uint64_t errStart, uint32_t run, uint32_t max, uint32_t *errorsOut) {
  napi_value arr = NULL;
  if (napi_create_array(env, &arr) != napi_ok) return NULL;
  uint32_t n = 0, errors = 0;
  pthread_mutex_lock(&msgLock);
  uint64_t first = msgSeq > MAX_MSGS ? msgSeq - MAX_MSGS : 0;
  bool lost = seqStart < first;
  if (msgs) {
    for (uint64_t q = seqStart < first ? first : seqStart; q < msgSeq; q++) {
      Msg *m = &msgs[q % MAX_MSGS];
      if (run != UINT32_MAX && m->run != run && m->run != 0) continue;
      if (m->error) errors++;
      if (n >= max) continue;
      napi_value o;
      if (napi_create_object(env, &o) != napi_ok) break;
      set_str(env, o, "severity", m->error ? "error" : "warning");
      set_str(env, o, "id", m->id ? m->id : "");
      set_str(env, o, "message", m->text ? m->text : "(out of memory)");
      napi_set_element(env, arr, n++, o);
    }
  }
  if (lost && msgErrors - errStart > errors) errors = (uint32_t)(msgErrors - errStart);
  pthread_mutex_unlock(&msgLock);
  if (errorsOut) *errorsOut = errors;
  return arr;
}

static void destroy_caches(void);

static void destroy_state(void) {
  if (S.device) vkDeviceWaitIdle(S.device);
  /* leaked runs are freed by free_leaked() before this is called */
  destroy_caches();
  if (S.cache) vkDestroyPipelineCache(S.device, S.cache, NULL);
  if (S.pool) vkDestroyCommandPool(S.device, S.pool, NULL);
  if (S.device) vkDestroyDevice(S.device, NULL);
  if (S.messenger && S.destroyMessenger) S.destroyMessenger(S.instance, S.messenger, NULL);
  if (S.instance) vkDestroyInstance(S.instance, NULL);
  free(S.exts);
  memset(&S, 0, sizeof S);
}

/* ------------------------------------------------------------------ napi helpers */

static bool get_named(napi_env env, napi_value obj, const char *key, napi_value *out, napi_valuetype *type) {
  bool has = false;
  if (napi_has_named_property(env, obj, key, &has) != napi_ok || !has) return false;
  if (napi_get_named_property(env, obj, key, out) != napi_ok) return false;
  if (napi_typeof(env, *out, type) != napi_ok) return false;
  return *type != napi_undefined;
}

static napi_status set_bool(napi_env env, napi_value o, const char *k, bool v) {
  napi_value x;
  napi_status s = napi_get_boolean(env, v, &x);
  return s == napi_ok ? napi_set_named_property(env, o, k, x) : s;
}
static napi_status set_num(napi_env env, napi_value o, const char *k, double v) {
  napi_value x;
  napi_status s = napi_create_double(env, v, &x);
  return s == napi_ok ? napi_set_named_property(env, o, k, x) : s;
}
static napi_status set_str(napi_env env, napi_value o, const char *k, const char *v) {
  napi_value x;
  napi_status s = napi_create_string_utf8(env, v, NAPI_AUTO_LENGTH, &x);
  return s == napi_ok ? napi_set_named_property(env, o, k, x) : s;
}
static napi_status set_u32_array(napi_env env, napi_value o, const char *k, const uint32_t *v, uint32_t n) {
  napi_value a, x;
  napi_status s = napi_create_array_with_length(env, n, &a);
  for (uint32_t i = 0; s == napi_ok && i < n; i++) {
    s = napi_create_uint32(env, v[i], &x);
    if (s == napi_ok) s = napi_set_element(env, a, i, x);
  }
  return s == napi_ok ? napi_set_named_property(env, o, k, a) : s;
}

/* Bytes of an ArrayBuffer, TypedArray or DataView. */
static bool get_bytes(napi_env env, napi_value v, void **data, size_t *len) {
  bool is = false;
  if (napi_is_arraybuffer(env, v, &is) == napi_ok && is)
    return napi_get_arraybuffer_info(env, v, data, len) == napi_ok;
  if (napi_is_typedarray(env, v, &is) == napi_ok && is) {
    napi_typedarray_type t;
    size_t n, off;
    napi_value ab;
    if (napi_get_typedarray_info(env, v, &t, &n, data, &ab, &off) != napi_ok) return false;
    size_t el = 1;
    switch (t) {
      case napi_int16_array: case napi_uint16_array: el = 2; break;
      case napi_int32_array: case napi_uint32_array: case napi_float32_array: el = 4; break;
      case napi_float64_array: case napi_bigint64_array: case napi_biguint64_array: el = 8; break;
      default: el = 1;
    }
    *len = n * el;
    return true;
  }
  if (napi_is_dataview(env, v, &is) == napi_ok && is) {
    napi_value ab;
    size_t off;
    return napi_get_dataview_info(env, v, len, data, &ab, &off) == napi_ok;
  }
  return false;
}

/* ------------------------------------------------------------------ init */

static napi_value js_init(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (S.ready) return throw_state(env, "Vulkan is already initialised in this process; call shutdown() first");

  char driverFiles[4096] = "", deviceName[256] = "";
  bool validation = false;
  if (argc >= 1) {
    napi_valuetype t;
    NAPI_CALL(env, napi_typeof(env, argv[0], &t));
    if (t == napi_object) {
      napi_value v;
      size_t n;
      if (get_named(env, argv[0], "driverFiles", &v, &t)) {
        if (t != napi_string) return throw_type(env, "init: driverFiles must be a string");
        NAPI_CALL(env, napi_get_value_string_utf8(env, v, driverFiles, sizeof driverFiles, &n));
        if (n >= sizeof driverFiles - 1) return throw_range(env, "init: driverFiles is too long");
      }
      if (get_named(env, argv[0], "deviceName", &v, &t)) {
        if (t != napi_string) return throw_type(env, "init: deviceName must be a string");
        NAPI_CALL(env, napi_get_value_string_utf8(env, v, deviceName, sizeof deviceName, &n));
      }
      if (get_named(env, argv[0], "validation", &v, &t)) {
        if (t != napi_boolean) return throw_type(env, "init: validation must be a boolean");
        NAPI_CALL(env, napi_get_value_bool(env, v, &validation));
      }
    } else if (t != napi_undefined) {
      return throw_type(env, "init: options must be an object");
    }
  }
  /* The loader reads VK_DRIVER_FILES when the instance is created. */
  if (driverFiles[0]) setenv("VK_DRIVER_FILES", driverFiles, 1);

  uint32_t loaderVersion = VK_API_VERSION_1_0;
  vkEnumerateInstanceVersion(&loaderVersion);
  if (loaderVersion < VK_API_VERSION_1_2) {
    napi_throw_error(env, "VK_ERROR_INCOMPATIBLE_DRIVER", "the Vulkan loader is older than 1.2");
    return NULL;
  }
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                           .pApplicationName = "rdna-recompiler",
                           .apiVersion = loaderVersion >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2};
  VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};

  /* validation: the Khronos layer, its debug_utils messenger (chained into the instance create info
     too, so instance creation is covered) and synchronization validation where the layer offers
     VK_EXT_validation_features. The layer's duplicate-message limit (10 per message id) would hide
     repeats from later runs: it is lifted unless VK_LAYER_DUPLICATE_MESSAGE_LIMIT is set. */
  const char *layers[1] = {VALIDATION_LAYER};
  const char *instExts[2];
  uint32_t instExtN = 0;
  VkDebugUtilsMessengerCreateInfoEXT dumci = {
      .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
      .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
      .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
      .pfnUserCallback = on_message};
  VkValidationFeatureEnableEXT vfe[1] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT vf = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT, .enabledValidationFeatureCount = 1,
                                .pEnabledValidationFeatures = vfe};
  msgs_free();
  if (validation) {
    uint32_t ln = 0;
    VkLayerProperties *lp = NULL;
    bool haveLayer = false, haveUtils = false, haveFeatures = false;
    if (vkEnumerateInstanceLayerProperties(&ln, NULL) == VK_SUCCESS && ln) {
      lp = calloc(ln, sizeof *lp);
      if (lp && vkEnumerateInstanceLayerProperties(&ln, lp) >= VK_SUCCESS)
        for (uint32_t i = 0; i < ln; i++) haveLayer = haveLayer || strcmp(lp[i].layerName, VALIDATION_LAYER) == 0;
      free(lp);
    }
    if (!haveLayer) {
      const char *path = getenv("VK_LAYER_PATH");
      char msg[600];
      snprintf(msg, sizeof msg, "validation requested but the Vulkan loader finds no %s (%s%s; Debian: apt-get install vulkan-validationlayers)",
               VALIDATION_LAYER, path ? "VK_LAYER_PATH=" : "default layer search", path ? path : "");
      napi_throw_error(env, "ERR_VULKAN_NO_LAYER", msg);
      return NULL;
    }
    uint32_t en = 0;
    VkExtensionProperties *ep = NULL;
    if (vkEnumerateInstanceExtensionProperties(VALIDATION_LAYER, &en, NULL) == VK_SUCCESS && en) {
      ep = calloc(en, sizeof *ep);
      if (ep && vkEnumerateInstanceExtensionProperties(VALIDATION_LAYER, &en, ep) >= VK_SUCCESS)
        for (uint32_t i = 0; i < en; i++) {
          haveUtils = haveUtils || strcmp(ep[i].extensionName, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) == 0;
          haveFeatures = haveFeatures || strcmp(ep[i].extensionName, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME) == 0;
        }
      free(ep);
    }
    if (!haveUtils) {
      napi_throw_error(env, "ERR_VULKAN_NO_LAYER", "validation requested but " VALIDATION_LAYER " offers no " VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
      return NULL;
    }
    instExts[instExtN++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    if (haveFeatures) {
      instExts[instExtN++] = VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME;
      dumci.pNext = &vf;
    }
    ici.enabledLayerCount = 1;
    ici.ppEnabledLayerNames = layers;
    ici.enabledExtensionCount = instExtN;
    ici.ppEnabledExtensionNames = instExts;
    ici.pNext = &dumci;
    if (!getenv("VK_LAYER_DUPLICATE_MESSAGE_LIMIT")) setenv("VK_LAYER_DUPLICATE_MESSAGE_LIMIT", "0", 1);
    msgs = calloc(MAX_MSGS, sizeof *msgs);
    if (!msgs) return throw_vk(env, "calloc", VK_ERROR_OUT_OF_HOST_MEMORY);
  }

  VkResult r = vkCreateInstance(&ici, NULL, &S.instance);
  if (r != VK_SUCCESS) {
    S.instance = VK_NULL_HANDLE;
    return throw_vk(env, "vkCreateInstance (no Vulkan driver found?)", r);
  }
  if (validation) {
    PFN_vkCreateDebugUtilsMessengerEXT create =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(S.instance, "vkCreateDebugUtilsMessengerEXT");
    S.destroyMessenger = (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(S.instance, "vkDestroyDebugUtilsMessengerEXT");
    if (!create || !S.destroyMessenger) { destroy_state(); return throw_vk(env, "vkGetInstanceProcAddr(vkCreateDebugUtilsMessengerEXT)", VK_ERROR_EXTENSION_NOT_PRESENT); }
    dumci.pNext = NULL;
    r = create(S.instance, &dumci, NULL, &S.messenger);
    if (r != VK_SUCCESS) { S.messenger = VK_NULL_HANDLE; destroy_state(); return throw_vk(env, "vkCreateDebugUtilsMessengerEXT", r); }
    S.validation = true;
  }

  uint32_t n = 0;
  r = vkEnumeratePhysicalDevices(S.instance, &n, NULL);
  VkPhysicalDevice devs[16];
  if (n > 16) n = 16;
  if (r == VK_SUCCESS || r == VK_INCOMPLETE) r = vkEnumeratePhysicalDevices(S.instance, &n, devs);
  if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
    destroy_state();
    return throw_vk(env, "vkEnumeratePhysicalDevices", r);
  }
  bool found = false;
  for (uint32_t i = 0; i < n && !found; i++) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(devs[i], &p);
    if (p.apiVersion < VK_API_VERSION_1_2) continue;
    if (deviceName[0] && !strstr(p.deviceName, deviceName)) continue;
    uint32_t qn = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(devs[i], &qn, NULL);
    VkQueueFamilyProperties q[32];
    if (qn > 32) qn = 32;
    vkGetPhysicalDeviceQueueFamilyProperties(devs[i], &qn, q);
    for (uint32_t j = 0; j < qn; j++) {
      if (q[j].queueFlags & VK_QUEUE_COMPUTE_BIT) {
        S.phys = devs[i];
        S.queueFamily = j;
        S.timestampValidBits = q[j].timestampValidBits;
        S.props = p;
        found = true;
        break;
      }
    }
  }
  if (!found) {
    destroy_state();
    char msg[400];
    snprintf(msg, sizeof msg, "no Vulkan 1.2 physical device with a compute queue%s%s%s (%u device%s found)",
             deviceName[0] ? " whose name contains \"" : "", deviceName, deviceName[0] ? "\"" : "", n, n == 1 ? "" : "s");
    napi_throw_error(env, "ERR_VULKAN_NO_DEVICE", msg);
    return NULL;
  }

  /* extensions */
  r = vkEnumerateDeviceExtensionProperties(S.phys, NULL, &S.extCount, NULL);
  if (r == VK_SUCCESS && S.extCount) {
    S.exts = calloc(S.extCount, sizeof *S.exts);
    if (!S.exts) { destroy_state(); return throw_vk(env, "calloc", VK_ERROR_OUT_OF_HOST_MEMORY); }
    r = vkEnumerateDeviceExtensionProperties(S.phys, NULL, &S.extCount, S.exts);
  }
  if (r != VK_SUCCESS && r != VK_INCOMPLETE) { destroy_state(); return throw_vk(env, "vkEnumerateDeviceExtensionProperties", r); }
  bool is13 = S.props.apiVersion >= VK_API_VERSION_1_3;
  bool sscAvailable = is13 || has_ext(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  /* VK_KHR_shader_clock (OpReadClockKHR: s_memtime at Subgroup scope, s_memrealtime at Device scope) */
  bool clockAvailable = has_ext(VK_KHR_SHADER_CLOCK_EXTENSION_NAME);

  /* properties */
  S.pssc.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES;
  S.p12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES;
  S.p12.pNext = sscAvailable ? &S.pssc : NULL;
  S.p11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES;
  S.p11.pNext = &S.p12;
  VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &S.p11};
  vkGetPhysicalDeviceProperties2(S.phys, &p2);
  S.p11.pNext = S.p12.pNext = S.pssc.pNext = NULL;
  S.haveSubgroupSizeControlProps = sscAvailable;
  vkGetPhysicalDeviceMemoryProperties(S.phys, &S.mem);

  /* features offered */
  VkPhysicalDeviceShaderClockFeaturesKHR fclk = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};
  VkPhysicalDeviceSubgroupSizeControlFeatures fssc = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES,
                                                      .pNext = clockAvailable ? &fclk : NULL};
  VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                          .pNext = sscAvailable ? (void *)&fssc : clockAvailable ? (void *)&fclk : NULL};
  VkPhysicalDeviceVulkan11Features f11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &f12};
  VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f11};
  vkGetPhysicalDeviceFeatures2(S.phys, &f2);

  /* features enabled: exactly the listed ones the device offers */
  VkPhysicalDeviceSubgroupSizeControlFeatures essc = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES,
                                                      .subgroupSizeControl = fssc.subgroupSizeControl,
                                                      .computeFullSubgroups = fssc.computeFullSubgroups};
  VkPhysicalDeviceVulkan12Features e12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                          .shaderFloat16 = f12.shaderFloat16,
                                          .shaderInt8 = f12.shaderInt8,
                                          .storageBuffer8BitAccess = f12.storageBuffer8BitAccess,
                                          .bufferDeviceAddress = f12.bufferDeviceAddress,
                                          .shaderBufferInt64Atomics = f12.shaderBufferInt64Atomics,
                                          .vulkanMemoryModel = f12.vulkanMemoryModel,
                                          .vulkanMemoryModelDeviceScope = f12.vulkanMemoryModelDeviceScope};
  VkPhysicalDeviceVulkan11Features e11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
                                          .storageBuffer16BitAccess = f11.storageBuffer16BitAccess};
  VkPhysicalDeviceFeatures2 e2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  e2.features.shaderFloat64 = f2.features.shaderFloat64;
  e2.features.shaderInt64 = f2.features.shaderInt64;
  e2.features.shaderInt16 = f2.features.shaderInt16;
  bool enableSsc = sscAvailable && (fssc.subgroupSizeControl || fssc.computeFullSubgroups);
  VkPhysicalDeviceShaderClockFeaturesKHR eclk = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR,
                                                 .shaderSubgroupClock = fclk.shaderSubgroupClock,
                                                 .shaderDeviceClock = fclk.shaderDeviceClock};
  bool enableClock = clockAvailable && (fclk.shaderSubgroupClock || fclk.shaderDeviceClock);
  e2.pNext = &e11;
  e11.pNext = &e12;
  e12.pNext = enableSsc ? &essc : NULL;
  if (enableClock) {
    eclk.pNext = e12.pNext;
    e12.pNext = &eclk;
  }

  S.en = (Enabled){.shaderFloat64 = e2.features.shaderFloat64, .shaderInt64 = e2.features.shaderInt64,
                   .shaderInt16 = e2.features.shaderInt16, .shaderFloat16 = e12.shaderFloat16, .shaderInt8 = e12.shaderInt8,
                   .storageBuffer8BitAccess = e12.storageBuffer8BitAccess,
                   .storageBuffer16BitAccess = e11.storageBuffer16BitAccess,
                   .bufferDeviceAddress = e12.bufferDeviceAddress,
                   .shaderBufferInt64Atomics = e12.shaderBufferInt64Atomics,
                   .subgroupSizeControl = enableSsc && essc.subgroupSizeControl,
                   .computeFullSubgroups = enableSsc && essc.computeFullSubgroups,
                   .vulkanMemoryModel = e12.vulkanMemoryModel,
                   .vulkanMemoryModelDeviceScope = e12.vulkanMemoryModelDeviceScope,
                   .shaderSubgroupClock = enableClock && eclk.shaderSubgroupClock,
                   .shaderDeviceClock = enableClock && eclk.shaderDeviceClock};

  const char *extNames[2];
  uint32_t extN = 0;
  if (enableSsc && !is13) extNames[extN++] = VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME;
  if (enableClock) extNames[extN++] = VK_KHR_SHADER_CLOCK_EXTENSION_NAME;

  float prio = 1.0f;
  VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                 .queueFamilyIndex = S.queueFamily, .queueCount = 1, .pQueuePriorities = &prio};
  VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &e2, .queueCreateInfoCount = 1,
                            .pQueueCreateInfos = &qci, .enabledExtensionCount = extN, .ppEnabledExtensionNames = extNames};
  r = vkCreateDevice(S.phys, &dci, NULL, &S.device);
  if (r != VK_SUCCESS) { S.device = VK_NULL_HANDLE; destroy_state(); return throw_vk(env, "vkCreateDevice", r); }
  vkGetDeviceQueue(S.device, S.queueFamily, 0, &S.queue);

  VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                 .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, .queueFamilyIndex = S.queueFamily};
  r = vkCreateCommandPool(S.device, &pci, NULL, &S.pool);
  if (r != VK_SUCCESS) { S.pool = VK_NULL_HANDLE; destroy_state(); return throw_vk(env, "vkCreateCommandPool", r); }
  VkPipelineCacheCreateInfo cci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  r = vkCreatePipelineCache(S.device, &cci, NULL, &S.cache);
  if (r != VK_SUCCESS) { S.cache = VK_NULL_HANDLE; destroy_state(); return throw_vk(env, "vkCreatePipelineCache", r); }

  S.env = env;
  S.ready = true;
  napi_value undef;
  NAPI_CALL(env, napi_get_undefined(env, &undef));
  return undef;
}

/* ------------------------------------------------------------------ profile */

static const char *independence_name(VkShaderFloatControlsIndependence v) {
  switch (v) {
    case VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_32_BIT_ONLY: return "32_BIT_ONLY";
    case VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL: return "ALL";
    case VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_NONE: return "NONE";
    default: return "UNKNOWN";
  }
}

static const char *device_type_name(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
  }
}

static napi_status width_controls(napi_env env, napi_value fc, const char *key, bool szinp, bool dp, bool ftz, bool rte,
                                  bool rtz) {
  napi_value o;
  napi_status s = napi_create_object(env, &o);
  if (s == napi_ok) s = set_bool(env, o, "signedZeroInfNanPreserve", szinp);
  if (s == napi_ok) s = set_bool(env, o, "denormPreserve", dp);
  if (s == napi_ok) s = set_bool(env, o, "denormFlushToZero", ftz);
  if (s == napi_ok) s = set_bool(env, o, "roundingModeRTE", rte);
  if (s == napi_ok) s = set_bool(env, o, "roundingModeRTZ", rtz);
  if (s == napi_ok) s = napi_set_named_property(env, fc, key, o);
  return s;
}

static napi_value js_profile(napi_env env, napi_callback_info info) {
  if (!S.ready) return throw_state(env, "Vulkan is not initialised: call init() first");
  const VkPhysicalDeviceVulkan12Properties *p = &S.p12;
  napi_value o, fc, sg, feat, lim, exts;
  NAPI_CALL(env, napi_create_object(env, &o));
  char ver[48];
  snprintf(ver, sizeof ver, "%u.%u.%u", VK_API_VERSION_MAJOR(S.props.apiVersion), VK_API_VERSION_MINOR(S.props.apiVersion),
           VK_API_VERSION_PATCH(S.props.apiVersion));
  NAPI_CALL(env, set_str(env, o, "apiVersion", ver));
  NAPI_CALL(env, set_num(env, o, "driverVersion", S.props.driverVersion));
  NAPI_CALL(env, set_str(env, o, "deviceName", S.props.deviceName));
  NAPI_CALL(env, set_str(env, o, "deviceType", device_type_name(S.props.deviceType)));
  NAPI_CALL(env, set_num(env, o, "vendorId", S.props.vendorID));
  NAPI_CALL(env, set_num(env, o, "deviceId", S.props.deviceID));
  NAPI_CALL(env, set_num(env, o, "driverId", p->driverID));
  NAPI_CALL(env, set_str(env, o, "driverName", p->driverName));
  NAPI_CALL(env, set_str(env, o, "driverInfo", p->driverInfo));

  NAPI_CALL(env, napi_create_object(env, &sg));
  NAPI_CALL(env, set_num(env, sg, "size", S.p11.subgroupSize));
  NAPI_CALL(env, set_num(env, sg, "minSize", S.haveSubgroupSizeControlProps ? S.pssc.minSubgroupSize : S.p11.subgroupSize));
  NAPI_CALL(env, set_num(env, sg, "maxSize", S.haveSubgroupSizeControlProps ? S.pssc.maxSubgroupSize : S.p11.subgroupSize));
  NAPI_CALL(env, set_num(env, sg, "maxComputeWorkgroupSubgroups", S.haveSubgroupSizeControlProps ? S.pssc.maxComputeWorkgroupSubgroups : 0));
  NAPI_CALL(env, set_bool(env, sg, "requiredSizeInCompute",
                          S.haveSubgroupSizeControlProps && (S.pssc.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT)));
  NAPI_CALL(env, set_bool(env, sg, "supportedInCompute", (S.p11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0));
  NAPI_CALL(env, set_num(env, sg, "supportedOperations", S.p11.subgroupSupportedOperations));
  NAPI_CALL(env, napi_set_named_property(env, o, "subgroup", sg));

  NAPI_CALL(env, napi_create_object(env, &fc));
  NAPI_CALL(env, set_str(env, fc, "denormBehaviorIndependence", independence_name(p->denormBehaviorIndependence)));
  NAPI_CALL(env, set_str(env, fc, "roundingModeIndependence", independence_name(p->roundingModeIndependence)));
  NAPI_CALL(env, width_controls(env, fc, "f16", p->shaderSignedZeroInfNanPreserveFloat16, p->shaderDenormPreserveFloat16,
                                p->shaderDenormFlushToZeroFloat16, p->shaderRoundingModeRTEFloat16, p->shaderRoundingModeRTZFloat16));
  NAPI_CALL(env, width_controls(env, fc, "f32", p->shaderSignedZeroInfNanPreserveFloat32, p->shaderDenormPreserveFloat32,
                                p->shaderDenormFlushToZeroFloat32, p->shaderRoundingModeRTEFloat32, p->shaderRoundingModeRTZFloat32));
  NAPI_CALL(env, width_controls(env, fc, "f64", p->shaderSignedZeroInfNanPreserveFloat64, p->shaderDenormPreserveFloat64,
                                p->shaderDenormFlushToZeroFloat64, p->shaderRoundingModeRTEFloat64, p->shaderRoundingModeRTZFloat64));
  NAPI_CALL(env, napi_set_named_property(env, o, "floatControls", fc));

  NAPI_CALL(env, napi_create_object(env, &feat));
  NAPI_CALL(env, set_bool(env, feat, "shaderFloat64", S.en.shaderFloat64));
  NAPI_CALL(env, set_bool(env, feat, "shaderInt64", S.en.shaderInt64));
  NAPI_CALL(env, set_bool(env, feat, "shaderInt16", S.en.shaderInt16));
  NAPI_CALL(env, set_bool(env, feat, "shaderFloat16", S.en.shaderFloat16));
  NAPI_CALL(env, set_bool(env, feat, "shaderInt8", S.en.shaderInt8));
  NAPI_CALL(env, set_bool(env, feat, "storageBuffer8BitAccess", S.en.storageBuffer8BitAccess));
  NAPI_CALL(env, set_bool(env, feat, "storageBuffer16BitAccess", S.en.storageBuffer16BitAccess));
  NAPI_CALL(env, set_bool(env, feat, "bufferDeviceAddress", S.en.bufferDeviceAddress));
  NAPI_CALL(env, set_bool(env, feat, "shaderBufferInt64Atomics", S.en.shaderBufferInt64Atomics));
  NAPI_CALL(env, set_bool(env, feat, "subgroupSizeControl", S.en.subgroupSizeControl));
  NAPI_CALL(env, set_bool(env, feat, "computeFullSubgroups", S.en.computeFullSubgroups));
  NAPI_CALL(env, set_bool(env, feat, "vulkanMemoryModel", S.en.vulkanMemoryModel));
  NAPI_CALL(env, set_bool(env, feat, "vulkanMemoryModelDeviceScope", S.en.vulkanMemoryModelDeviceScope));
  NAPI_CALL(env, set_bool(env, feat, "shaderSubgroupClock", S.en.shaderSubgroupClock));
  NAPI_CALL(env, set_bool(env, feat, "shaderDeviceClock", S.en.shaderDeviceClock));
  NAPI_CALL(env, napi_set_named_property(env, o, "features", feat));

  const VkPhysicalDeviceLimits *l = &S.props.limits;
  NAPI_CALL(env, napi_create_object(env, &lim));
  NAPI_CALL(env, set_u32_array(env, lim, "maxComputeWorkGroupCount", l->maxComputeWorkGroupCount, 3));
  NAPI_CALL(env, set_u32_array(env, lim, "maxComputeWorkGroupSize", l->maxComputeWorkGroupSize, 3));
  NAPI_CALL(env, set_num(env, lim, "maxComputeWorkGroupInvocations", l->maxComputeWorkGroupInvocations));
  NAPI_CALL(env, set_num(env, lim, "maxComputeSharedMemorySize", l->maxComputeSharedMemorySize));
  NAPI_CALL(env, set_num(env, lim, "maxPushConstantsSize", l->maxPushConstantsSize));
  NAPI_CALL(env, set_num(env, lim, "maxStorageBufferRange", l->maxStorageBufferRange));
  NAPI_CALL(env, set_num(env, lim, "maxPerStageDescriptorStorageBuffers", l->maxPerStageDescriptorStorageBuffers));
  NAPI_CALL(env, set_num(env, lim, "timestampPeriod", l->timestampPeriod));
  NAPI_CALL(env, set_bool(env, lim, "timestampComputeAndGraphics", l->timestampComputeAndGraphics));
  NAPI_CALL(env, set_num(env, lim, "timestampValidBits", S.timestampValidBits));
  NAPI_CALL(env, napi_set_named_property(env, o, "limits", lim));

  NAPI_CALL(env, napi_create_array_with_length(env, S.extCount, &exts));
  for (uint32_t i = 0; i < S.extCount; i++) {
    napi_value x;
    NAPI_CALL(env, napi_create_string_utf8(env, S.exts[i].extensionName, NAPI_AUTO_LENGTH, &x));
    NAPI_CALL(env, napi_set_element(env, exts, i, x));
  }
  NAPI_CALL(env, napi_set_named_property(env, o, "extensions", exts));
  return o;
}

/* ------------------------------------------------------------------ SPIR-V scan */

/* Checks header and instruction stream; finds the GLCompute entry point `entry` and its LocalSize.
   Writes a message into err and returns false on failure. */
static bool scan_spirv(const uint32_t *w, size_t n, const char *entry, uint32_t localSize[3], char *err, size_t errLen) {
  if (n < 5) { snprintf(err, errLen, "SPIR-V: %zu words, shorter than the 5-word header", n); return false; }
  if (w[0] != 0x07230203u) {
    snprintf(err, errLen, "SPIR-V: bad magic number 0x%08x at word 0 (expected 0x07230203; byte-swapped modules are not accepted)", w[0]);
    return false;
  }
  uint32_t version = w[1];
  if ((version & 0xff0000ffu) != 0 || version > 0x00010600u || version < 0x00010000u) {
    snprintf(err, errLen, "SPIR-V: unsupported version word 0x%08x", version);
    return false;
  }
  if (w[3] == 0) { snprintf(err, errLen, "SPIR-V: id bound 0"); return false; }
  uint32_t entryId = 0;
  bool haveSize = false;
  localSize[0] = localSize[1] = localSize[2] = 1;
  /* two passes: entry id first, then its execution modes (OpExecutionMode may only follow OpEntryPoint,
     but a single pass would miss nothing either; keep it simple and robust) */
  for (int pass = 0; pass < 2; pass++) {
    size_t i = 5;
    while (i < n) {
      uint32_t wc = w[i] >> 16, op = w[i] & 0xffffu;
      if (wc == 0 || wc > n - i) {
        snprintf(err, errLen, "SPIR-V: instruction at word %zu has word count %u (%zu word%s left)", i, wc, n - i, n - i == 1 ? "" : "s");
        return false;
      }
      if (pass == 0 && op == 15 /* OpEntryPoint */ && wc >= 4 && w[i + 1] == 5 /* GLCompute */ && !entryId) {
        const char *name = (const char *)&w[i + 3];
        size_t maxLen = (size_t)(wc - 3) * 4;
        if (strnlen(name, maxLen) < maxLen && strcmp(name, entry) == 0) entryId = w[i + 2];
      }
      if (pass == 1 && op == 16 /* OpExecutionMode */ && wc >= 6 && w[i + 1] == entryId && w[i + 2] == 17 /* LocalSize */) {
        localSize[0] = w[i + 3];
        localSize[1] = w[i + 4];
        localSize[2] = w[i + 5];
        haveSize = true;
      }
      i += wc;
    }
    if (pass == 0 && !entryId) {
      snprintf(err, errLen, "SPIR-V: no GLCompute OpEntryPoint named \"%s\"", entry);
      return false;
    }
  }
  (void)haveSize; /* LocalSizeId or no mode: size unknown; treated as 1,1,1 for the full-subgroup check only */
  return true;
}

/* ------------------------------------------------------------------ reuse: pipelines, buffers, slots */

/* A shader module + descriptor set layout + pipeline layout + pipeline for one key: the SPIR-V
   words, entry point, buffer count, push range and subgroup options. Cached ones (cached = true)
   live in S.pipes until evicted (LRU beyond MAX_PIPES, only when no run uses them) or shutdown;
   uncached ones (modules over MAX_CACHED_SPIRV_WORDS, or pipelines whose creation drew a
   validation error, so that every run of them reports it) die with their last run. */
struct Pipe {
  Pipe *next;
  uint64_t hash;
  uint32_t *words;
  size_t nWords;
  char entry[256];
  uint32_t nbuf, pushBytes, requiredSize;
  bool fullSubgroups;
  bool cached;
  uint32_t refs;
  VkShaderModule module;
  VkDescriptorSetLayout dsl;
  VkPipelineLayout layout;
  VkPipeline pipeline;
};

/* A storage buffer with its own host-visible, host-coherent memory, mapped for its lifetime. */
struct PoolBuf {
  PoolBuf *next;
  VkBuffer buf;
  VkDeviceMemory memory;
  void *map;
  VkDeviceSize cap;
  bool bda;
  uint64_t address;
};

/* What one submission needs besides pipeline and buffers. */
struct Slot {
  Slot *next;
  VkCommandBuffer cb;
  VkFence fence;
  VkQueryPool query; /* VK_NULL_HANDLE when the queue has no timestamps */
  VkDescriptorPool dpool;
};

static uint64_t fnv1a(uint64_t h, const void *data, size_t n) {
  const uint8_t *p = data;
  for (size_t i = 0; i < n; i++) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

static void pipe_destroy(Pipe *p) {
  VkDevice d = S.device;
  if (p->pipeline) vkDestroyPipeline(d, p->pipeline, NULL);
  if (p->layout) vkDestroyPipelineLayout(d, p->layout, NULL);
  if (p->dsl) vkDestroyDescriptorSetLayout(d, p->dsl, NULL);
  if (p->module) vkDestroyShaderModule(d, p->module, NULL);
  free(p->words);
  free(p);
}

static void pipe_release(Pipe *p) {
  if (p->refs) p->refs--;
  if (!p->refs && !p->cached) pipe_destroy(p);
}

/* Evicts cached pipelines beyond MAX_PIPES (the least recently used, when unused). */
static void pipes_trim(void) {
  uint32_t n = 0;
  for (Pipe **pp = &S.pipes; *pp;) {
    Pipe *p = *pp;
    if (++n > MAX_PIPES && !p->refs) {
      *pp = p->next;
      pipe_destroy(p);
      continue;
    }
    pp = &p->next;
  }
}

static void buf_destroy(PoolBuf *b) {
  if (b->buf) vkDestroyBuffer(S.device, b->buf, NULL);
  if (b->memory) vkFreeMemory(S.device, b->memory, NULL); /* unmaps implicitly */
  free(b);
}

/* Capacity a new buffer gets for `size` bytes: 256 B at least, powers of two up to 64 MiB, then
   multiples of 16 MiB. A free buffer is reused for sizes in (cap / 2 rounded, cap]. */
static VkDeviceSize buf_class(VkDeviceSize size) {
  if (size <= 256) return 256;
  if (size <= (64ull << 20)) {
    VkDeviceSize c = 512;
    while (c < size) c <<= 1;
    return c;
  }
  return (size + (16ull << 20) - 1) & ~((16ull << 20) - 1);
}

static void buf_put(PoolBuf *b) {
  if (S.freeBufCount >= MAX_FREE_BUFS || S.freeBufBytes + b->cap > MAX_FREE_BUF_BYTES) { buf_destroy(b); return; }
  b->next = S.freeBufs;
  S.freeBufs = b;
  S.freeBufCount++;
  S.freeBufBytes += b->cap;
}

static void slot_destroy(Slot *s) {
  VkDevice d = S.device;
  if (s->fence) vkDestroyFence(d, s->fence, NULL);
  if (s->cb) vkFreeCommandBuffers(d, S.pool, 1, &s->cb);
  if (s->query) vkDestroyQueryPool(d, s->query, NULL);
  if (s->dpool) vkDestroyDescriptorPool(d, s->dpool, NULL);
  free(s);
}

static void slot_put(Slot *s) {
  if (S.freeSlotCount >= MAX_FREE_SLOTS) { slot_destroy(s); return; }
  s->next = S.freeSlots;
  S.freeSlots = s;
  S.freeSlotCount++;
}

static void destroy_caches(void) {
  while (S.pipes) { Pipe *n = S.pipes->next; pipe_destroy(S.pipes); S.pipes = n; }
  while (S.freeBufs) { PoolBuf *n = S.freeBufs->next; buf_destroy(S.freeBufs); S.freeBufs = n; }
  while (S.freeSlots) { Slot *n = S.freeSlots->next; slot_destroy(S.freeSlots); S.freeSlots = n; }
  S.freeBufCount = S.freeSlotCount = 0;
  S.freeBufBytes = 0;
}

/* ------------------------------------------------------------------ run */

struct Run {
  Run *next;
  uint32_t id;
  uint32_t nbuf;
  uint32_t npipe, pipesCached;
  Pipe *pipes[MAX_KERNELS];
  Slot *slot;
  PoolBuf *pb[MAX_BUFFERS];
  size_t len[MAX_BUFFERS];
  napi_ref ref[MAX_BUFFERS];
  napi_deferred deferred;
  napi_async_work work;
  uint64_t timeoutNs;
  VkResult waitResult;
  bool deviceAddresses;
  uint32_t buffersReused;
  uint64_t seqStart, errStart; /* validation message marks at the start of the run */
  double t0, tPipeline, tSubmit, tDone;
};

/* recycle: hand slot and buffers back to their pools (a completed run); else destroy them. */
static void run_free(napi_env env, Run *run, bool recycle) {
  if (run->slot) {
    if (recycle) slot_put(run->slot);
    else slot_destroy(run->slot);
  }
  for (uint32_t i = 0; i < run->nbuf; i++) {
    if (run->pb[i]) {
      if (recycle) buf_put(run->pb[i]);
      else buf_destroy(run->pb[i]);
    }
    if (env && run->ref[i]) napi_delete_reference(env, run->ref[i]);
  }
  for (uint32_t k = 0; k < run->npipe; k++) pipe_release(run->pipes[k]);
  free(run);
}

static int pick_memory(uint32_t typeBits) {
  const VkMemoryPropertyFlags need = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  int best = -1;
  for (uint32_t i = 0; i < S.mem.memoryTypeCount; i++) {
    if (!(typeBits & (1u << i))) continue;
    VkMemoryPropertyFlags f = S.mem.memoryTypes[i].propertyFlags;
    if ((f & need) != need) continue;
    if (best < 0) best = (int)i;
    if (f & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) return (int)i; /* fast readback */
  }
  return best;
}

/* A buffer of at least `size` bytes with or without SHADER_DEVICE_ADDRESS: the best-fitting free
   one, else a new one. NULL with *what and *r on failure. */
static PoolBuf *buf_get(VkDeviceSize size, bool bda, bool *reused, const char **what, VkResult *r) {
  VkDeviceSize limit = buf_class(size) * 2;
  PoolBuf **best = NULL;
  for (PoolBuf **pp = &S.freeBufs; *pp; pp = &(*pp)->next) {
    PoolBuf *b = *pp;
    if (b->bda == bda && b->cap >= size && b->cap < limit && (!best || b->cap < (*best)->cap)) best = pp;
  }
  if (best) {
    PoolBuf *b = *best;
    *best = b->next;
    S.freeBufCount--;
    S.freeBufBytes -= b->cap;
    b->next = NULL;
    *reused = true;
    S.stats.buffersReused++;
    return b;
  }
  *reused = false;
  VkDevice d = S.device;
  PoolBuf *b = calloc(1, sizeof *b);
  if (!b) { *what = "calloc"; *r = VK_ERROR_OUT_OF_HOST_MEMORY; return NULL; }
  b->cap = buf_class(size);
  b->bda = bda;
  VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = b->cap,
                            .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | (bda ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0),
                            .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
  if ((*r = vkCreateBuffer(d, &bci, NULL, &b->buf)) != VK_SUCCESS) { b->buf = VK_NULL_HANDLE; *what = "vkCreateBuffer"; goto fail; }
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(d, b->buf, &req);
  int type = pick_memory(req.memoryTypeBits);
  if (type < 0) { *what = "finding a host-visible coherent memory type"; *r = VK_ERROR_OUT_OF_DEVICE_MEMORY; goto fail; }
  VkMemoryAllocateFlagsInfo mafi = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO, .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
  VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .pNext = bda ? &mafi : NULL,
                              .allocationSize = req.size, .memoryTypeIndex = (uint32_t)type};
  if ((*r = vkAllocateMemory(d, &mai, NULL, &b->memory)) != VK_SUCCESS) { b->memory = VK_NULL_HANDLE; *what = "vkAllocateMemory"; goto fail; }
  if ((*r = vkBindBufferMemory(d, b->buf, b->memory, 0)) != VK_SUCCESS) { *what = "vkBindBufferMemory"; goto fail; }
  if ((*r = vkMapMemory(d, b->memory, 0, VK_WHOLE_SIZE, 0, &b->map)) != VK_SUCCESS) { *what = "vkMapMemory"; goto fail; }
  if (bda) {
    VkBufferDeviceAddressInfo bdai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = b->buf};
    b->address = vkGetBufferDeviceAddress(d, &bdai);
  }
  S.stats.buffersCreated++;
  return b;
fail:
  buf_destroy(b);
  return NULL;
}

/* A command buffer, fence, descriptor pool (one set of MAX_BUFFERS storage buffers) and, with
   timestamps, a 2-query pool: a free one, reset, else a new one. */
static Slot *slot_get(const char **what, VkResult *r) {
  VkDevice d = S.device;
  Slot *s = S.freeSlots;
  if (s) {
    S.freeSlots = s->next;
    S.freeSlotCount--;
    s->next = NULL;
    if ((*r = vkResetFences(d, 1, &s->fence)) != VK_SUCCESS) { *what = "vkResetFences"; slot_destroy(s); return NULL; }
    if ((*r = vkResetCommandBuffer(s->cb, 0)) != VK_SUCCESS) { *what = "vkResetCommandBuffer"; slot_destroy(s); return NULL; }
    if ((*r = vkResetDescriptorPool(d, s->dpool, 0)) != VK_SUCCESS) { *what = "vkResetDescriptorPool"; slot_destroy(s); return NULL; }
    S.stats.slotsReused++;
    return s;
  }
  s = calloc(1, sizeof *s);
  if (!s) { *what = "calloc"; *r = VK_ERROR_OUT_OF_HOST_MEMORY; return NULL; }
  if (S.timestampValidBits > 0) {
    VkQueryPoolCreateInfo qpci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2};
    if (vkCreateQueryPool(d, &qpci, NULL, &s->query) != VK_SUCCESS) s->query = VK_NULL_HANDLE;
  }
  VkDescriptorPoolSize ps = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = MAX_BUFFERS};
  VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps};
  if ((*r = vkCreateDescriptorPool(d, &dpci, NULL, &s->dpool)) != VK_SUCCESS) { s->dpool = VK_NULL_HANDLE; *what = "vkCreateDescriptorPool"; goto fail; }
  VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = S.pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
  if ((*r = vkAllocateCommandBuffers(d, &cbai, &s->cb)) != VK_SUCCESS) { s->cb = VK_NULL_HANDLE; *what = "vkAllocateCommandBuffers"; goto fail; }
  VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if ((*r = vkCreateFence(d, &fci, NULL, &s->fence)) != VK_SUCCESS) { s->fence = VK_NULL_HANDLE; *what = "vkCreateFence"; goto fail; }
  S.stats.slotsCreated++;
  return s;
fail:
  slot_destroy(s);
  return NULL;
}

/* Errors of the layer that arrived since the start of the run and belong to it (or to no run). */
static uint32_t run_errors(const Run *run) {
  uint32_t errors = 0;
  if (!S.validation) return 0;
  pthread_mutex_lock(&msgLock);
  uint64_t first = msgSeq > MAX_MSGS ? msgSeq - MAX_MSGS : 0;
  if (run->seqStart < first) errors = (uint32_t)(msgErrors - run->errStart);
  else if (msgs)
    for (uint64_t q = run->seqStart; q < msgSeq; q++) {
      const Msg *m = &msgs[q % MAX_MSGS];
      if (m->error && (m->run == run->id || m->run == 0)) errors++;
    }
  pthread_mutex_unlock(&msgLock);
  return errors;
}

/* The cached pipeline for the key, or a new one (cached unless too big or its creation drew a
   validation error). NULL with *what and *r on failure. */
static Pipe *pipe_get(Run *run, const uint32_t *words, size_t nWords, const char *entry, uint32_t nbuf, uint32_t pushBytes,
                      uint32_t requiredSize, bool fullSubgroups, const char **what, VkResult *r) {
  uint32_t key[4] = {nbuf, pushBytes, requiredSize, fullSubgroups};
  uint64_t h = fnv1a(0xcbf29ce484222325ull, words, nWords * 4);
  h = fnv1a(h, entry, strlen(entry) + 1);
  h = fnv1a(h, key, sizeof key);
  for (Pipe **pp = &S.pipes; *pp; pp = &(*pp)->next) {
    Pipe *p = *pp;
    if (p->hash == h && p->nWords == nWords && p->nbuf == nbuf && p->pushBytes == pushBytes && p->requiredSize == requiredSize &&
        p->fullSubgroups == fullSubgroups && strcmp(p->entry, entry) == 0 && memcmp(p->words, words, nWords * 4) == 0) {
      *pp = p->next; /* to the front */
      p->next = S.pipes;
      S.pipes = p;
      p->refs++;
      run->pipesCached++;
      S.stats.pipelineHits++;
      return p;
    }
  }
  S.stats.pipelineMisses++;
  VkDevice d = S.device;
  Pipe *p = calloc(1, sizeof *p);
  if (!p) { *what = "calloc"; *r = VK_ERROR_OUT_OF_HOST_MEMORY; return NULL; }
  p->hash = h;
  p->nWords = nWords;
  snprintf(p->entry, sizeof p->entry, "%s", entry);
  p->nbuf = nbuf;
  p->pushBytes = pushBytes;
  p->requiredSize = requiredSize;
  p->fullSubgroups = fullSubgroups;
  p->refs = 1;

  VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = nWords * 4, .pCode = words};
  if ((*r = vkCreateShaderModule(d, &smci, NULL, &p->module)) != VK_SUCCESS) { p->module = VK_NULL_HANDLE; *what = "vkCreateShaderModule"; goto fail; }
  VkDescriptorSetLayoutBinding bindings[MAX_BUFFERS];
  for (uint32_t i = 0; i < nbuf; i++)
    bindings[i] = (VkDescriptorSetLayoutBinding){.binding = i, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                 .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
  VkDescriptorSetLayoutCreateInfo dslci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = nbuf,
                                           .pBindings = bindings};
  if ((*r = vkCreateDescriptorSetLayout(d, &dslci, NULL, &p->dsl)) != VK_SUCCESS) { p->dsl = VK_NULL_HANDLE; *what = "vkCreateDescriptorSetLayout"; goto fail; }
  /* pushBytes (default the full 128, zero-padded): any push block up to that size is covered */
  VkPushConstantRange pcr = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .offset = 0, .size = pushBytes};
  VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                     .pSetLayouts = &p->dsl, .pushConstantRangeCount = pushBytes ? 1 : 0, .pPushConstantRanges = &pcr};
  if ((*r = vkCreatePipelineLayout(d, &plci, NULL, &p->layout)) != VK_SUCCESS) { p->layout = VK_NULL_HANDLE; *what = "vkCreatePipelineLayout"; goto fail; }
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo rss = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO, .requiredSubgroupSize = requiredSize};
  VkComputePipelineCreateInfo cpci = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .pNext = requiredSize ? &rss : NULL,
                .flags = fullSubgroups ? VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT : 0,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = p->module,
                .pName = entry},
      .layout = p->layout};
  if ((*r = vkCreateComputePipelines(d, S.cache, 1, &cpci, NULL, &p->pipeline)) != VK_SUCCESS) {
    p->pipeline = VK_NULL_HANDLE;
    *what = "vkCreateComputePipelines";
    goto fail;
  }
  if (nWords <= MAX_CACHED_SPIRV_WORDS && run_errors(run) == 0) {
    p->words = malloc(nWords * 4);
    if (p->words) {
      memcpy(p->words, words, nWords * 4);
      p->cached = true;
      p->next = S.pipes;
      S.pipes = p;
      pipes_trim();
    }
  }
  return p;
fail:
  pipe_destroy(p);
  return NULL;
}

/* Sets the run's validation messages (`validation`: [{severity, id, message}], `validationErrors`)
   on a result or error object. */
static void attach_messages(napi_env env, const Run *run, napi_value o) {
  if (!S.validation) return;
  uint32_t errors = 0;
  napi_value arr = msgs_collect(env, run->seqStart, run->errStart, run->id, MAX_RUN_MSGS, &errors);
  if (arr) napi_set_named_property(env, o, "validation", arr);
  set_num(env, o, "validationErrors", errors);
}

static void run_execute(napi_env env, void *data) {
  Run *run = data;
  run->waitResult = vkWaitForFences(S.device, 1, &run->slot->fence, VK_TRUE, run->timeoutNs);
}

static void run_complete(napi_env env, napi_status status, void *data) {
  Run *run = data;
  tlRun = run->id;
  S.inflight--;
  napi_value result, err = NULL;
  if (status != napi_ok || run->waitResult != VK_SUCCESS) {
    VkResult r = status != napi_ok ? VK_ERROR_UNKNOWN : run->waitResult;
    char msg[256];
    snprintf(msg, sizeof msg, "vkWaitForFences failed: %s (%d)%s", vk_result_name(r), (int)r,
             r == VK_TIMEOUT ? "; the dispatch was abandoned and the device accepts no more runs" : "");
    napi_value code, m;
    napi_create_string_utf8(env, vk_result_name(r), NAPI_AUTO_LENGTH, &code);
    napi_create_string_utf8(env, msg, NAPI_AUTO_LENGTH, &m);
    napi_create_error(env, code, m, &err);
    attach_messages(env, run, err);
    S.poisoned = true;
    /* the GPU may still use the resources: keep them until shutdown */
    for (uint32_t i = 0; i < run->nbuf; i++) {
      if (run->ref[i]) napi_delete_reference(env, run->ref[i]);
      run->ref[i] = NULL;
    }
    napi_delete_async_work(env, run->work);
    napi_deferred deferred = run->deferred;
    run->next = S.leaked;
    S.leaked = run;
    napi_reject_deferred(env, deferred, err);
    tlRun = 0;
    return;
  }
  run->tDone = now_ms();
  /* copy back into the caller's memory (looked up again: the object may have been detached) */
  for (uint32_t i = 0; i < run->nbuf; i++) {
    napi_value v;
    void *data2 = NULL;
    size_t len2 = 0;
    if (napi_get_reference_value(env, run->ref[i], &v) == napi_ok && v && get_bytes(env, v, &data2, &len2) && data2) {
      memcpy(data2, run->pb[i]->map, len2 < run->len[i] ? len2 : run->len[i]);
    }
  }
  double tRead = now_ms();
  double gpuMs = -1;
  if (run->slot->query) {
    uint64_t ts[2];
    if (vkGetQueryPoolResults(S.device, run->slot->query, 0, 2, sizeof ts, ts, sizeof ts[0], VK_QUERY_RESULT_64_BIT) == VK_SUCCESS) {
      uint64_t mask = S.timestampValidBits >= 64 ? ~0ull : ((1ull << S.timestampValidBits) - 1);
      gpuMs = (double)((ts[1] - ts[0]) & mask) * (double)S.props.limits.timestampPeriod / 1e6;
    }
  }
  napi_create_object(env, &result);
  set_num(env, result, "ms", tRead - run->t0);
  set_num(env, result, "pipelineMs", run->tPipeline - run->t0);
  set_num(env, result, "uploadMs", run->tSubmit - run->tPipeline);
  set_num(env, result, "dispatchMs", run->tDone - run->tSubmit);
  set_num(env, result, "readbackMs", tRead - run->tDone);
  set_bool(env, result, "pipelineCached", run->pipesCached == run->npipe);
  set_num(env, result, "buffersReused", run->buffersReused);
  if (gpuMs >= 0) set_num(env, result, "gpuMs", gpuMs);
  if (run->deviceAddresses) {
    napi_value arr, x;
    napi_create_array_with_length(env, run->nbuf, &arr);
    for (uint32_t i = 0; i < run->nbuf; i++) {
      napi_create_bigint_uint64(env, run->pb[i]->address, &x);
      napi_set_element(env, arr, i, x);
    }
    napi_set_named_property(env, result, "addresses", arr);
  }
  attach_messages(env, run, result);
  napi_delete_async_work(env, run->work);
  napi_deferred deferred = run->deferred;
  run_free(env, run, true);
  napi_resolve_deferred(env, deferred, result);
  tlRun = 0;
}

/* Patch: write the 64-bit address of buffer `src` plus `add` at byte `offset` of step `step`'s push
   block (into < 0) or of buffer `into`; with bits48 only its low 48 bits (6 bytes: a buffer
   resource's base address, whose dword keeps the stride above it); with tsharp an image resource's
   base address (bits 39:8 as the dword at `offset`, bits 47:40 as the next byte; 256-byte aligned). */
typedef struct {
  int32_t into;
  uint32_t src;
  uint32_t offset;
  uint32_t step;
  uint64_t add;
  bool bits48;
  bool tsharp;
} Patch;

/* What one submission runs, as parsed from run() or runSteps(): kernels (SPIR-V + entry), the
   buffers (shared by every step), the steps (kernel, groups, push block) and the options. */
typedef struct {
  uint32_t nkern;
  const uint32_t *words[MAX_KERNELS];
  size_t nWords[MAX_KERNELS];
  char entry[MAX_KERNELS][256];
  uint32_t localSize[MAX_KERNELS][3];
  uint32_t nbuf;
  napi_value bufVal[MAX_BUFFERS];
  void *bufData[MAX_BUFFERS];
  size_t bufLen[MAX_BUFFERS];
  uint32_t nsteps;
  uint32_t *stepKernel;  /* nsteps */
  uint32_t *stepGroups;  /* 3 * nsteps */
  uint8_t *push;         /* nsteps * PUSH_BYTES, zero-padded */
  size_t pushLen;        /* the longest push block given */
  Patch *patches;
  uint32_t npatch;
  uint32_t requiredSize, pushBytes;
  bool fullSubgroups, deviceAddresses;
  double timeoutMs;
} Job;

static void job_free(Job *j) {
  free(j->stepKernel);
  free(j->stepGroups);
  free(j->push);
  free(j->patches);
}

/* Throws the Vulkan error (with the run's validation messages attached) after freeing the run. */
static napi_value run_fail(napi_env env, Run *run, const char *what, VkResult r) {
  char msg[256];
  snprintf(msg, sizeof msg, "%s failed: %s (%d)", what, vk_result_name(r), (int)r);
  napi_value e, c, m;
  if (napi_create_string_utf8(env, vk_result_name(r), NAPI_AUTO_LENGTH, &c) == napi_ok &&
      napi_create_string_utf8(env, msg, NAPI_AUTO_LENGTH, &m) == napi_ok && napi_create_error(env, c, m, &e) == napi_ok) {
    attach_messages(env, run, e);
    run_free(env, run, false);
    napi_throw(env, e);
  } else {
    run_free(env, run, false);
    napi_throw_error(env, vk_result_name(r), msg);
  }
  return NULL;
}

#define RUN_FAIL_VK(what, r) return run_fail(env, run, what, r)

/* The calls' common checks: initialised, same env, not poisoned; false with an exception pending. */
static bool ready_or_throw(napi_env env) {
  const char *why = !S.ready ? "Vulkan is not initialised: call init() first"
                    : env != S.env ? "Vulkan was initialised by another Node environment (worker)"
                    : S.poisoned ? "an earlier run timed out or lost the device: call shutdown() and init() again" : NULL;
  if (why) throw_state(env, why);
  return why == NULL;
}

/* Kernel k of the job from a Uint32Array and an entry-point string (`fn` names the call in messages).
   Returns false with an exception pending. */
static bool parse_kernel(napi_env env, const char *fn, napi_value spirv, napi_value entryV, Job *j, uint32_t k) {
  bool isTa = false;
  char err[360];
  if (napi_is_typedarray(env, spirv, &isTa) != napi_ok || !isTa) {
    snprintf(err, sizeof err, "%s: spirv must be a Uint32Array", fn);
    throw_type(env, err);
    return false;
  }
  napi_typedarray_type tt;
  size_t nWords, off;
  void *spvData;
  napi_value ab;
  if (napi_get_typedarray_info(env, spirv, &tt, &nWords, &spvData, &ab, &off) != napi_ok || tt != napi_uint32_array) {
    snprintf(err, sizeof err, "%s: spirv must be a Uint32Array", fn);
    throw_type(env, err);
    return false;
  }
  if (nWords > (64u << 20)) {
    snprintf(err, sizeof err, "%s: SPIR-V module over 256 MiB", fn);
    throw_range(env, err);
    return false;
  }
  napi_valuetype t;
  size_t entryLen = 0;
  if (napi_typeof(env, entryV, &t) != napi_ok || t != napi_string) {
    snprintf(err, sizeof err, "%s: entry must be a string", fn);
    throw_type(env, err);
    return false;
  }
  if (napi_get_value_string_utf8(env, entryV, j->entry[k], sizeof j->entry[k], &entryLen) != napi_ok || entryLen == 0 ||
      entryLen >= sizeof j->entry[k] - 1) {
    snprintf(err, sizeof err, "%s: entry name must be 1..254 bytes", fn);
    throw_range(env, err);
    return false;
  }
  if (!scan_spirv(spvData, nWords, j->entry[k], j->localSize[k], err, sizeof err)) {
    napi_throw_error(env, "ERR_INVALID_SPIRV", err);
    return false;
  }
  j->words[k] = spvData;
  j->nWords[k] = nWords;
  return true;
}

static bool parse_buffers(napi_env env, const char *fn, napi_value arr, Job *j) {
  char err[256];
  bool isArr = false;
  if (napi_is_array(env, arr, &isArr) != napi_ok || !isArr) {
    snprintf(err, sizeof err, "%s: buffers must be an array of ArrayBuffer or TypedArray", fn);
    throw_type(env, err);
    return false;
  }
  uint32_t nbuf = 0;
  if (napi_get_array_length(env, arr, &nbuf) != napi_ok) return false;
  uint32_t maxBuf = S.props.limits.maxPerStageDescriptorStorageBuffers < MAX_BUFFERS ? S.props.limits.maxPerStageDescriptorStorageBuffers : MAX_BUFFERS;
  if (nbuf > maxBuf) {
    snprintf(err, sizeof err, "%s: %u buffers, the limit is %u", fn, nbuf, maxBuf);
    throw_range(env, err);
    return false;
  }
  uint64_t total = 0;
  for (uint32_t i = 0; i < nbuf; i++) {
    if (napi_get_element(env, arr, i, &j->bufVal[i]) != napi_ok) return false;
    if (!get_bytes(env, j->bufVal[i], &j->bufData[i], &j->bufLen[i])) {
      snprintf(err, sizeof err, "%s: buffers[%u] is not an ArrayBuffer, TypedArray or DataView", fn, i);
      throw_type(env, err);
      return false;
    }
    total += j->bufLen[i];
    if (j->bufLen[i] > S.props.limits.maxStorageBufferRange) {
      snprintf(err, sizeof err, "%s: buffers[%u] has %zu bytes, over the device's maxStorageBufferRange %u", fn, i, j->bufLen[i],
               S.props.limits.maxStorageBufferRange);
      throw_range(env, err);
      return false;
    }
  }
  if (total > MAX_TOTAL_BYTES) {
    snprintf(err, sizeof err, "%s: buffers total %llu bytes, over the 1 GiB limit", fn, (unsigned long long)total);
    throw_range(env, err);
    return false;
  }
  j->nbuf = nbuf;
  return true;
}

/* groups[3*s .. 3*s+2] from three numbers, each 1..the device's limit. */
static bool check_groups(napi_env env, const char *fn, const double d[3], uint32_t *out) {
  char err[160];
  for (uint32_t i = 0; i < 3; i++) {
    uint32_t lim = S.props.limits.maxComputeWorkGroupCount[i] < MAX_GROUPS ? S.props.limits.maxComputeWorkGroupCount[i] : MAX_GROUPS;
    if (!(d[i] >= 1 && d[i] <= lim) || d[i] != (double)(uint32_t)d[i]) {
      snprintf(err, sizeof err, "%s: groups[%u] = %g, must be an integer 1..%u", fn, i, d[i], lim);
      throw_range(env, err);
      return false;
    }
    out[i] = (uint32_t)d[i];
  }
  return true;
}

/* The options object (run's and runSteps' alike); patches are checked against the job's buffers,
   steps and push range. */
static bool parse_options(napi_env env, const char *fn, napi_value opts, Job *j) {
  char err[320];
  napi_valuetype t;
  j->pushBytes = PUSH_BYTES;
  j->timeoutMs = DEFAULT_TIMEOUT_MS;
  if (napi_typeof(env, opts, &t) != napi_ok) return false;
  if (t == napi_undefined) goto checks;
  if (t != napi_object) {
    snprintf(err, sizeof err, "%s: options must be an object", fn);
    throw_type(env, err);
    return false;
  }
  napi_value v;
  double d;
#define OPT_FAIL(kind, ...) do { snprintf(err, sizeof err, __VA_ARGS__); throw_##kind(env, err); return false; } while (0)
  if (get_named(env, opts, "pushBytes", &v, &t)) {
    if (t != napi_number) OPT_FAIL(type, "%s: pushBytes must be a number", fn);
    if (napi_get_value_double(env, v, &d) != napi_ok) return false;
    if (!(d >= 0 && d <= PUSH_BYTES) || d != (double)(uint32_t)d || ((uint32_t)d & 3)) OPT_FAIL(range, "%s: pushBytes must be a multiple of 4 in 0..128", fn);
    j->pushBytes = (uint32_t)d;
  }
  if (get_named(env, opts, "requiredSubgroupSize", &v, &t)) {
    if (t != napi_number) OPT_FAIL(type, "%s: requiredSubgroupSize must be a number", fn);
    if (napi_get_value_double(env, v, &d) != napi_ok) return false;
    if (!S.en.subgroupSizeControl || !S.haveSubgroupSizeControlProps || !(S.pssc.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT))
      OPT_FAIL(range, "%s: requiredSubgroupSize: the device has no subgroupSizeControl for compute", fn);
    uint32_t s = (uint32_t)d;
    if ((double)s != d || s < S.pssc.minSubgroupSize || s > S.pssc.maxSubgroupSize || (s & (s - 1)))
      OPT_FAIL(range, "%s: requiredSubgroupSize %g: must be a power of two in %u..%u", fn, d, S.pssc.minSubgroupSize, S.pssc.maxSubgroupSize);
    j->requiredSize = s;
  }
  if (get_named(env, opts, "fullSubgroups", &v, &t)) {
    if (t != napi_boolean) OPT_FAIL(type, "%s: fullSubgroups must be a boolean", fn);
    if (napi_get_value_bool(env, v, &j->fullSubgroups) != napi_ok) return false;
  }
  if (get_named(env, opts, "deviceAddressBuffers", &v, &t)) {
    if (t != napi_boolean) OPT_FAIL(type, "%s: deviceAddressBuffers must be a boolean", fn);
    if (napi_get_value_bool(env, v, &j->deviceAddresses) != napi_ok) return false;
  }
  if (get_named(env, opts, "timeoutMs", &v, &t)) {
    if (t != napi_number) OPT_FAIL(type, "%s: timeoutMs must be a number", fn);
    if (napi_get_value_double(env, v, &j->timeoutMs) != napi_ok) return false;
    if (!(j->timeoutMs > 0 && j->timeoutMs <= 3.6e6)) OPT_FAIL(range, "%s: timeoutMs must be in (0, 3600000]", fn);
  }
  if (get_named(env, opts, "addressPatches", &v, &t)) {
    bool pa = false;
    if (napi_is_array(env, v, &pa) != napi_ok || !pa) OPT_FAIL(type, "%s: addressPatches must be an array", fn);
    uint32_t n = 0;
    if (napi_get_array_length(env, v, &n) != napi_ok) return false;
    if (n > MAX_PATCHES) OPT_FAIL(range, "%s: more than %u addressPatches", fn, MAX_PATCHES);
    j->patches = calloc(n ? n : 1, sizeof *j->patches);
    if (!j->patches) OPT_FAIL(range, "%s: out of memory for %u addressPatches", fn, n);
    for (uint32_t i = 0; i < n; i++) {
      napi_value e, f;
      napi_valuetype ft;
      double into, src, offs, step = 0, add = 0;
      bool bits48 = false, tsharp = false;
      if (napi_get_element(env, v, i, &e) != napi_ok) return false;
      if (!get_named(env, e, "into", &f, &ft) || ft != napi_number || napi_get_value_double(env, f, &into) != napi_ok ||
          !get_named(env, e, "buffer", &f, &ft) || ft != napi_number || napi_get_value_double(env, f, &src) != napi_ok ||
          !get_named(env, e, "offset", &f, &ft) || ft != napi_number || napi_get_value_double(env, f, &offs) != napi_ok ||
          (get_named(env, e, "step", &f, &ft) && (ft != napi_number || napi_get_value_double(env, f, &step) != napi_ok)) ||
          (get_named(env, e, "add", &f, &ft) && (ft != napi_number || napi_get_value_double(env, f, &add) != napi_ok)) ||
          (get_named(env, e, "bits48", &f, &ft) && (ft != napi_boolean || napi_get_value_bool(env, f, &bits48) != napi_ok)) ||
          (get_named(env, e, "tsharp", &f, &ft) && (ft != napi_boolean || napi_get_value_bool(env, f, &tsharp) != napi_ok)))
        OPT_FAIL(type, "%s: each address patch is {into: number (-1 = push), buffer: number, offset: number, step?: number, add?: number, bits48?: boolean, tsharp?: boolean}", fn);
      if (bits48 && tsharp) OPT_FAIL(range, "%s: address patch: bits48 and tsharp are two different layouts", fn);
      if (!(src >= 0 && src < j->nbuf) || src != (double)(uint32_t)src) OPT_FAIL(range, "%s: address patch: buffer index out of range", fn);
      if (!(into >= -1 && into < j->nbuf) || into != (double)(int32_t)into) OPT_FAIL(range, "%s: address patch: into out of range", fn);
      if (!(step >= 0 && step < j->nsteps) || step != (double)(uint32_t)step || (into >= 0 && step != 0))
        OPT_FAIL(range, "%s: address patch: step out of range (a step is for patches into push blocks)", fn);
      if (!(add >= 0 && add <= 9007199254740991.0) || add != (double)(uint64_t)add) OPT_FAIL(range, "%s: address patch: add must be an integer 0..2^53-1", fn);
      size_t room = into < 0 ? j->pushBytes : j->bufLen[(uint32_t)into];
      if (!(offs >= 0 && offs + 8 <= (double)room) || offs != (double)(uint32_t)offs)
        OPT_FAIL(range, "%s: address patch: offset + 8 past the end of its target", fn);
      j->patches[i] = (Patch){.into = (int32_t)into, .src = (uint32_t)src, .offset = (uint32_t)offs, .step = (uint32_t)step, .add = (uint64_t)add, .bits48 = bits48, .tsharp = tsharp};
    }
    j->npatch = n;
    if (n) j->deviceAddresses = true;
  }
#undef OPT_FAIL
checks:
  if (j->deviceAddresses && !S.en.bufferDeviceAddress) {
    snprintf(err, sizeof err, "%s: deviceAddressBuffers: the device has no bufferDeviceAddress", fn);
    throw_range(env, err);
    return false;
  }
  if (j->fullSubgroups) {
    if (!S.en.computeFullSubgroups) {
      snprintf(err, sizeof err, "%s: fullSubgroups: the device has no computeFullSubgroups", fn);
      throw_range(env, err);
      return false;
    }
    uint32_t need = j->requiredSize ? j->requiredSize : (S.haveSubgroupSizeControlProps ? S.pssc.maxSubgroupSize : S.p11.subgroupSize);
    for (uint32_t k = 0; k < j->nkern; k++)
      if (j->localSize[k][0] % need) {
        snprintf(err, sizeof err, "%s: fullSubgroups needs LocalSize x (%u) to be a multiple of %u", fn, j->localSize[k][0], need);
        throw_range(env, err);
        return false;
      }
  }
  if (j->pushLen > j->pushBytes) {
    snprintf(err, sizeof err, "%s: push constants have %zu bytes, over the push range of %u (pushBytes)", fn, j->pushLen, j->pushBytes);
    throw_range(env, err);
    return false;
  }
  return true;
}

/* Builds the pipelines and buffers, records every step (a compute-to-compute memory barrier
   between steps, so each dispatch sees the previous ones' writes), submits once and returns the
   promise; the job's arrays are freed by the caller. */
static napi_value submit(napi_env env, Job *j) {
  Run *run = calloc(1, sizeof *run);
  if (!run) return throw_vk(env, "calloc", VK_ERROR_OUT_OF_HOST_MEMORY);
  if (++S.nextRunId == 0 || S.nextRunId == UINT32_MAX) S.nextRunId = 1;
  run->id = S.nextRunId;
  tlRun = run->id;
  msg_mark(&run->seqStart, &run->errStart);
  run->t0 = now_ms();
  run->nbuf = j->nbuf;
  run->deviceAddresses = j->deviceAddresses;
  run->timeoutNs = (uint64_t)(j->timeoutMs * 1e6);
  VkDevice d = S.device;
  VkResult r = VK_SUCCESS;
  const char *what = "";
  char err[200];

  for (uint32_t k = 0; k < j->nkern; k++) {
    run->pipes[k] = pipe_get(run, j->words[k], j->nWords[k], j->entry[k], j->nbuf, j->pushBytes, j->requiredSize, j->fullSubgroups, &what, &r);
    if (!run->pipes[k]) RUN_FAIL_VK(what, r);
    run->npipe = k + 1;
  }
  run->tPipeline = now_ms();

  /* buffers: the data, then zeros up to the buffer's capacity (the descriptor's range is the data
     rounded up to 4 bytes; the zeros keep what a pointer past the end reads the same whether the
     buffer is new or reused) */
  for (uint32_t i = 0; i < j->nbuf; i++) {
    size_t size = j->bufLen[i] < 4 ? 4 : (j->bufLen[i] + 3) & ~(size_t)3;
    bool reused = false;
    run->pb[i] = buf_get(size, j->deviceAddresses, &reused, &what, &r);
    if (!run->pb[i]) RUN_FAIL_VK(what, r);
    if (reused) run->buffersReused++;
    run->len[i] = j->bufLen[i];
    memcpy(run->pb[i]->map, j->bufData[i], j->bufLen[i]);
    if (run->pb[i]->cap > j->bufLen[i]) memset((uint8_t *)run->pb[i]->map + j->bufLen[i], 0, run->pb[i]->cap - j->bufLen[i]);
  }
  for (uint32_t i = 0; i < j->npatch; i++) {
    const Patch *p = &j->patches[i];
    uint64_t a = run->pb[p->src]->address + p->add;
    uint8_t *dst = p->into < 0 ? j->push + (size_t)p->step * PUSH_BYTES : (uint8_t *)run->pb[p->into]->map;
    if ((p->bits48 || p->tsharp) && ((a >> 48) != 0 || (p->tsharp && (a & 0xff) != 0))) {
      char msg[192];
      snprintf(msg, sizeof msg, "a %s resource's base address is 48 bits%s; the device gave buffer %u the address 0x%llx", p->tsharp ? "image" : "buffer", p->tsharp ? " and 256-byte aligned" : "", p->src, (unsigned long long)a);
      run_free(env, run, false);
      napi_throw_range_error(env, "ERR_OUT_OF_RANGE", msg);
      return NULL;
    }
    if (p->tsharp) {
      uint64_t v = a >> 8; /* BASE_ADDRESS (bits 39:8) as the dword, BASE_ADDRESS_HI (47:40) as the next byte */
      for (int b = 0; b < 5; b++) dst[p->offset + b] = (uint8_t)(v >> (8 * b));
    } else {
      for (int b = 0; b < (p->bits48 ? 6 : 8); b++) dst[p->offset + b] = (uint8_t)(a >> (8 * b)); /* little-endian */
    }
  }

  run->slot = slot_get(&what, &r);
  if (!run->slot) RUN_FAIL_VK(what, r);
  Slot *sl = run->slot;

  /* descriptors: every pipeline of the run has the same set layout definition (nbuf storage
     buffers), so one set bound once serves all of them */
  VkDescriptorSet set = VK_NULL_HANDLE;
  if (j->nbuf) {
    VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = sl->dpool,
                                        .descriptorSetCount = 1, .pSetLayouts = &run->pipes[0]->dsl};
    if ((r = vkAllocateDescriptorSets(d, &dsai, &set)) != VK_SUCCESS) RUN_FAIL_VK("vkAllocateDescriptorSets", r);
    VkDescriptorBufferInfo dbi[MAX_BUFFERS];
    VkWriteDescriptorSet wds[MAX_BUFFERS];
    for (uint32_t i = 0; i < j->nbuf; i++) {
      size_t size = j->bufLen[i] < 4 ? 4 : (j->bufLen[i] + 3) & ~(size_t)3;
      dbi[i] = (VkDescriptorBufferInfo){.buffer = run->pb[i]->buf, .offset = 0, .range = size};
      wds[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = i,
                                      .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .pBufferInfo = &dbi[i]};
    }
    vkUpdateDescriptorSets(d, j->nbuf, wds, 0, NULL);
  }

  /* command buffer */
  VkCommandBufferBeginInfo cbbi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  if ((r = vkBeginCommandBuffer(sl->cb, &cbbi)) != VK_SUCCESS) RUN_FAIL_VK("vkBeginCommandBuffer", r);
  if (sl->query) vkCmdResetQueryPool(sl->cb, sl->query, 0, 2);
  if (j->nbuf) vkCmdBindDescriptorSets(sl->cb, VK_PIPELINE_BIND_POINT_COMPUTE, run->pipes[0]->layout, 0, 1, &set, 0, NULL);
  if (sl->query) vkCmdWriteTimestamp(sl->cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, sl->query, 0);
  VkMemoryBarrier between = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                             .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
  uint32_t bound = UINT32_MAX;
  for (uint32_t s = 0; s < j->nsteps; s++) {
    uint32_t k = j->stepKernel[s];
    Pipe *p = run->pipes[k];
    if (k != bound) {
      vkCmdBindPipeline(sl->cb, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
      bound = k;
    }
    /* the whole range is always pushed (zeros past the given bytes) */
    if (j->pushBytes) vkCmdPushConstants(sl->cb, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, j->pushBytes, j->push + (size_t)s * PUSH_BYTES);
    vkCmdDispatch(sl->cb, j->stepGroups[3 * s], j->stepGroups[3 * s + 1], j->stepGroups[3 * s + 2]);
    if (s + 1 < j->nsteps)
      vkCmdPipelineBarrier(sl->cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &between, 0, NULL, 0, NULL);
  }
  if (sl->query) vkCmdWriteTimestamp(sl->cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, sl->query, 1);
  VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                        .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(sl->cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
  if ((r = vkEndCommandBuffer(sl->cb)) != VK_SUCCESS) RUN_FAIL_VK("vkEndCommandBuffer", r);

  /* keep the caller's buffers alive until the copy back */
  for (uint32_t i = 0; i < j->nbuf; i++) {
    if (napi_create_reference(env, j->bufVal[i], 1, &run->ref[i]) != napi_ok) {
      run->ref[i] = NULL;
      run_free(env, run, false);
      return throw_state(env, "run: napi_create_reference failed");
    }
  }
  napi_value promise, name;
  if (napi_create_promise(env, &run->deferred, &promise) != napi_ok ||
      napi_create_string_utf8(env, "rdna_vulkan.run", NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_create_async_work(env, NULL, name, run_execute, run_complete, run, &run->work) != napi_ok) {
    run_free(env, run, false);
    return throw_state(env, "run: could not create the async work");
  }
  run->tSubmit = now_ms();
  VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &sl->cb};
  if ((r = vkQueueSubmit(S.queue, 1, &si, sl->fence)) != VK_SUCCESS) {
    napi_delete_async_work(env, run->work);
    napi_value e, c, m;
    snprintf(err, sizeof err, "vkQueueSubmit failed: %s (%d)", vk_result_name(r), (int)r);
    napi_create_string_utf8(env, vk_result_name(r), NAPI_AUTO_LENGTH, &c);
    napi_create_string_utf8(env, err, NAPI_AUTO_LENGTH, &m);
    napi_create_error(env, c, m, &e);
    attach_messages(env, run, e);
    napi_reject_deferred(env, run->deferred, e);
    if (r == VK_ERROR_DEVICE_LOST) S.poisoned = true;
    run_free(env, run, false);
    return promise;
  }
  if (napi_queue_async_work(env, run->work) != napi_ok) {
    /* cannot wait off-thread: wait here, then complete synchronously */
    run_execute(env, run);
    S.inflight++;
    run_complete(env, napi_ok, run);
    return promise;
  }
  S.inflight++;
  return promise;
}

/* run(spirv, entry, buffers, push, groups, options?): one kernel, one dispatch. */
static napi_value run_inner(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (!ready_or_throw(env)) return NULL;
  if (argc < 5) return throw_type(env, "run(spirv, entry, buffers, push, groups, options?)");
  Job j;
  memset(&j, 0, sizeof j);
  j.nkern = 1;
  if (!parse_kernel(env, "run", argv[0], argv[1], &j, 0)) return NULL;
  if (!parse_buffers(env, "run", argv[2], &j)) return NULL;
  j.nsteps = 1;
  j.stepKernel = calloc(1, sizeof *j.stepKernel);
  j.stepGroups = calloc(3, sizeof *j.stepGroups);
  j.push = calloc(1, PUSH_BYTES);
  napi_value result = NULL;
  if (!j.stepKernel || !j.stepGroups || !j.push) {
    throw_vk(env, "calloc", VK_ERROR_OUT_OF_HOST_MEMORY);
    goto done;
  }
  /* push */
  napi_valuetype t;
  if (napi_typeof(env, argv[3], &t) != napi_ok) goto done;
  if (t != napi_undefined && t != napi_null) {
    void *pd;
    if (!get_bytes(env, argv[3], &pd, &j.pushLen)) { throw_type(env, "run: push must be an ArrayBuffer, TypedArray or undefined"); goto done; }
    if (j.pushLen > PUSH_BYTES) {
      char err[96];
      snprintf(err, sizeof err, "run: push constants have %zu bytes, over 128", j.pushLen);
      throw_range(env, err);
      goto done;
    }
    memcpy(j.push, pd, j.pushLen);
  }
  /* groups */
  bool isArr = false;
  uint32_t gl = 0;
  if (napi_is_array(env, argv[4], &isArr) != napi_ok) goto done;
  if (isArr && napi_get_array_length(env, argv[4], &gl) != napi_ok) goto done;
  if (!isArr || gl != 3) { throw_type(env, "run: groups must be [x, y, z]"); goto done; }
  double g[3];
  for (uint32_t i = 0; i < 3; i++) {
    napi_value e;
    if (napi_get_element(env, argv[4], i, &e) != napi_ok) goto done;
    if (napi_get_value_double(env, e, &g[i]) != napi_ok) { throw_type(env, "run: groups must be numbers"); goto done; }
  }
  if (!check_groups(env, "run", g, j.stepGroups)) goto done;
  napi_value undef;
  napi_get_undefined(env, &undef);
  if (!parse_options(env, "run", argc >= 6 ? argv[5] : undef, &j)) goto done;
  result = submit(env, &j);
done:
  job_free(&j);
  return result;
}

static napi_value js_run(napi_env env, napi_callback_info info) {
  napi_value v = run_inner(env, info);
  tlRun = 0;
  return v;
}

/* runSteps(kernels, buffers, steps, options?): kernels [{spirv, entry}], steps {kernel: Uint32Array,
   groups: Uint32Array (3 per step), push?: Uint8Array (pushBytes per step)}; every step in order in
   one submission over the same buffers. */
static napi_value run_steps_inner(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (!ready_or_throw(env)) return NULL;
  if (argc < 3) return throw_type(env, "runSteps(kernels, buffers, steps, options?)");
  Job j;
  memset(&j, 0, sizeof j);
  napi_value result = NULL;
  char err[200];
  bool isArr = false;
  if (napi_is_array(env, argv[0], &isArr) != napi_ok) goto done;
  if (!isArr) { throw_type(env, "runSteps: kernels must be an array of {spirv, entry}"); goto done; }
  if (napi_get_array_length(env, argv[0], &j.nkern) != napi_ok) goto done;
  if (j.nkern < 1 || j.nkern > MAX_KERNELS) {
    snprintf(err, sizeof err, "runSteps: %u kernels, must be 1..%u", j.nkern, MAX_KERNELS);
    throw_range(env, err);
    goto done;
  }
  for (uint32_t k = 0; k < j.nkern; k++) {
    napi_value e, sp, en;
    napi_valuetype ft;
    if (napi_get_element(env, argv[0], k, &e) != napi_ok) goto done;
    if (!get_named(env, e, "spirv", &sp, &ft) || !get_named(env, e, "entry", &en, &ft)) {
      throw_type(env, "runSteps: each kernel is {spirv: Uint32Array, entry: string}");
      goto done;
    }
    if (!parse_kernel(env, "runSteps", sp, en, &j, k)) goto done;
  }
  if (!parse_buffers(env, "runSteps", argv[1], &j)) goto done;
  /* steps */
  napi_value kv, gv, pv;
  napi_valuetype ft;
  void *kd = NULL, *gd = NULL, *pd = NULL;
  size_t kl = 0, gLen = 0, pl = 0;
  napi_typedarray_type tt;
  size_t n, off;
  napi_value ab;
  bool ta = false;
  if (!get_named(env, argv[2], "kernel", &kv, &ft) || napi_is_typedarray(env, kv, &ta) != napi_ok || !ta ||
      napi_get_typedarray_info(env, kv, &tt, &n, &kd, &ab, &off) != napi_ok || tt != napi_uint32_array ||
      !get_named(env, argv[2], "groups", &gv, &ft) || napi_is_typedarray(env, gv, &ta) != napi_ok || !ta ||
      napi_get_typedarray_info(env, gv, &tt, &gLen, &gd, &ab, &off) != napi_ok || tt != napi_uint32_array) {
    throw_type(env, "runSteps: steps is {kernel: Uint32Array, groups: Uint32Array, push?: ArrayBuffer or TypedArray}");
    goto done;
  }
  kl = n;
  if (kl < 1 || kl > MAX_STEPS) {
    snprintf(err, sizeof err, "runSteps: %zu steps, must be 1..%u", kl, MAX_STEPS);
    throw_range(env, err);
    goto done;
  }
  if (gLen != 3 * kl) { throw_range(env, "runSteps: steps.groups must hold 3 numbers per step"); goto done; }
  j.nsteps = (uint32_t)kl;
  j.stepKernel = malloc(kl * sizeof *j.stepKernel);
  j.stepGroups = malloc(3 * kl * sizeof *j.stepGroups);
  j.push = calloc(kl, PUSH_BYTES);
  if (!j.stepKernel || !j.stepGroups || !j.push) { throw_vk(env, "malloc", VK_ERROR_OUT_OF_HOST_MEMORY); goto done; }
  for (uint32_t s = 0; s < j.nsteps; s++) {
    uint32_t k = ((const uint32_t *)kd)[s];
    if (k >= j.nkern) {
      snprintf(err, sizeof err, "runSteps: step %u names kernel %u of %u", s, k, j.nkern);
      throw_range(env, err);
      goto done;
    }
    j.stepKernel[s] = k;
    double g[3] = {((const uint32_t *)gd)[3 * s], ((const uint32_t *)gd)[3 * s + 1], ((const uint32_t *)gd)[3 * s + 2]};
    if (!check_groups(env, "runSteps", g, j.stepGroups + 3 * s)) goto done;
  }
  if (get_named(env, argv[2], "push", &pv, &ft) && ft != napi_undefined) {
    if (!get_bytes(env, pv, &pd, &pl)) { throw_type(env, "runSteps: steps.push must be an ArrayBuffer or TypedArray"); goto done; }
    if (pl % j.nsteps) { throw_range(env, "runSteps: steps.push must hold the same number of bytes for every step"); goto done; }
    j.pushLen = pl / j.nsteps;
    if (j.pushLen > PUSH_BYTES) {
      snprintf(err, sizeof err, "runSteps: push constants have %zu bytes per step, over 128", j.pushLen);
      throw_range(env, err);
      goto done;
    }
    for (uint32_t s = 0; s < j.nsteps; s++) memcpy(j.push + (size_t)s * PUSH_BYTES, (const uint8_t *)pd + (size_t)s * j.pushLen, j.pushLen);
  }
  napi_value undef;
  napi_get_undefined(env, &undef);
  if (!parse_options(env, "runSteps", argc >= 4 ? argv[3] : undef, &j)) goto done;
  result = submit(env, &j);
done:
  job_free(&j);
  return result;
}

static napi_value js_run_steps(napi_env env, napi_callback_info info) {
  napi_value v = run_steps_inner(env, info);
  tlRun = 0;
  return v;
}

/* ------------------------------------------------------------------ validation messages, stats */

/* Every validation message still in the ring (the latest MAX_MSGS), oldest first. */
static napi_value js_validation_messages(napi_env env, napi_callback_info info) {
  napi_value arr = msgs_collect(env, 0, 0, UINT32_MAX, MAX_MSGS, NULL);
  if (!arr) return throw_state(env, "validationMessages: out of memory");
  return arr;
}

static napi_value js_stats(napi_env env, napi_callback_info info) {
  if (!S.ready) return throw_state(env, "Vulkan is not initialised: call init() first");
  uint32_t pipes = 0;
  for (Pipe *p = S.pipes; p; p = p->next) pipes++;
  napi_value o;
  NAPI_CALL(env, napi_create_object(env, &o));
  NAPI_CALL(env, set_num(env, o, "pipelines", pipes));
  NAPI_CALL(env, set_num(env, o, "pipelineHits", S.stats.pipelineHits));
  NAPI_CALL(env, set_num(env, o, "pipelineMisses", S.stats.pipelineMisses));
  NAPI_CALL(env, set_num(env, o, "buffersCreated", S.stats.buffersCreated));
  NAPI_CALL(env, set_num(env, o, "buffersReused", S.stats.buffersReused));
  NAPI_CALL(env, set_num(env, o, "freeBuffers", S.freeBufCount));
  NAPI_CALL(env, set_num(env, o, "freeBufferBytes", (double)S.freeBufBytes));
  NAPI_CALL(env, set_num(env, o, "slotsCreated", S.stats.slotsCreated));
  NAPI_CALL(env, set_num(env, o, "slotsReused", S.stats.slotsReused));
  NAPI_CALL(env, set_bool(env, o, "validation", S.validation));
  return o;
}

/* ------------------------------------------------------------------ shutdown */

static void free_leaked(napi_env env) {
  if (S.device) vkDeviceWaitIdle(S.device);
  while (S.leaked) {
    Run *n = S.leaked->next;
    run_free(env, S.leaked, false);
    S.leaked = n;
  }
}

/* Destroys everything; returns the validation messages that came during the teardown (objects
   still alive at vkDestroyDevice, for instance), an empty array without validation. */
static napi_value js_shutdown(napi_env env, napi_callback_info info) {
  napi_value out;
  NAPI_CALL(env, napi_create_array(env, &out));
  if (!S.ready) return out;
  if (env != S.env) return throw_state(env, "Vulkan was initialised by another Node environment (worker)");
  if (S.inflight) {
    char msg[128];
    snprintf(msg, sizeof msg, "shutdown: %u run%s still in flight; await them first", S.inflight, S.inflight == 1 ? "" : "s");
    return throw_state(env, msg);
  }
  uint64_t seq, errs;
  msg_mark(&seq, &errs);
  bool validation = S.validation;
  free_leaked(env);
  destroy_state();
  if (validation) {
    napi_value arr = msgs_collect(env, seq, errs, UINT32_MAX, MAX_RUN_MSGS, NULL);
    if (arr) out = arr;
  }
  msgs_free();
  return out;
}

static void cleanup_hook(void *arg) {
  napi_env env = arg;
  if (S.ready && S.env == env && !S.inflight) {
    free_leaked(NULL);
    destroy_state();
    msgs_free();
  }
}

NAPI_MODULE_INIT() {
  napi_property_descriptor props[] = {
      {"init", NULL, js_init, NULL, NULL, NULL, napi_default, NULL},
      {"profile", NULL, js_profile, NULL, NULL, NULL, napi_default, NULL},
      {"run", NULL, js_run, NULL, NULL, NULL, napi_default, NULL},
      {"runSteps", NULL, js_run_steps, NULL, NULL, NULL, napi_default, NULL},
      {"shutdown", NULL, js_shutdown, NULL, NULL, NULL, napi_default, NULL},
      {"validationMessages", NULL, js_validation_messages, NULL, NULL, NULL, napi_default, NULL},
      {"stats", NULL, js_stats, NULL, NULL, NULL, napi_default, NULL},
  };
  if (napi_define_properties(env, exports, sizeof props / sizeof props[0], props) != napi_ok) return NULL;
  napi_add_env_cleanup_hook(env, cleanup_hook, env);
  return exports;
}
