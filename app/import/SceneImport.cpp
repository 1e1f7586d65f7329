#include "app/import/SceneImport.h"

#include "app/import/ImportFile.h"

#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace navbench::import {

namespace {

std::mutex g_pathMutex;
std::string g_importerPath;

std::string selfDir() {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  const std::string self(buf, size_t(n));
  const size_t slash = self.find_last_of('/');
  return slash == std::string::npos ? std::string(".") : self.substr(0, slash);
}

int timeoutSeconds() {
  if (const char* t = std::getenv("NAVBENCH_IMPORT_TIMEOUT_S")) {
    char* end = nullptr;
    const long v = std::strtol(t, &end, 10);
    if (end != t && *end == '\0' && v > 0 && v < INT_MAX) return int(v);
  }
  return DEFAULT_IMPORT_TIMEOUT_S;
}

/// A temporary file for the child's output, removed when this goes.
struct TempOut {
  std::string path;
  ~TempOut() {
    if (!path.empty()) ::unlink(path.c_str());
  }
  bool create(std::string* why) {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/navbench-import-XXXXXX";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0) {
      *why = "cannot create a temporary file " + pattern + ": " + std::strerror(errno);
      return false;
    }
    ::close(fd);
    path = name.data();
    return true;
  }
};

/// The child: its pid and the read end of its stdout + stderr.
struct Child {
  pid_t pid = -1;
  int fd = -1;
  bool reaped = false;
  int status = 0;
  ~Child() {
    if (fd >= 0) ::close(fd);
    if (pid > 0 && !reaped) { // an early return: never leave a child or a zombie behind
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
    }
  }
  bool start(const std::string& exe, const std::string& in, const std::string& out, std::string* why) {
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0) {
      *why = std::string("cannot make a pipe: ") + std::strerror(errno);
      return false;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, p[1], 1);
    posix_spawn_file_actions_adddup2(&fa, p[1], 2);
    std::vector<std::string> args = {exe, in, out};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int rc = ::posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    ::close(p[1]);
    fd = p[0];
    if (rc != 0) {
      pid = -1;
      *why = "cannot start the scene importer " + exe + ": " + std::strerror(rc) +
             " (navbench-import is built and installed beside navbench)";
      return false;
    }
    return true;
  }
};

std::string describeEnd(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = ::strsignal(sig);
    return "the importer crashed (signal " + std::to_string(sig) + (name ? std::string(", ") + name : std::string()) + ")";
  }
  return "the importer failed (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
}

} // namespace

void installSceneImporter() { installSceneImporter(selfDir() + "/navbench-import"); }

void installSceneImporter(const std::string& importerPath) {
  {
    std::lock_guard<std::mutex> lock(g_pathMutex);
    g_importerPath = importerPath;
  }
  nav::bake::setForeignMeshLoader(&importForeignMesh);
}

std::string sceneImporterPath() {
  std::lock_guard<std::mutex> lock(g_pathMutex);
  return g_importerPath;
}

bool importForeignMesh(const std::string& path, nav::bake::LevelMesh* out, std::string* why,
                       const nav::bake::MeshProgress& progress) {
  auto fail = [&](const std::string& msg) {
    if (why) *why = path + ": " + msg;
    return false;
  };
  if (::access(path.c_str(), R_OK) != 0) return fail("cannot open the file (missing or unreadable)");
  std::string err;
  TempOut tmp;
  if (!tmp.create(&err)) return fail(err);
  Child child;
  if (!child.start(sceneImporterPath(), path, tmp.path, &err)) return fail(err);

  // Read its lines until it closes its output; then reap it. The time limit covers both.
  const int limitS = timeoutSeconds();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(limitS);
  std::string text, message, lastLine;
  bool open = true;
  for (;;) {
    if (!open) {
      const pid_t r = ::waitpid(child.pid, &child.status, WNOHANG);
      if (r == child.pid) {
        child.reaped = true;
        break;
      }
    }
    if (std::chrono::steady_clock::now() >= deadline)
      return fail("the importer did not finish within " + std::to_string(limitS) + " s (stopped; NAVBENCH_IMPORT_TIMEOUT_S sets the limit)");
    if (open) {
      pollfd pfd{child.fd, POLLIN, 0};
      const int n = ::poll(&pfd, 1, 50);
      if (n < 0 && errno != EINTR) return fail(std::string("cannot read the importer's output: ") + std::strerror(errno));
      if (n <= 0) continue;
      char buf[4096];
      const ssize_t got = ::read(child.fd, buf, sizeof buf);
      if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (got <= 0) {
        open = false;
        continue;
      }
      text.append(buf, size_t(got));
      size_t eol;
      while ((eol = text.find('\n')) != std::string::npos) {
        const std::string line = text.substr(0, eol);
        text.erase(0, eol + 1);
        if (line.rfind("progress ", 0) == 0) {
          if (progress && !progress(std::atoll(line.c_str() + 9), 1000)) return fail("loading cancelled");
        } else if (line.rfind("error: ", 0) == 0) {
          message = line.substr(7);
        } else if (!line.empty()) {
          lastLine = line;
        }
      }
      if (text.size() > 65536) text.erase(0, text.size() - 4096); // a child that writes without newlines
    } else {
      ::usleep(10000);
    }
  }
  const int status = child.status;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    if (!readImportFile(tmp.path, out, &err)) return fail(err);
    if (progress) progress(1000, 1000);
    return true;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 2 && !message.empty()) return fail(message);
  std::string msg = describeEnd(status);
  if (!message.empty()) msg += ": " + message;
  else if (!lastLine.empty()) msg += "; it said: " + lastLine;
  return fail(msg);
}

} // namespace navbench::import
