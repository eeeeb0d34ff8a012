/* libjvmsight-loader.so: the library the JVM is pointed at (-agentpath,
 * JAVA_TOOL_OPTIONS, jcmd JVMTI.agent_load). It needs nothing but libc: it
 * dlopen()s libjvmsight.so from its own directory and forwards the JVM's
 * call. When the agent cannot be loaded (missing, a dependency the dynamic
 * linker cannot resolve, a symbol version the system lacks, no entry point)
 * it prints one line and lets the JVM run on, which a direct -agentpath to a
 * broken agent cannot do: the JVM refuses to start then.
 *
 * Plain C on purpose: no C++ runtime, no exceptions, nothing that could itself
 * fail to load. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <jni.h>
#include <string.h>
#include <unistd.h>

typedef jint(JNICALL* StartFn)(JavaVM*, char*, void*);
typedef void(JNICALL* UnloadFn)(JavaVM*);

static const char agent_name[] = "libjvmsight.so";

/* The loaded agent; the JVM calls OnLoad once and OnAttach from its single
 * attach listener thread, so no lock is needed. */
static void* agent;

/* Writes "<directory of this library>/libjvmsight.so" into out; 0 on success. */
static int agent_path(char* out, size_t size) {
  Dl_info info;
  if (dladdr((void*)&agent_path, &info) == 0 || info.dli_fname == NULL) return -1;
  const char* slash = strrchr(info.dli_fname, '/');
  size_t dir_length = slash != NULL ? (size_t)(slash - info.dli_fname) + 1 : 0;
  if (dir_length + sizeof agent_name > size) return -1;
  memcpy(out, info.dli_fname, dir_length);
  memcpy(out + dir_length, agent_name, sizeof agent_name);
  return 0;
}

static size_t append(char* line, size_t used, size_t size, const char* text) {
  size_t n = strlen(text);
  if (used + n >= size) n = size - used - 1;
  memcpy(line + used, text, n);
  line[used + n] = '\0';
  return used + n;
}

/* One line, one write(2). No format string: the reason comes from dlerror()
 * and may quote a path. */
static void report(const char* path, const char* reason) {
  char line[4096];
  size_t used = 0;
  used = append(line, used, sizeof line - 1, "jvmsight: error: cannot load ");
  used = append(line, used, sizeof line - 1, path);
  used = append(line, used, sizeof line - 1, ": ");
  used = append(line, used, sizeof line - 1, reason != NULL ? reason : "unknown error");
  used = append(line, used, sizeof line - 1, "; the JVM continues without jvmsight");
  line[used++] = '\n';
  ssize_t ignored = write(STDERR_FILENO, line, used);
  (void)ignored;
}

/* The agent's entry point named entry, or NULL after reporting why not. */
static void* entry_point(const char* entry) {
  char path[4096];
  if (agent_path(path, sizeof path) != 0) {
    report(agent_name, "cannot find the directory of libjvmsight-loader.so");
    return NULL;
  }
  if (agent == NULL) {
    dlerror();
    agent = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (agent == NULL) {
      report(path, dlerror());
      return NULL;
    }
  }
  dlerror();
  void* symbol = dlsym(agent, entry);
  if (symbol == NULL) {
    report(path, dlerror());
    dlclose(agent);
    agent = NULL;
  }
  return symbol;
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM* vm, char* options, void* reserved) {
  StartFn start = (StartFn)entry_point("Agent_OnLoad");
  /* JNI_OK: a JVM that would run fine without the agent must start. */
  return start != NULL ? start(vm, options, reserved) : JNI_OK;
}

JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM* vm, char* options, void* reserved) {
  StartFn start = (StartFn)entry_point("Agent_OnAttach");
  /* JNI_ERR: jcmd JVMTI.agent_load then tells the user it failed. */
  return start != NULL ? start(vm, options, reserved) : JNI_ERR;
}

JNIEXPORT void JNICALL Agent_OnUnload(JavaVM* vm) {
  if (agent == NULL) return;
  UnloadFn unload = (UnloadFn)dlsym(agent, "Agent_OnUnload");
  if (unload != NULL) unload(vm);
}
