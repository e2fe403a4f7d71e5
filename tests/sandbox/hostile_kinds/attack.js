// A hostile Node.js bot: the battery's attacks (network, files, other seats, a fork bomb)
// from inside the sandbox, reported on stderr as the Python battery does ("ATTACK BLOCKED
// what: why" / "ATTACK ESCAPED what: result", then "ATTACK DONE"); then it listens on its
// socket, prints the readiness line and idles. Targets: /bot/params.json, written by
// tests/sandbox/test_kinds.py.
"use strict";
const child_process = require("node:child_process");
const fs = require("node:fs");
const net = require("node:net");
const dgram = require("node:dgram");

const params = JSON.parse(fs.readFileSync("/bot/params.json", "utf8"));

function report(outcome, text) {
  process.stderr.write(`ATTACK ${outcome} ${text}\n`);
}

function attempt(what, action) {
  try {
    const result = action();
    report("ESCAPED", `${what}: ${String(result).slice(0, 80)}`);
  } catch (error) {
    report("BLOCKED", `${what}: ${error.code || error.message}`);
  }
}

function connect(what, options) {
  return new Promise((resolve) => {
    const socket = net.connect(options);
    const timer = setTimeout(() => { socket.destroy(); report("BLOCKED", `${what}: timeout`); resolve(); }, 2000);
    socket.on("connect", () => { clearTimeout(timer); socket.destroy(); report("ESCAPED", `${what}: connected`); resolve(); });
    socket.on("error", (error) => { clearTimeout(timer); report("BLOCKED", `${what}: ${error.code}`); resolve(); });
  });
}

function send(what, port) {
  return new Promise((resolve) => {
    let udp;
    try {
      udp = dgram.createSocket("udp4");
    } catch (error) {
      report("BLOCKED", `${what}: ${error.code}`);
      return resolve();
    }
    udp.on("error", (error) => { report("BLOCKED", `${what}: ${error.code}`); udp.close(); resolve(); });
    udp.send("x", port, "127.0.0.1", (error) => {
      report(error ? "BLOCKED" : "ESCAPED", `${what}: ${error ? error.code : "sent"}`);
      udp.close();
      resolve();
    });
  });
}

async function attack() {
  await connect("tcp connect 127.0.0.1", { host: "127.0.0.1", port: params.tcp_port });
  await connect("tcp connect ::1", { host: "::1", port: params.tcp_port });
  await send("udp send 127.0.0.1", params.udp_port);
  await connect("host unix socket", { path: params.unix_path });
  await connect("host abstract socket", { path: "\0" + params.abstract_name });
  await connect("another seat's socket", { path: params.other_socket });
  attempt("read the host's canary", () => fs.readFileSync(params.canary, "utf8"));
  attempt("read the worker's code", () => fs.readFileSync(params.worker_code, "utf8"));
  attempt("read another seat's files", () => fs.readFileSync(params.other_bot_file, "utf8"));
  attempt("read the python runtime", () => fs.readFileSync(params.python_file));
  attempt("write a host file", () => fs.writeFileSync(params.host_target, "x"));
  attempt("write /bot", () => fs.writeFileSync("/bot/planted", "x"));
  attempt("kill another seat", () => process.kill(params.other_pid, "SIGKILL"));
  attempt("kill the runner", () => process.kill(params.runner_pid, "SIGKILL"));
  // A fork bomb through the shell, in a session of its own.
  try {
    child_process.spawn("/bin/sh", ["-c", "b() { b | b & }; b"], { detached: true, stdio: "ignore" });
  } catch (error) {
    report("BLOCKED", `fork bomb: ${error.code}`);
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const count = fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name)).length;
  report(count > params.max_processes ? "ESCAPED" : "BLOCKED", `fork bomb: ${count} processes visible after 2 s`);
  report("DONE", "");
}

const at = process.argv.indexOf("--address");
const address = process.argv[at + 1];
attack().then(() => {
  const server = net.createServer(() => {});
  server.listen(address.slice("unix:".length), () => {
    process.stdout.write(`HEARTS-BOT READY ${address}\n`);
  });
});
