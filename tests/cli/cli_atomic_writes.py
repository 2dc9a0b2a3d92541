"""Every file the kindred program writes (labels, model, sampled pairs and
triplets) replaces the old file whole or not at all: under a file-size limit
that makes the write fail part way (as a full disk would), the command exits
non-zero naming the file, and the previous file is still there, byte for byte,
with no temporary file beside it.

Usage: python3 cli_atomic_writes.py KINDRED DATA_DIR
"""
import os
import resource
import signal
import subprocess
import sys
import tempfile

KINDRED, DATA = sys.argv[1], sys.argv[2]
IRIS = os.path.join(DATA, "iris.csv")


def limited(max_bytes):
    """In the child: writes beyond max_bytes fail with EFBIG (SIGXFSZ ignored)."""
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (max_bytes, max_bytes))
    return apply


def run(args, preexec=None):
    return subprocess.run([KINDRED] + args, capture_output=True, text=True, timeout=120, preexec_fn=preexec)


def check_kept(flag, args, path, old, directory):
    with open(path, "wb") as f:
        f.write(old)
    p = run(args, limited(64))  # smaller than any new file, and the old one is not rewritten
    assert p.returncode == 1, "%s: exit %d under the file-size limit\n%s" % (flag, p.returncode, p.stderr)
    assert os.path.basename(path) in p.stderr, "%s: message does not name the file: %s" % (flag, p.stderr)
    with open(path, "rb") as f:
        assert f.read() == old, "%s: the previous file was changed by a failed write" % flag
    assert os.listdir(directory) == [os.path.basename(path)], "%s: left %s" % (flag, os.listdir(directory))
    # And without the limit the same command replaces the file.
    p = run(args)
    assert p.returncode == 0, "%s: %s" % (flag, p.stderr)
    with open(path, "rb") as f:
        assert f.read() != old, "%s: not replaced" % flag
    print("%s: a failed write keeps the old file, a good one replaces it" % flag)


def main():
    # Old contents longer than anything the limit lets through.
    old = b"an earlier file the user wants to keep\n" * 2000
    cases = [
        ("fit --out", ["fit", "kmeans", "--data", IRIS, "--k", "3", "--out"], "labels.csv"),
        ("fit --model", ["fit", "kmeans", "--data", IRIS, "--k", "3", "--model"], "model.kdm"),
        ("sample pairs --out", ["sample", "--data", IRIS, "--pairs-count", "2000", "--out"], "pairs.csv"),
        ("sample triplets --out", ["sample", "--data", IRIS, "--triplets-count", "2000", "--out"], "triplets.csv"),
    ]
    for flag, args, name in cases:
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, name)
            check_kept(flag, args + [path], path, old, directory)


if __name__ == "__main__":
    main()
