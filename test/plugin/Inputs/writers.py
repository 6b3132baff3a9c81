"""Runs a command that writes a file, in the two ways output integrity is
tested (AtomicFile.h):

  writers.py kill SIGNAL FILE -- COMMAND...
      runs COMMAND with TF_TEST_PAUSE_BEFORE_RENAME=1, waits until it has
      written its temporary and stopped before the rename, sends SIGNAL
      (TERM or KILL) and prints what is left beside FILE: `FILE: <bytes>`
      and `temporary: <name> <complete|partial>` lines, the temporary named
      without its random tail.
  writers.py parallel N -- COMMAND...
      runs N copies of COMMAND at once and prints `exit: CODE` for each.
"""
import os
import signal
import subprocess
import sys


def kill(sig, path, command):
    env = dict(os.environ, TF_TEST_PAUSE_BEFORE_RENAME="1")
    proc = subprocess.Popen(command, env=env, stderr=subprocess.PIPE,
                            text=True)
    temporary = None
    for line in proc.stderr:
        if line.startswith("tf: paused before renaming "):
            temporary = line.split("renaming ", 1)[1].strip()
            break
    if temporary is None:
        proc.wait()
        sys.exit("the command ended without pausing (exit {})".format(
            proc.returncode))
    written = open(temporary, "rb").read()
    proc.send_signal(getattr(signal, "SIG" + sig))
    proc.wait()
    print("exit: signal {}".format(-proc.returncode))
    directory, name = os.path.split(path)
    for entry in sorted(os.listdir(directory or ".")):
        full = os.path.join(directory, entry)
        if entry == name:
            print("{}: {}".format(entry, open(full, "rb").read().decode()))
        elif entry.startswith(name + ".tmp-"):
            state = ("complete" if open(full, "rb").read() == written
                     else "partial")
            print("temporary: {}.tmp-* {}".format(name, state))
        else:
            print("other: {}".format(entry))


def parallel(count, command):
    procs = [subprocess.Popen(command) for _ in range(count)]
    for proc in procs:
        print("exit: {}".format(proc.wait()))


def main():
    split = sys.argv.index("--")
    mode, args, command = sys.argv[1], sys.argv[2:split], sys.argv[split + 1:]
    if mode == "kill":
        kill(args[0], args[1], command)
    else:
        parallel(int(args[0]), command)


if __name__ == "__main__":
    main()
