#!/usr/bin/env python3
"""`kindred ask` through a pseudo-terminal (issue 25): the program runs in a
tmux session (its own server socket), keys are sent with send-keys and the
screen read with capture-pane. Answers, undo, Ctrl-C in the middle of a
session, a second run resuming from the file, quit, the final fit; the same
for triplets; the progress line while reading a large file; and the error paths.

Run by meson as: python3 test_cli_ask.py PATH/TO/kindred PATH/TO/data
Needs tmux (tools/quickstart.sh installs it).
"""
import itertools
import os
import shlex
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_cli  # noqa: E402
from test_cli import run  # noqa: E402

# Every terminal gets a tmux server of its own: a new session on a server still shutting down fails.
SERVERS = itertools.count()

PEOPLE = "item,x,y,note\nann,0,0,tall\nbob,0,1,short\ncid,1,0,tall\ndan,10,10,short\neve,10,11,tall\nfay,11,10,tall\n"


class Terminal:
    """One program in a detached tmux session on a private socket."""

    def __init__(self, socket, command, cwd):
        self.socket = socket
        self.name = "ask"
        self.log = os.path.join(cwd, "pane.log")
        # The shell prints the exit code when the program ends, then waits, so the screen stays readable.
        # It traps Ctrl-C (a trapped signal, unlike an ignored one, is default again in the program).
        # The program starts only once the pane's output is logged (the file `go` is made after
        # pipe-pane): on a loaded machine pipe-pane attached late and lost the program's first lines.
        go = os.path.join(cwd, "go-" + os.path.basename(socket))
        shell = "trap : INT; while [ ! -e %s ]; do sleep 0.02; done; cd %s && %s; echo EXIT=$?; sleep 600" % (
            shlex.quote(go), shlex.quote(cwd), command)
        self.tmux("new-session", "-d", "-s", self.name, "-x", "200", "-y", "50", shell)
        self.tmux("pipe-pane", "-t", self.name, "-o", "cat >> " + shlex.quote(self.log))
        open(go, "w").close()

    def tmux(self, *args):
        return subprocess.run(["tmux", "-L", self.socket] + list(args), check=True, capture_output=True,
                              text=True, timeout=30).stdout

    def screen(self):
        return self.tmux("capture-pane", "-p", "-t", self.name, "-S", "-200")

    def wait_for(self, words, timeout=30, seen=0):
        """Waits until `words` shows on the screen more than `seen` times (the screen keeps earlier questions),
        and for a question header until the question is drawn whole."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            screen = self.screen()
            # A question is whole once its prompt shows: the header line may be drawn before the A/B/C lines.
            whole = not words.startswith("question ") or " >" in screen[screen.rfind(words):]
            if screen.count(words) > seen and whole:
                return screen
            time.sleep(0.05)
        raise AssertionError("%r did not appear on the screen:\n%s" % (words, self.screen()))

    def keys(self, *keys):
        self.tmux("send-keys", "-t", self.name, *keys)

    def answer(self, letter, then=None):
        """Types an answer; with `then`, waits for that text to show once more and returns the screen."""
        seen = self.screen().count(then) if then else 0
        self.keys(letter, "Enter")
        return self.wait_for(then, seen=seen) if then else None

    def close(self):
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=30)


class Tmp(test_cli.Tmp):
    fails = test_cli.BadInput.fails

    def setUp(self):
        super().setUp()
        self.socket = "kindred-test-%d" % os.getpid()
        self.terminals = []

    def tearDown(self):
        for t in self.terminals:
            t.close()
        super().tearDown()

    def terminal(self, *args, env=""):
        for t in self.terminals:
            t.close()
        command = env + " ".join(shlex.quote(str(a)) for a in [test_cli.KINDRED] + list(args))
        t = Terminal("%s-%d" % (self.socket, next(SERVERS)), command, self.tmp)
        self.terminals = [t]
        return t

    def rows(self, path):
        with open(path) as f:
            return f.read().splitlines()


def last_question(screen):
    """The (A, B[, C]) names of the last question shown."""
    lines = screen.splitlines()
    start = max(k for k, l in enumerate(lines) if l.startswith("question "))
    names = []
    for line in lines[start + 1:]:
        parts = line.split()
        if len(parts) >= 2 and parts[0] in ("A", "B", "C"):
            names.append(parts[1])
    return tuple(names)


class AskPairs(Tmp):
    def test_answers_ctrl_c_resume_undo_quit(self):
        data = self.path("people.csv", PEOPLE)
        out = os.path.join(self.tmp, "answers.csv")
        args = ["ask", "pckmeans", "--data", data, "--id-column", "item", "--drop", "note", "--show", "note", "--budget", "6",
                "--k", "2", "--out", out]
        t = self.terminal(*args)
        screen = t.wait_for("question 1 of at most 6")
        self.assertIn("note: ", screen)  # --show
        q1 = last_question(screen)
        q2 = last_question(t.answer("s", then="question 2 of at most 6"))
        q3 = last_question(t.answer("d", then="question 3 of at most 6"))
        # Both answers are on disk before the session ends; Ctrl-C ends it in the middle of question 3.
        self.assertEqual(self.rows(out), ["i,j,value", "%s,%s,1" % q1, "%s,%s,-1" % q2])
        t.keys("C-c")
        t.wait_for("EXIT=130")
        self.assertEqual(len(self.rows(out)), 3)

        # A second run resumes: it asks question 3 again (the same pair), not question 1.
        t = self.terminal(*args)
        screen = t.wait_for("question 3 of at most 6")
        self.assertIn("resuming: 2 answers already in", screen)
        self.assertEqual(last_question(screen), q3)
        self.assertNotIn("question 1 ", screen)
        # Undo takes back the answer to question 2, which is asked again.
        screen = t.answer("u", then="the last answer is undone")
        self.assertEqual(last_question(t.wait_for("question 2 of at most 6")), q2)
        self.assertEqual(len(self.rows(out)), 2)
        t.answer("wat", then="answer with one of the letters")
        self.assertEqual(last_question(t.answer("d", then="question 3 of at most 6")), q3)
        t.answer("k", then="question 4 of at most 6")
        screen = t.answer("q", then="EXIT=0")
        self.assertIn("3 answers in", screen)
        self.assertIn("1 same, 1 different, 1 don't know", screen)
        self.assertIn("pckmeans: 2 clusters", screen)
        self.assertEqual(self.rows(out), ["i,j,value", "%s,%s,1" % q1, "%s,%s,-1" % q2, "%s,%s,0" % q3])
        # The answers file is an ordinary pairs file, by ID.
        run("fit", "pckmeans", "--data", data, "--id-column", "item", "--drop", "note", "--k", "2", "--pairs", out)

    def test_session_ends_at_the_budget_and_writes_labels(self):
        data = self.path("people.csv", PEOPLE)
        out, labels = self.path("a.csv"), self.path("labels.csv")
        t = self.terminal("ask", "copkmeans", "--data", data, "--id-column", "item", "--budget", "2", "--k", "2",
                          "--out", out, "--clusters", labels, "--drop", "note")
        t.wait_for("question 1 of at most 2")
        t.answer("d", then="question 2 of at most 2")
        screen = t.answer("d", then="EXIT=0")
        self.assertIn("labels written to", screen)
        self.assertEqual(self.rows(labels)[0], "item,cluster")
        self.assertEqual(len(self.rows(labels)), 7)


class AskTriplets(Tmp):
    def test_triplets_with_ctrl_c_and_resume(self):
        data = self.path("people.csv", PEOPLE)
        out = self.path("t.csv")
        args = ["ask", "dcrc", "--data", data, "--id-column", "item", "--drop", "note", "--budget", "3", "--k", "2",
                "--out", out]
        t = self.terminal(*args)
        q1 = last_question(t.wait_for("question 1 of 3"))
        self.assertEqual(len(q1), 3)
        t.answer("b", then="question 2 of 3")
        t.keys("C-c")
        t.wait_for("EXIT=130")
        self.assertEqual(self.rows(out), ["a,b,c,answer", "%s,%s,%s,1" % q1])
        t = self.terminal(*args)
        t.wait_for("resuming: 1 answers")
        t.wait_for("question 2 of 3")
        t.answer("c", then="question 3 of 3")
        screen = t.answer("k", then="EXIT=0")
        self.assertIn("1 B, 1 C, 1 don't know", screen)
        # Another seed would ask other triplets: the file is not silently mixed with them.
        self.fails(2, *(args + ["--seed", "5"]), contains=["another seed"])


class ReadingProgress(Tmp):
    def test_progress_line_on_a_terminal_only(self):
        big = self.path("big.csv", "a,b\n" + "".join("%d,%d\n" % (k % 97, k % 13) for k in range(200000)))
        # The line shows after half a second of reading; here at once, as this file is read faster.
        t = self.terminal("fit", "kmeans", "--data", big, "--k", "2", env="KINDRED_PROGRESS_DELAY_MS=0 ")
        t.wait_for("EXIT=0")
        with open(t.log, errors="replace") as f:
            raw = f.read()
        self.assertIn("reading %s: " % big, raw)
        self.assertIn("rows)", raw)
        # Not on a pipe: stderr stays empty.
        _, err = run("fit", "kmeans", "--data", big, "--k", "2")
        self.assertEqual(err, "")


class AskErrors(Tmp):
    def test_bad_ask_requests(self):
        data = self.path("people.csv", PEOPLE)
        out = self.path("a.csv")
        common = ["--data", data, "--id-column", "item", "--drop", "note"]
        self.fails(2, "ask", "kmeans", *common, "--budget", "3", "--out", out, contains=["neither pairs nor triplets"])
        self.fails(2, "ask", "pckmeans", *common, "--out", out, contains=["--budget"])
        self.fails(2, "ask", "pckmeans", *common, "--budget", "3", contains=["--out"])
        self.fails(2, "ask", "pckmeans", *common, "--budget", "3", "--out", out, "--show", "nope", contains=["--show nope"])
        self.fails(2, "ask", "pckmeans", *common, "--budget", "3", "--out", out, "--strategy", "x", contains=["--strategy"])
        self.fails(2, "ask", "pckmeans", *common, "--budget", "3", "--out", out, "--k", "9", contains=["--k 9"])
        self.fails(2, "ask", contains=["algorithm"])
        self.fails(2, "ask", "pckmeans", "--data", "-", "--budget", "3", "--out", out, contains=["--data -"])
        bad = self.path("bad.csv", "i,j,value\nann,zed,1\n")
        self.fails(1, "ask", "pckmeans", *common, "--budget", "3", "--k", "2", "--out", bad,
                   contains=["bad.csv:2:2", "unknown ID 'zed'"])
        self.fails(1, "ask", "pckmeans", *common, "--budget", "3", "--k", "2", "--out", os.path.join(self.tmp, "no", "a.csv"),
                   contains=["a.csv"])

    def test_answers_from_a_pipe(self):
        # Standard input need not be a terminal: scripted answers, end of input = quit.
        data = self.path("people.csv", PEOPLE)
        out = self.path("a.csv")
        text, _ = run("ask", "pckmeans", "--data", data, "--id-column", "item", "--drop", "note", "--budget", "4",
                      "--k", "2", "--out", out, stdin="s\nd\n")
        self.assertIn("2 answers in", text)
        self.assertEqual(len(self.rows(out)), 3)


if __name__ == "__main__":
    sys.exit(test_cli.main())  # sets the program and data paths, runs this file's tests
