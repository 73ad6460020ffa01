{
  "targets": [
    {
      "target_name": "rdna_vulkan",
      "sources": ["rdna_vulkan.c"],
      "cflags": ["-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter", "-O2"],
      "defines": ["NAPI_VERSION=8", "_POSIX_C_SOURCE=200809L"],
      "libraries": ["-lvulkan"]
    }
  ]
}
