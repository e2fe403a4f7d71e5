/* A hostile native bot: tries the battery's attacks (network, files, other seats, a fork
 * bomb) from inside the sandbox, reporting each on stderr as the Python battery does
 * ("ATTACK BLOCKED what: why" / "ATTACK ESCAPED what: result", then "ATTACK DONE"),
 * then listens on its socket and prints the readiness line, and idles. Its targets come
 * from /bot/params.txt (key=value lines) written by tests/sandbox/test_kinds.py. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static char params[4096];

static const char *param(const char *key) {
  static char value[512];
  size_t length = strlen(key);
  for (char *line = params; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    if (strncmp(line, key, length) == 0 && line[length] == '=') {
      const char *start = line + length + 1;
      size_t n = strcspn(start, "\n");
      snprintf(value, sizeof value, "%.*s", (int)n, start);
      return value;
    }
  }
  return "";
}

static void report(int escaped, const char *what, const char *detail) {
  fprintf(stderr, "ATTACK %s %s: %s\n", escaped ? "ESCAPED" : "BLOCKED", what, detail);
}

/* `result` < 0 means blocked (errno says why). */
static void outcome(const char *what, int result) {
  if (result < 0) report(0, what, strerror(errno));
  else report(1, what, "succeeded");
}

static int connect_inet(int family, const char *host, int port, int type) {
  int fd = socket(family, type, 0);
  if (fd < 0) return -1;
  int result;
  if (family == AF_INET) {
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, host, &address.sin_addr);
    result = type == SOCK_DGRAM ? (int)sendto(fd, "x", 1, 0, (struct sockaddr *)&address, sizeof address)
                                : connect(fd, (struct sockaddr *)&address, sizeof address);
  } else {
    struct sockaddr_in6 address = {.sin6_family = AF_INET6, .sin6_port = htons(port)};
    inet_pton(AF_INET6, host, &address.sin6_addr);
    result = connect(fd, (struct sockaddr *)&address, sizeof address);
  }
  int saved = errno;
  close(fd);
  errno = saved;
  return result;
}

static int connect_unix(const char *path, int abstract) {
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  socklen_t size;
  if (abstract) {
    snprintf(address.sun_path + 1, sizeof address.sun_path - 1, "%s", path);
    size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(path));
  } else {
    snprintf(address.sun_path, sizeof address.sun_path, "%s", path);
    size = sizeof address;
  }
  int result = connect(fd, (struct sockaddr *)&address, size);
  int saved = errno;
  close(fd);
  errno = saved;
  return result;
}

static int read_file(const char *path) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) return -1;
  char buffer[256];
  ssize_t n = read(fd, buffer, sizeof buffer);
  close(fd);
  return n < 0 ? -1 : 0;
}

static int count_processes(void) {
  int count = 0;
  DIR *proc = opendir("/proc");
  if (!proc) return -1;
  for (struct dirent *entry; (entry = readdir(proc));)
    if (entry->d_name[0] >= '0' && entry->d_name[0] <= '9') count++;
  closedir(proc);
  return count;
}

static void attack(void) {
  int tcp = atoi(param("tcp_port")), udp = atoi(param("udp_port"));
  outcome("tcp connect 127.0.0.1", connect_inet(AF_INET, "127.0.0.1", tcp, SOCK_STREAM));
  outcome("tcp connect ::1", connect_inet(AF_INET6, "::1", tcp, SOCK_STREAM));
  outcome("udp send 127.0.0.1", connect_inet(AF_INET, "127.0.0.1", udp, SOCK_DGRAM));
  outcome("host unix socket", connect_unix(param("unix_path"), 0));
  outcome("host abstract socket", connect_unix(param("abstract_name"), 1));
  outcome("read the host's canary", read_file(param("canary")));
  outcome("read the worker's code", read_file(param("worker_code")));
  outcome("read /etc/shadow", read_file("/etc/shadow"));
  int fd = open(param("host_target"), O_WRONLY | O_CREAT, 0644);
  outcome("write a host file", fd);
  if (fd >= 0) close(fd);
  outcome("write /bot", open("/bot/planted", O_WRONLY | O_CREAT, 0644));
  outcome("another seat's socket", connect_unix(param("other_socket"), 0));
  outcome("read another seat's files", read_file(param("other_bot_file")));
  outcome("kill another seat", kill(atoi(param("other_pid")), SIGKILL));
  outcome("kill the runner", kill(atoi(param("runner_pid")), SIGKILL));
  outcome("read the python runtime", read_file(param("python_file")));
  /* A fork bomb, in its own child so that this process goes on reporting. */
  pid_t bomb = fork();
  if (bomb == 0) {
    setsid();
    for (;;)
      if (fork() < 0) usleep(10000);
  }
  sleep(2);
  int count = count_processes();
  char detail[64];
  snprintf(detail, sizeof detail, "%d processes visible after 2 s", count);
  report(count > atoi(param("max_processes")), "fork bomb", detail);
  fprintf(stderr, "ATTACK DONE\n");
}

int main(int argc, char **argv) {
  const char *address = argc > 2 && strcmp(argv[1], "--address") == 0 ? argv[2] : NULL;
  if (!address || strncmp(address, "unix:", 5) != 0) return 2;
  FILE *file = fopen("/bot/params.txt", "r");
  if (file) {
    size_t n = fread(params, 1, sizeof params - 1, file);
    params[n] = 0;
    fclose(file);
  }
  attack();
  int server = socket(AF_UNIX, SOCK_STREAM, 0);
  struct sockaddr_un local = {.sun_family = AF_UNIX};
  snprintf(local.sun_path, sizeof local.sun_path, "%s", address + 5);
  if (bind(server, (struct sockaddr *)&local, sizeof local) < 0 || listen(server, 8) < 0) {
    perror("bind");
    return 2;
  }
  printf("HEARTS-BOT READY %s\n", address);
  fflush(stdout);
  for (;;) pause();
}
