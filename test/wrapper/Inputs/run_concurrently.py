"""Runs a command N times at once; '{i}' in an argument becomes the copy's
number. Fails when any copy fails, printing its output."""
import subprocess
import sys

count = int(sys.argv[1])
command = sys.argv[2:]
procs = [subprocess.Popen([a.replace("{i}", str(i)) for a in command],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
         for i in range(count)]
failed = 0
for i, p in enumerate(procs):
    out, _ = p.communicate()
    sys.stdout.write(out.decode())
    if p.returncode != 0:
        print("copy %d exited with %d" % (i, p.returncode))
        failed += 1
sys.exit(1 if failed else 0)
